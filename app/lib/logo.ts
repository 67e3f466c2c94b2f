/**
 * Company logos (docs/product.md#calls-other: loaded from an external logo host using the lower-case ticker).
 * The host is a setting, LOGO_URL_TEMPLATE, with `{ticker}` where the ticker goes.
 */

/** The logo's address, or null when no template is set (the row shows initials). */
export function logoUrl(template: string | null | undefined, ticker: string): string | null {
  if (!template || !template.includes("{ticker}")) return null;
  return template.replaceAll("{ticker}", encodeURIComponent(ticker.toLowerCase()));
}

/** What stands in for a logo: the ticker's first two characters ("AAPL" → "AA", "V" → "V"). */
export function logoInitials(ticker: string): string {
  return ticker.slice(0, 2).toUpperCase();
}
