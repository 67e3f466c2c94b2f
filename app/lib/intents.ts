/**
 * The `intent` field a route's forms post (docs/contributing.md: one action, several forms): the
 * value if it is one of the route's own intents, else null, so an action's `switch` is exhaustive
 * over a typed union. No React here: the service worker's offline replay may import the unions.
 */
export function intentOf<const T extends string>(formData: FormData, intents: readonly T[]): T | null {
  const value = formData.get("intent");
  return intents.find((intent) => intent === value) ?? null;
}
