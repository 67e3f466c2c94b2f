import { startTransition, useEffect, useState } from "react";

/** Whether the page has hydrated: a component mounted after that renders its hydrated form at once. */
let pageHydrated = false;

/** Whether this render is (part of) the page's hydration, when the server's HTML is still the page. */
export const isHydrating = () => typeof document !== "undefined" && !pageHydrated;

/**
 * False in the server's HTML and during hydration, true once React runs in the browser.
 *
 * The switch to true is a transition, so React renders what it adds (every list row's swipe
 * reveals and enhanced-form field) in slices between the browser's other work. A store read with
 * `useSyncExternalStore` would force one synchronous render of every such component right after
 * hydration: on a 50-row list, the long task that blocked input (ADR 0049).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(pageHydrated);
  useEffect(() => {
    if (hydrated) return;
    pageHydrated = true;
    startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}
