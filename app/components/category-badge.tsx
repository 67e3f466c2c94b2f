import type { CategoryIcon as CategoryIconKey } from "#contract/entities.ts";
import { CrownIcon, DeadBookIcon, FlaskIcon, HandIcon, ThumbsUpIcon } from "./icons.tsx";

/** docs/product.md#entities-category: queen, avoid (dead book), hold (hand), speculative (flask), buy (thumbs-up). */
const ICONS = {
  queen: CrownIcon,
  avoid: DeadBookIcon,
  hold: HandIcon,
  speculative: FlaskIcon,
  buy: ThumbsUpIcon,
} as const satisfies Record<CategoryIconKey, unknown>;

export function CategoryIcon({ icon, className }: { icon: CategoryIconKey; className?: string }) {
  const Icon = ICONS[icon];
  return <Icon className={["uip-category-icon", `uip-category-icon--${icon}`, className].filter(Boolean).join(" ")} />;
}

/** A UIP row's category: its icon and name, tinted by kind. */
export function CategoryBadge({ category }: { category: { name: string; icon: CategoryIconKey } }) {
  return (
    <span className={`uip-badge uip-badge--${category.icon}`} data-testid="category">
      <CategoryIcon icon={category.icon} />
      <span className="visually-hidden">Category: </span>
      {category.name}
    </span>
  );
}
