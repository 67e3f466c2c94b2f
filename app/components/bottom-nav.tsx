import { NavLink } from "react-router";
import { BulbIcon, ChartIcon, ListIcon, StarIcon, UserIcon } from "./icons.tsx";

/** SPEC.md §2: five icons; navigation replaces history. Labels keep them named for everyone. */
const ITEMS = [
  { to: "/uip-stocks", label: "UIP", Icon: StarIcon },
  { to: "/user-stocks", label: "Watchlist", Icon: ListIcon },
  { to: "/insights", label: "Insights", Icon: BulbIcon },
  { to: "/portfolio", label: "Trades", Icon: ChartIcon },
  { to: "/profile", label: "Profile", Icon: UserIcon },
] as const;

/** SPEC.md §2: going to /insights first drops locally cached recommendations. */
function forgetCachedRecommendations() {
  for (const key of Object.keys(window.localStorage)) {
    if (key.startsWith("tradeRecommendations-") || key.startsWith("tradeRecommendationsTopLine-")) {
      window.localStorage.removeItem(key);
    }
  }
}

export function BottomNav() {
  return (
    <nav className="bottom-nav" aria-label="Main">
      <ul>
        {ITEMS.map(({ to, label, Icon }) => (
          <li key={to}>
            <NavLink
              to={to}
              replace
              prefetch="intent"
              className="bottom-nav__link"
              onClick={to === "/insights" ? forgetCachedRecommendations : undefined}
            >
              <Icon />
              <span>{label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
