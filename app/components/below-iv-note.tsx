/**
 * What a green price means, for screen readers: the price is below the stock's average IV (the
 * UIP list's "Below IV" filter). Sighted users get an underline beside the colour (app.css), so
 * colour is never the only sign.
 */
export function BelowIvNote() {
  return <span className="visually-hidden">, below IV</span>;
}
