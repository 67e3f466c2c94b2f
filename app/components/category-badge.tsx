import type { CategoryIcon as CategoryIconKey } from "#contract/entities.ts";
import { CategoryIcon } from "./category-icons.tsx";
import { UipCategoryIcon } from "./uip-row-icons.tsx";

/**
 * A UIP row's category: its icon and name, tinted by kind. In a list, `fromSprite` draws the icon
 * from the page's UipRowIconSprite, once for all the rows (ADR 0059).
 */
export function CategoryBadge({
  category,
  fromSprite = false,
}: {
  category: { name: string; icon: CategoryIconKey };
  fromSprite?: boolean;
}) {
  return (
    <span className={`uip-badge uip-badge--${category.icon}`} data-testid="category">
      {fromSprite ? <UipCategoryIcon icon={category.icon} /> : <CategoryIcon icon={category.icon} />}
      <span className="visually-hidden">Category: </span>
      {category.name}
    </span>
  );
}
