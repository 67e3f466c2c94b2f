import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * The same screen again, no form sent: a step within it (a link or `navigate` that changed only
 * the search: a list's search, reorder mode, a dialog) or a reload of its data. Layouts whose data
 * such a step cannot change may skip it (a request saved on a slow phone; offline, a read with no
 * saved answer would reload the whole page).
 */
export function isSameScreen({
  currentUrl,
  nextUrl,
  formMethod,
}: Pick<ShouldRevalidateFunctionArgs, "currentUrl" | "nextUrl" | "formMethod">): boolean {
  return !formMethod && currentUrl.pathname === nextUrl.pathname;
}
