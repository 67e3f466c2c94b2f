import { describe, expect, it } from "vitest";
import type { TopLineRecommendation, TradeRecommendation } from "#contract/entities.ts";
import {
  applyTradeUpdate,
  expiryDates,
  filterByName,
  insightsSearch,
  parseMaxStrike,
  passingStrike,
  selectedDate,
  showingText,
  shownCards,
  type LiveRecommendations,
} from "./insights.ts";

const top = (ticker: string, stock_name: string, count = 3): TopLineRecommendation => ({
  ticker,
  stock_id: ticker.length,
  stock_name,
  current_price: 100,
  implied_volatility: 0.25,
  historical_volatility: 0.3,
  average_iv: 110,
  recommendation_date: "2026-11-20T15:00:00.000Z",
  trade_recommendation_count: count,
});
const option = (id: number, expiration_date: string, strike_price: number) =>
  ({ id, expiration_date, strike_price }) as TradeRecommendation;

describe("the URL state", () => {
  it("keeps only the screen's parameters and applies a change", () => {
    const params = new URLSearchParams("q=app&max=150&open=AAPL&date=2026-12-04&index=&_data=x");
    expect(insightsSearch(params)).toBe("?q=app&max=150&open=AAPL&date=2026-12-04");
    expect(insightsSearch(params, (p) => p.delete("open"))).toBe("?q=app&max=150&date=2026-12-04");
    expect(insightsSearch(new URLSearchParams())).toBe("");
    // The order is fixed; parameters that are not the list's own come last.
    expect(insightsSearch(new URLSearchParams("open=KO&q=co"), (p) => p.set("explain", "1"))).toBe(
      "?q=co&open=KO&explain=1",
    );
    expect(insightsSearch(new URLSearchParams("date=2026-12-04&open=KO"), (p) => p.set("max", ""))).toBe(
      "?open=KO&date=2026-12-04",
    );
  });

  it("reads the max strike as a number of at least 0, or no filter", () => {
    expect(parseMaxStrike("150.25")).toBe(150.25);
    expect(parseMaxStrike("0")).toBe(0);
    expect(parseMaxStrike("")).toBeNull();
    expect(parseMaxStrike(null)).toBeNull();
    expect(parseMaxStrike("-1")).toBeNull();
    expect(parseMaxStrike("abc")).toBeNull();
  });
});

describe("name search", () => {
  const items = [
    top("AAPL", "Apple Inc."),
    top("MSFT", "Microsoft Corporation"),
    top("PG", "The Procter & Gamble Company"),
  ];
  it("matches the name or the ticker, case-insensitive", () => {
    expect(filterByName(items, "micro").map((i) => i.ticker)).toEqual(["MSFT"]);
    expect(filterByName(items, "aapl").map((i) => i.ticker)).toEqual(["AAPL"]);
    expect(filterByName(items, "  ").map((i) => i.ticker)).toEqual(["AAPL", "MSFT", "PG"]);
    expect(filterByName(items, "gamble co").map((i) => i.ticker)).toEqual(["PG"]);
    expect(filterByName(items, "zzz")).toEqual([]);
  });
});

describe("strike filter and the selected date (docs/product.md#states-option-card)", () => {
  const options = [
    option(1, "2026-11-27", 220),
    option(2, "2026-11-27", 215),
    option(3, "2026-12-04", 210),
    option(4, "2026-12-11", 200),
  ];

  it("keeps options at or below the max strike", () => {
    expect(passingStrike(options, 210).map((o) => o.id)).toEqual([3, 4]);
    expect(passingStrike(options, 215).map((o) => o.id)).toEqual([2, 3, 4]);
    expect(passingStrike(options, null)).toHaveLength(4);
    expect(passingStrike(options, 0)).toEqual([]);
  });

  it("defaults to the first date that has options passing the filter", () => {
    expect(selectedDate(expiryDates(options), null)).toBe("2026-11-27");
    expect(selectedDate(expiryDates(passingStrike(options, 210)), null)).toBe("2026-12-04");
    expect(selectedDate(expiryDates(passingStrike(options, 100)), null)).toBeNull();
  });

  it("keeps a chosen date while it has options, and resets when the filter removes it", () => {
    expect(selectedDate(expiryDates(options), "2026-12-11")).toBe("2026-12-11");
    expect(selectedDate(expiryDates(passingStrike(options, 210)), "2026-11-27")).toBe("2026-12-04");
    expect(selectedDate(expiryDates(options), "2030-01-01")).toBe("2026-11-27");
  });

  it("lists each date once, soonest first", () => {
    expect(expiryDates([option(1, "2026-12-04", 1), option(2, "2026-11-27", 1), option(3, "2026-12-04", 2)])).toEqual([
      "2026-11-27",
      "2026-12-04",
    ]);
  });
});

