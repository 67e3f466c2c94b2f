import { z } from "zod";
import { sanitizeTicker } from "./input-sanitizers.ts";
import { CATEGORY_REQUIRED, SUPPORT_FIELDS, TICKER_MAX } from "./stock-fields.ts";

/**
 * The stock forms of docs/product.md#screens-watchlist-add, #validation-stock (watchlist add and edit; the UIP forms extend the same
 * fields with a category). One schema per form, run by Conform in the browser and by the action.
 */

/** docs/product.md#constants-bounds: the largest price, IV or buy level. */
const STOCK_VALUE_MAX = 9_999_999;
/** Digits with one optional decimal point: "12", "12.", "12.5", ".5". */
const DECIMAL_PATTERN = /^(\d+\.?\d*|\.\d+)$/;

/**
 * A price, IV or buy-level field (docs/product.md#validation-stock): digits with one optional decimal point, 0 to
 * 9,999,999. The field is always sent; an empty one counts as 0. Conform hands an empty field
 * over as undefined.
 */
function stockValue(label: string) {
  return z
    .string()
    .trim()
    .regex(DECIMAL_PATTERN, `${label} accepts only digits and one decimal point`)
    .optional()
    .transform((text) => (text === undefined || text === "" ? 0 : Number(text)))
    .pipe(z.number().min(0, `${label} must be at least 0`).max(STOCK_VALUE_MAX, `${label} must be at most 9,999,999`));
}

const tickerField = z
  .string({ error: "Ticker Symbol is required" })
  .transform(sanitizeTicker)
  .pipe(
    // Conform reads an empty string as undefined here too, hence the same message for both.
    z
      .string({ error: "Ticker Symbol is required" })
      .min(1, "Ticker Symbol is required")
      .max(TICKER_MAX, `Ticker Symbol is at most ${TICKER_MAX} letters and digits`),
  );

/** The value fields with the labels of one form (both say "1st buy level" now; the parameter stays for callers). */
export function stockValuesSchema(labels: "add" | "edit" = "add") {
  const level = (i: number) => (labels === "add" ? SUPPORT_FIELDS[i]!.label : SUPPORT_FIELDS[i]!.editLabel);
  return z.object({
    base_iv: stockValue("Base Value"),
    conservative_iv: stockValue("Cons Value"),
    buy_level_one: stockValue(level(0)),
    buy_level_two: stockValue(level(1)),
    buy_level_three: stockValue(level(2)),
    buy_level_four: stockValue(level(3)),
  });
}
export type StockValues = z.infer<ReturnType<typeof stockValuesSchema>>;

/** /add-user-stock: the ticker, the looked-up name (read-only, may be empty) and the values. */
export const AddUserStockSchema = stockValuesSchema("add").extend({
  ticker: tickerField,
  name: z.string().trim().max(200).optional().default(""),
});
export type AddUserStock = z.infer<typeof AddUserStockSchema>;

/** /user-stock/{ticker}: the values only; the ticker is the page's. */
export const EditUserStockSchema = stockValuesSchema("edit");
export type EditUserStock = z.infer<typeof EditUserStockSchema>;

/** A category id from the select; an empty choice (Conform: undefined) or anything not an id is refused. */
const categoryIdField = z
  .string({ error: CATEGORY_REQUIRED })
  .trim()
  .regex(/^[1-9]\d{0,9}$/, CATEGORY_REQUIRED)
  .transform(Number);

/** /add-uip-stock: the watchlist's add fields plus the category. */
export const AddUipStockSchema = AddUserStockSchema.extend({ category_id: categoryIdField });
export type AddUipStock = z.infer<typeof AddUipStockSchema>;

/** /uip-stock/{ticker}: the edit values plus the category. */
export const EditUipStockSchema = stockValuesSchema("edit").extend({ category_id: categoryIdField });
export type EditUipStock = z.infer<typeof EditUipStockSchema>;
