import { Link, useLocation } from "react-router";
import { BulbIcon, ChartIcon, ListIcon, StarIcon, UserIcon } from "#app/components/icons.tsx";

/** docs/product.md#screens-routing: five icons; navigation replaces history. Labels keep them named for everyone. */
const ITEMS = [
  { to: "/uip-stocks", label: "UIP", Icon: StarIcon },
  { to: "/user-stocks", label: "Watchlist", Icon: ListIcon },
  { to: "/insights", label: "Insights", Icon: BulbIcon },
  { to: "/portfolio", label: "Trades", Icon: ChartIcon },
  { to: "/profile", label: "Profile", Icon: UserIcon },
] as const;

/** The tab a path belongs to: its own screens, and the option detail opened over the insights list. */
function isCurrent(to: string, pathname: string): boolean {
  if (pathname === to || pathname.startsWith(`${to}/`)) return true;
  // The Plan (ADR 0081) opens from the Trades screen and belongs to its tab.
  if (to === "/portfolio" && pathname === "/plan") return true;
  return to === "/insights" && pathname.startsWith("/recommendation/");
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
              onClick={to === "/insights" ? forgetCachedRecommendations : undefined}
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
