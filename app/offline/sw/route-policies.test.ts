import { describe, expect, it } from "vitest";
import { describeChange, isQueuedChange, screenPolicy } from "./route-policies.ts";

/** The worker's view of the routes' offline policies (app/routes/*.offline.ts), gathered as it bundles them. */
describe("screenPolicy", () => {
  it("keeps the lists, profile and stock screens; insights network first; the rest not at all", () => {
    for (const path of [
      "/user-stocks",
      "/uip-stocks",
      "/profile",
      "/user-stock/AAPL",
      "/uip-stock/KO",
      "/add-user-stock",
    ]) {
      expect(screenPolicy(path)).toBe("saved");
    }
    expect(screenPolicy("/resources/stock-history/AAPL")).toBe("saved");
    expect(screenPolicy("/insights")).toBe("fresh-first");
    expect(screenPolicy("/recommendation/12")).toBe("fresh-first");
    for (const path of [
      "/login",
      "/logout",
      "/",
      "/reset-password",
      "/resources/company-name",
      "/resources/ai/summarize",
    ]) {
      expect(screenPolicy(path)).toBe("network");
    }
  });
});

describe("isQueuedChange", () => {
  it("queues the watchlist's and the UIP list's changes and a new trade only", () => {
    for (const path of [
      "/add-trade",
      "/user-stocks",
      "/uip-stocks",
      "/add-user-stock",
      "/add-uip-stock",
      "/user-stock/AAPL",
      "/uip-stock/KO",
    ]) {
      expect(isQueuedChange(path)).toBe(true);
    }
    for (const path of ["/profile", "/login", "/logout", "/insights", "/resources/push-device"]) {
      expect(isQueuedChange(path)).toBe(false);
    }
  });
});

describe("describeChange", () => {
  const fields = (entries: Record<string, string>) => new URLSearchParams(entries);
  it("names a trade by its symbol", () => {
    expect(describeChange("/add-trade", fields({ intent: "save-option", symbol: "ko" }))).toBe("Record a trade of KO");
    expect(describeChange("/add-trade", fields({ intent: "save-stock" }))).toBe("Record a trade");
  });

  it("names each kind of change the outbox may hold", () => {
    expect(describeChange("/user-stocks", fields({ intent: "toggle", id: "3", ticker: "aapl", value: "true" }))).toBe(
      "Recommendations on for AAPL",
    );
    expect(describeChange("/user-stocks", fields({ intent: "toggle", id: "3", value: "false" }))).toBe(
      "Recommendations off",
    );
    expect(describeChange("/user-stocks", fields({ intent: "delete", ticker: "KO" }))).toBe(
      "Delete KO from the watchlist",
    );
    expect(describeChange("/user-stocks", fields({ intent: "reorder", order: "3,1" }))).toBe(
      "New order of the watchlist",
    );
    expect(describeChange("/uip-stocks", fields({ intent: "alert", ticker: "MSFT", value: "false" }))).toBe(
      "Price alerts off for MSFT",
    );
    expect(describeChange("/uip-stocks", fields({ intent: "watchlist", ticker: "NVDA" }))).toBe(
      "Add NVDA to your watchlist",
    );
    expect(describeChange("/uip-stocks", fields({ intent: "move" }))).toBe("New order of the UIP list");
    expect(describeChange("/add-user-stock", fields({ ticker: "brk.b" }))).toBe("Add BRKB to the watchlist");
    expect(describeChange("/add-uip-stock", fields({}))).toBe("Add a stock to the UIP list");
    expect(describeChange("/user-stock/AAPL", fields({ base_iv: "1" }))).toBe("Changes to AAPL");
    expect(describeChange("/uip-stock/ko", fields({}))).toBe("Changes to KO in the UIP list");
    expect(describeChange("/user-stocks", fields({ intent: "something-new" }))).toBe("A change to the watchlist");
  });
});
