import { Link } from "react-router";
import { COVERED_CALLS_PATH, PUTS_PATH } from "#app/routes/covered-calls/paths.ts";

/**
 * The two halves of the wheel on Insights (docs/decisions/0079): puts to sell, and calls to sell
 * against shares held. Plain links, so they work before the scripts run; the current one is named
 * by aria-current and drawn differently, never by colour alone.
 */
export function RecommendationTabs({ current }: { current: "puts" | "calls" }) {
  const tabs = [
    { id: "puts", to: PUTS_PATH, label: "Puts" },
    { id: "calls", to: COVERED_CALLS_PATH, label: "Covered calls" },
  ] as const;
  return (
    <nav className="rec-tabs" aria-label="What to sell">
      {tabs.map((tab) => (
        <Link key={tab.id} to={tab.to} className="rec-tabs__tab" aria-current={tab.id === current ? "page" : undefined}>
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
