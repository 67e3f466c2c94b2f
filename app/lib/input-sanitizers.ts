/** What a field keeps of what is typed, shared by the forms' schemas and the live inputs (no zod here). */

/** docs/product.md#validation-stock: a ticker keeps only letters and digits, in upper case ("brk.b " → "BRKB"). */
export function sanitizeTicker(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

/** Keeps digits and the first decimal point, as typed into a value field ("-1,2.5.0" → "12.50"). */
export function sanitizeDecimalInput(text: string): string {
  const kept = text.replace(/[^0-9.]/g, "");
  const dot = kept.indexOf(".");
  return dot === -1 ? kept : kept.slice(0, dot + 1) + kept.slice(dot + 1).replace(/\./g, "");
}