describe("live updates (docs/product.md#states-live)", () => {
  const state: LiveRecommendations = {
    topLine: [top("AAPL", "Apple Inc."), top("MSFT", "Microsoft Corporation")],
    options: { AAPL: [option(1, "2026-11-27", 220)] },
  };

  it("replaces a symbol's options", () => {
    const next = applyTradeUpdate(state, {
      type: "trade_recommendations_update",
      ticker: "AAPL",
      data: [option(9, "2026-12-04", 210)],
    });
    expect(next.options.AAPL!.map((o) => o.id)).toEqual([9]);
    expect(next.topLine).toBe(state.topLine);
    expect(state.options.AAPL!.map((o) => o.id)).toEqual([1]);
  });

  it("replaces the top-line entry with the ticker, or adds one in ticker order", () => {
    const replaced = applyTradeUpdate(state, {
      type: "trade_recommendations_top_line_update",
      ticker: "MSFT",
      data: { ...top("MSFT", "Microsoft Corporation", 7), current_price: 431.25 },
    });
    expect(replaced.topLine.map((i) => [i.ticker, i.current_price])).toEqual([
      ["AAPL", top("AAPL", "Apple Inc.").current_price],
      ["MSFT", 431.25],
    ]);
    const added = applyTradeUpdate(state, {
      type: "trade_recommendations_top_line_update",
      ticker: "GOOGL",
      data: top("GOOGL", "Alphabet Inc. Class A"),
    });
    expect(added.topLine.map((i) => i.ticker)).toEqual(["AAPL", "GOOGL", "MSFT"]);
  });

  it("keeps the trader's own count on a replaced entry (a broadcast carries the default view's) until the page reads it again", () => {
    // This trader's filters let 2 of MSFT's puts through; the default view shows 7.
    const own = {
      ...state,
      topLine: state.topLine.map((i) => (i.ticker === "MSFT" ? { ...i, trade_recommendation_count: 2 } : i)),
    };
    const next = applyTradeUpdate(own, {
      type: "trade_recommendations_top_line_update",
      ticker: "MSFT",
      data: top("MSFT", "Microsoft Corporation", 7),
    });
    expect(next.topLine.find((i) => i.ticker === "MSFT")!.trade_recommendation_count).toBe(2);
  });

  it("keeps the trader's own intrinsic value on a replaced entry (a broadcast carries the shared one)", () => {
    const shared = { ...top("MSFT", "Microsoft Corporation", 7), average_iv: 0 };
    const own = {
      ...state,
      topLine: state.topLine.map((i) => (i.ticker === "MSFT" ? { ...i, average_iv: 431.5 } : i)),
    };
    const next = applyTradeUpdate(own, { type: "trade_recommendations_top_line_update", ticker: "MSFT", data: shared });
    expect(next.topLine.find((i) => i.ticker === "MSFT")).toMatchObject({ average_iv: 431.5 });
  });
});

describe("a page of the list (ADR 0102)", () => {
  it("reads how many cards the address asks for: a page at least, whole numbers only", () => {
    expect(shownCards(null)).toBe(25);
    expect(shownCards("50")).toBe(50);
    expect(shownCards("3")).toBe(25);
    expect(shownCards("2.5")).toBe(25);
    expect(shownCards("lots")).toBe(25);
    expect(shownCards("99999999")).toBe(10_000);
  });

  it("says how many stocks it shows of how many", () => {
    expect(showingText(25, 2500)).toBe("Showing 25 of 2,500 stocks");
    expect(showingText(1, 1)).toBe("Showing 1 of 1 stock");
  });

  const page: LiveRecommendations = {
    topLine: [top("AAPL", "Apple Inc."), top("MSFT", "Microsoft Corporation")],
    options: {},
    total: 40,
    query: "",
    pinned: top("TSLA", "Tesla, Inc."),
  };
  const update = (ticker: string, name: string) =>
    applyTradeUpdate(page, { type: "trade_recommendations_top_line_update", ticker, data: top(ticker, name, 9) });

  it("adds a new stock that sorts within the page, keeping the page's length, and counts it", () => {
    const next = update("GOOGL", "Alphabet Inc. Class A");
    expect(next.topLine.map((i) => i.ticker)).toEqual(["AAPL", "GOOGL"]);
    expect(next.total).toBe(41);
  });

  it("leaves a stock past the page's last card to the next read, and one the search leaves out", () => {
    expect(update("NVDA", "NVIDIA Corporation")).toBe(page);
    expect(
      applyTradeUpdate(
        { ...page, query: "app" },
        {
          type: "trade_recommendations_top_line_update",
          ticker: "GOOGL",
          data: top("GOOGL", "Alphabet Inc. Class A"),
        },
      ),
    ).toEqual({ ...page, query: "app" });
  });

  it("updates the open stock's card shown off the page in place", () => {
    const next = update("TSLA", "Tesla, Inc.");
    expect(next.pinned).toMatchObject({ ticker: "TSLA", trade_recommendation_count: 3 });
    expect(next.topLine).toBe(page.topLine);
  });
});
