import { priceTone } from "#app/lib/format.ts";
import { BELOW_IV_NOTE } from "#app/lib/stock-row-html.ts";

/**
 * What a green price means, for screen readers: the price is below the stock's average IV (the
 * UIP list's "Below IV" filter); nothing when it is not. Sighted users get an underline beside the
 * colour (app.css, ADR 0050), so colour is never the only sign. A list row writes the same note
 * as markup (lib/stock-row-html.ts).
 */
export function BelowIvNote({ price, averageIv }: { price: number; averageIv: number }) {
  return priceTone(price, averageIv) === "green" ? <span className="visually-hidden">{BELOW_IV_NOTE}</span> : null;
}
