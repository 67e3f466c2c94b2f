import { useFetchers, useNavigation, type ShouldRevalidateFunctionArgs } from "react-router";

/** Search, chips, expansion, reorder mode and the modals live in the URL; changing them needs no new data. */
export function shouldRevalidateList({
  currentUrl,
  nextUrl,
  formMethod,
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  // A failed action changed nothing; reloading could only lose what is on screen (and its message).
  if (actionStatus !== undefined && actionStatus >= 400) return false;
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  if (currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
}

/** Deleting from a row's edit page leaves it; its own data must not be reloaded (the row is gone). */
export function shouldRevalidateEditPage({
  currentUrl,
  formAction,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formAction && !formAction.startsWith(currentUrl.pathname)) return false;
  return defaultShouldRevalidate;
}

/** The list's data is loading (a navigation to it, or a row's change being answered): the header's spinner. */
export function useListBusy(path: string): boolean {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  return (
    (navigation.state === "loading" && navigation.location.pathname === path) ||
    fetchers.some((f) => f.state === "loading")
  );
}
