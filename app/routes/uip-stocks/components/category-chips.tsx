import { useEffect, useRef } from "react";
import { Link } from "react-router";
import type { CategoryChip } from "#app/routes/uip-stocks/uip-list.ts";
import { CategoryIcon } from "#app/components/category-icons.tsx";

/**
 * docs/product.md#screens-uip-list: the UIP list's category filter, one chip per category plus 'All Categories' and
 * 'Below IV'. Links that put the chosen id in the URL (`?category=3`), so they work without
 * JavaScript and a filtered list can be shared; each says how many stocks it holds.
 */
export function CategoryChips({
  chips,
  chosen,
  counts,
  hrefOf,
  onChoose,
}: {
  chips: readonly CategoryChip[];
  chosen: number;
  counts: ReadonlyMap<number, number>;
  hrefOf: (id: number) => string;
  /** Called as a chip is followed (before the navigation). */
  onChoose?: () => void;
}) {
  const listRef = useRef<HTMLUListElement>(null);
  // The chosen chip may sit beyond the screen's edge (a shared link): bring it into view.
  useEffect(() => {
    const current = listRef.current?.querySelector<HTMLElement>('[aria-current="true"]');
    if (!current || !listRef.current) return;
    const list = listRef.current;
    const left = current.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + current.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left - 16;
    }
  }, [chosen]);

  return (
    <nav className="uip-chips" aria-label="Categories">
      <ul ref={listRef}>
        {chips.map((chip) => {
          const current = chip.id === chosen;
          return (
            <li key={chip.id}>
              <Link
                to={hrefOf(chip.id)}
                replace
                preventScrollReset
                className="uip-chip"
                aria-current={current ? "true" : undefined}
                data-category={chip.id}
                onClick={onChoose}
              >
                {chip.icon ? <CategoryIcon icon={chip.icon} /> : null}
                <span>{chip.name}</span>
                <span className="uip-chip__count">{counts.get(chip.id) ?? 0}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
