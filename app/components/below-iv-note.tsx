import { priceTone } from "#app/lib/format.ts";

/**
 * What a green price means, for screen readers: the price is below the stock's average IV (the
 * UIP list's "Below IV" filter); nothing when it is not. Sighted users get an underline beside the
 * colour (app.css, ADR 0050), so colour is never the only sign.
 */
export function BelowIvNote({ price, averageIv }: { price: number; averageIv: number }) {
  return priceTone(price, averageIv) === "green" ? <span className="visually-hidden">, below IV</span> : null;
}
