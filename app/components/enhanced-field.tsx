import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";

/** Marks a form posted by JavaScript, so its action answers JSON instead of redirecting. */
export function EnhancedField() {
  return useHydrated() ? <input type="hidden" name={ENHANCED_FIELD} value="1" /> : null;
}
