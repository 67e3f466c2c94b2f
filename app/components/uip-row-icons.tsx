import type { CategoryIcon as CategoryIconKey } from "#contract/entities.ts";
import { BellIcon } from "./icons.tsx";
import { CATEGORY_ICONS } from "./category-icons.tsx";

/**
 * The icons every UIP row shows, its category's and the alert bell, drawn once per page and used
 * by reference (ADR 0059): written out in each row they were about 700 bytes of a 2.3 kB row. A page
 * that shows UIP rows renders `UipRowIconSprite` once.
 */
const BELL_ID = "uip-icon-bell";
const categoryIconId = (icon: CategoryIconKey) => `uip-icon-${icon}`;

export function UipRowIconSprite() {
  return (
    <svg className="icon-sprite" aria-hidden="true">
      <symbol id={BELL_ID} viewBox="0 0 24 24">
        {/* The fill follows where the icon is used: a bell is filled when its alert is on. */}
        <BellIcon fill="inherit" />
      </symbol>
      {Object.entries(CATEGORY_ICONS).map(([icon, Icon]) => (
        <symbol key={icon} id={categoryIconId(icon as CategoryIconKey)} viewBox="0 0 24 24">
          <Icon fill="inherit" />
        </symbol>
      ))}
    </svg>
  );
}

/** An icon of the sprite; its size, colour and fill come from `className`'s styles. */
function UsedIcon({ id, className }: { id: string; className: string }) {
  return (
    <svg className={className} aria-hidden="true">
      <use href={`#${id}`} />
    </svg>
  );
}

export const UipBellIcon = () => <UsedIcon id={BELL_ID} className="uip-bell" />;

export const UipCategoryIcon = ({ icon }: { icon: CategoryIconKey }) => (
  <UsedIcon id={categoryIconId(icon)} className={`uip-category-icon uip-category-icon--${icon}`} />
);
