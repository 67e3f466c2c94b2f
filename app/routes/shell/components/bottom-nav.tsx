import type { Href } from "#app/lib/href.ts";
import { Link, useLocation } from "react-router";
import { BulbIcon, ChartIcon, ListIcon, StarIcon, UserIcon } from "#app/components/icons.tsx";

/** docs/product.md#screens-routing: five icons; navigation replaces history. Labels keep them named for everyone. */
const ITEMS = [
  { to: "/uip-stocks" satisfies Href, label: "UIP", Icon: StarIcon },
  { to: "/user-stocks" satisfies Href, label: "Watchlist", Icon: ListIcon },
  { to: "/insights" satisfies Href, label: "Insights", Icon: BulbIcon },
  { to: "/portfolio" satisfies Href, label: "Trades", Icon: ChartIcon },
  { to: "/profile" satisfies Href, label: "Profile", Icon: UserIcon },
] as const;

/** The tab a path belongs to: its own screens, and the option detail opened over the insights list. */
function isCurrent(to: string, pathname: string): boolean {
  if (pathname === to || pathname.startsWith(`${to}/`)) return true;
  // The Plan (ADR 0081) opens from the Trades screen and belongs to its tab.
  if (to === ("/portfolio" satisfies Href) && pathname === ("/plan" satisfies Href)) return true;
  return to === ("/insights" satisfies Href) && pathname.startsWith("/recommendation/" satisfies Href);
}

/** docs/product.md#screens-routing: going to /insights first drops locally cached recommendations. */
function forgetCachedRecommendations() {
  for (const key of Object.keys(window.localStorage)) {
    if (key.startsWith("tradeRecommendations-") || key.startsWith("tradeRecommendationsTopLine-")) {
      window.localStorage.removeItem(key);
    }
  }
}

export function BottomNav() {
  const { pathname } = useLocation();
  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul>
        {ITEMS.map(({ to, label, Icon }) => (
          <li key={to}>
            <Link
              to={to}
              replace
              prefetch="intent"
              className="bottom-nav__link"
              aria-current={isCurrent(to, pathname) ? "page" : undefined}
              onClick={to === ("/insights" satisfies Href) ? forgetCachedRecommendations : undefined}
            >
              <Icon />
              <span>{label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
