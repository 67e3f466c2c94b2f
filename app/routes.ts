import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

/** docs/product.md#screens-routing. */
export default [
  route("login", "routes/login/route.tsx"),
  route("logout", "routes/logout/route.tsx"),
  route("reset-password", "routes/reset-password/route.tsx"),
  route("track-record", "routes/track-record/route.tsx"),
  layout("routes/signed-in/route.tsx", [
    index("routes/index/route.tsx"),
    route("resources/push-device", "routes/resources/push-device.tsx"),
    route("add-trade", "routes/add-trade/route.tsx"),
    route("import-trades", "routes/import-trades/route.tsx"),
    // A broker account synced through its API (issue 43; docs/decisions/0093-tradier-sync-through-the-import.md).
    route("broker", "routes/broker/route.tsx"),
    route("resources/trades-export", "routes/resources/trades-export.ts"),
    route("add-user-stock", "routes/add-user-stock/route.tsx"),
    route("user-stock/:ticker", "routes/user-stock.$ticker/route.tsx"),
    route("add-uip-stock", "routes/add-uip-stock/route.tsx"),
    route("uip-stock/:ticker", "routes/uip-stock.$ticker/route.tsx"),
    route("resources/stock-history/:ticker", "routes/resources/stock-history.$ticker.ts"),
    route("resources/company-name", "routes/resources/company-name.ts"),
    route("resources/ai/stock-analysis", "routes/resources/ai.stock-analysis.ts"),
    route("resources/ai/summarize", "routes/resources/ai.summarize.ts"),
    layout("routes/shell/route.tsx", [
      route("user-stocks", "routes/user-stocks/route.tsx"),
      route("uip-stocks", "routes/uip-stocks/route.tsx"),
      route("profile", "routes/profile/route.tsx"),
      route("portfolio", "routes/portfolio/route.tsx"),
      route("portfolio/roll/:tradeId", "routes/portfolio.roll.$tradeId/route.tsx"),
      // Covered calls on the shares held: a tab beside the put recommendations (docs/decisions/0079).
      route("insights/calls", "routes/covered-calls/route.tsx"),
      route("plan", "routes/plan/route.tsx"),
      // The journal beside the broker's positions (docs/decisions/0094).
      route("reconcile", "routes/reconcile/route.tsx"),
      // The list is the layout, so the option detail (/recommendation/{id}) opens over it.
      layout("routes/insights/route.tsx", [
        route("insights", "routes/insights-list/route.tsx"),
        route("recommendation/:id", "routes/recommendation.$id/route.tsx"),
      ]),
    ]),
  ]),
] satisfies RouteConfig;
