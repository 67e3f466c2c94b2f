import { formatAge } from "#app/lib/format.ts";
import { useNow } from "#app/hooks/use-now.ts";

/**
 * How long ago `since` was ("5 minutes ago", docs/product.md#constants-display), kept current by the
 * page's one clock (useNow): a tick renders this text again, not the list row or card around it.
 */
export function AgeText({ since, serverNow }: { since: string | Date; serverNow: number }) {
  return formatAge(since, new Date(useNow(serverNow)));
}
