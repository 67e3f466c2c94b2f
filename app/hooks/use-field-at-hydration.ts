import { useEffect, useState, type Dispatch, type SetStateAction } from "react";
import { isHydrating } from "./use-hydrated.ts";

/**
 * The text of a server-rendered field (by id) while the page hydrates, when it differs from the
 * HTML's: what was typed into it before the scripts ran. Undefined after hydration, on the server,
 * without such a field, or when nothing was typed.
 */
export function fieldAtHydration(id: string): string | undefined {
  if (!isHydrating() || typeof document === "undefined" || !id) return undefined;
  const field = document.getElementById(id);
  // Only what the user changed: a page answered from the offline copy has the HTML of another
  // address (without its ?q=), whose untouched box must not replace the address's value.
  if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement)) return undefined;
  return field.value !== field.defaultValue ? field.value : undefined;
}

/**
 * State for an enhanced text field that starts from what the field holds at hydration (ADR 0084):
 * text typed before the page's scripts ran is the state the control starts from, so the list it
 * filters follows it, instead of the server's value (the URL's) standing while the box shows
 * another. Read at the hydration render, and once more when it commits, for a letter typed while
 * React hydrated (it hydrates in a transition, ADR 0049).
 */
export function useFieldState(id: string, fallback: string): [string, Dispatch<SetStateAction<string>>] {
  const [value, setValue] = useState(() => fieldAtHydration(id) ?? fallback);
  useEffect(() => announceTyped(id, value), []); // eslint-disable-line react-hooks/exhaustive-deps
  return [value, setValue];
}

/**
 * At the commit of the hydration: a field holding other text than its state (a letter typed while
 * React hydrated) is handed over as the input it was, to the field's own onChange, as the add page's
 * ticker does (app/components/stock-list/add-stock-form.tsx).
 */
export function announceTyped(id: string, state: string): void {
  const field = document.getElementById(id);
  if (
    (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) &&
    field.value !== state &&
    field.value !== field.defaultValue
  ) {
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }
}
