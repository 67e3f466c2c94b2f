/**
 * The stock lists' URL state (ADR 9), the same names on the watchlist and the UIP list: search text
 * and whether the search bar is open, the category chip (UIP), the row expanded without JavaScript,
 * reorder mode, and the modals (delete, add to the watchlist, AI analysis), each naming its ticker.
 */
export const LIST_PARAM = {
  query: "q",
  search: "search",
  category: "category",
  open: "open",
  reorder: "reorder",
  delete: "delete",
  add: "add",
  ai: "ai",
} as const;
