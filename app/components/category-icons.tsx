import type { CategoryIcon as CategoryIconKey } from "#contract/entities.ts";
import { CrownIcon, DeadBookIcon, FlaskIcon, HandIcon, ThumbsUpIcon } from "./icons.tsx";

/** docs/product.md#entities-category: queen, avoid (dead book), hold (hand), speculative (flask), buy (thumbs-up). */
export const CATEGORY_ICONS = {
  queen: CrownIcon,
  avoid: DeadBookIcon,
  hold: HandIcon,
  speculative: FlaskIcon,
  buy: ThumbsUpIcon,
} as const satisfies Record<CategoryIconKey, unknown>;

/** A category's icon drawn in place (the filter chips); UIP rows use the page's sprite instead (uip-row-icons.tsx). */
export function CategoryIcon({ icon, className }: { icon: CategoryIconKey; className?: string }) {
  const Icon = CATEGORY_ICONS[icon];
  return <Icon className={["uip-category-icon", `uip-category-icon--${icon}`, className].filter(Boolean).join(" ")} />;
}
