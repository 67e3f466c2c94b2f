/** Pure rules of the UIP list (docs/product.md#screens-uip-list): category chips and their filter. */
import { ALL_CATEGORIES_ID, BELOW_IV_ID } from "#contract/constants.ts";
import type { Category, CategoryIcon } from "#contract/entities.ts";

export { ALL_CATEGORIES_ID, BELOW_IV_ID };

export interface CategoryChip {
  id: number;
  name: string;
  /** The category's icon; none for the two synthetic chips. */
  icon: CategoryIcon | null;
}

/** The chips in the order shown: 'All Categories', 'Below IV', then the categories as the provider lists them. */
export function categoryChips(categories: readonly Category[]): CategoryChip[] {
  return [
    { id: ALL_CATEGORIES_ID, name: "All Categories", icon: null },
    { id: BELOW_IV_ID, name: "Below IV", icon: null },
    ...categories.map((c) => ({ id: c.id, name: c.name, icon: c.icon })),
  ];
}

/**
 * The chosen chip from the URL's `category`: one of the chips' ids, else 'All Categories' (a
 * category that was removed, or a hand-typed value, shows the whole list rather than nothing).
 */
export function chosenCategory(param: string | null, chips: readonly CategoryChip[]): number {
  const id = Number(param);
  if (param === null || !Number.isSafeInteger(id)) return ALL_CATEGORIES_ID;
  return chips.some((chip) => chip.id === id) ? id : ALL_CATEGORIES_ID;
}

/** True when the stock trades below its average IV (the 'Below IV' chip). */
export function isBelowIv(row: { average_iv: number; stock: { current_price: number } }): boolean {
  return row.stock.current_price < row.average_iv;
}

/** The rows of a chip: all, those below their average IV, or those of one category. */
export function filterByCategory<
  T extends { category_id: number; average_iv: number; stock: { current_price: number } },
>(rows: readonly T[], categoryId: number): T[] {
  if (categoryId === ALL_CATEGORIES_ID) return [...rows];
  if (categoryId === BELOW_IV_ID) return rows.filter(isBelowIv);
  return rows.filter((row) => row.category_id === categoryId);
}
