import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { numbersIn, ungroundedNumbers } from "../../tests/support/grounding.ts";
import { recommendationFacts, stockFacts } from "./facts.ts";
import type { StockFacts } from "./facts-derive.ts";
import { recommendationText, stockAnalysisText } from "./analyst.ts";
import { probabilityBelow } from "#provider/options/probability.ts";

/**
 * The built-in analyst through POST /api/gen-ai-stock-analysis and
 * POST /api/summarize-trade-recommendation, on the demo data and the simulated market.
 */

// Wednesday 2026-11-18, noon in New York: the market is open and the chains are full.
const NOW = new Date("2026-11-18T17:00:00Z");
const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW });

let provider: TestProvider;
let demo: { token: string; id: number };

beforeAll(async () => {
  provider = await testProvider({ market });
  const token = await provider.login("demo", "demo1234");
  demo = { token, id: (await provider.call(calls.me, { token })).body.id };
  // A stock the provider tracks but the market does not know: nothing live can be read for it.
  await provider.context.db
    .insertInto("stocks")
    .values({
      ticker: "ZZZZ",
      name: "Delisted Example Corp",
      current_price: 12.5,
      updated_at: new Date("2026-11-02T21:00:00Z"),
    })
    .execute();
});
afterAll(() => provider.close());

const analyse = (ticker: string, token = demo.token) => provider.call(calls.stockAnalysis, { token, body: { ticker } });
const summarize = (body: unknown, token = demo.token) => provider.call(calls.summarizeRecommendation, { token, body });
const text = (paragraphs: Iterable<string>) => [...paragraphs].join("");

async function levelsOf(table: "user_stocks" | "uip_stocks", ticker: string) {
  const db = provider.context.db;
  const columns = ["t.average_iv", "t.conservative_iv", "t.buy_level_one"] as const;
  if (table === "user_stocks") {
    return db
      .selectFrom("user_stocks as t")
      .innerJoin("stocks as s", "s.id", "t.stock_id")
      .select(columns)
      .where("s.ticker", "=", ticker)
      .where("t.user_id", "=", demo.id)
      .executeTakeFirstOrThrow();
  }
  return db
    .selectFrom("uip_stocks as t")
    .innerJoin("stocks as s", "s.id", "t.stock_id")
    .select(columns)
    .where("s.ticker", "=", ticker)
    .executeTakeFirstOrThrow();
}

const dollars = (v: number) => `$${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe("POST /api/gen-ai-stock-analysis (built-in analyst)", () => {
  it("answers streamed text/plain written from the caller's facts", async () => {
    const res = await analyse("AAPL");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("cache-control")).toContain("no-transform");
    const facts = await stockFacts(provider.context, "AAPL", demo.id);
    expect(res.body).toBe(text(stockAnalysisText(facts)));
  });

  it("uses the caller's own watchlist values when they hold the stock", async () => {
    const own = await levelsOf("user_stocks", "AAPL");
    const uip = await levelsOf("uip_stocks", "AAPL");
    expect(own.conservative_iv).not.toBe(uip.conservative_iv);
    const { body } = await analyse("AAPL");
    expect(body).toContain("Values from your watchlist:");
    expect(body).toContain(`conservative intrinsic value ${dollars(own.conservative_iv)}`);
    expect(body).not.toContain(dollars(uip.conservative_iv));
    expect(body).toContain("UIP category: Queen.");
  });

  it("uses the UIP list's values when the caller does not hold the stock", async () => {
    const uip = await levelsOf("uip_stocks", "TSLA");
    const { body } = await analyse("TSLA");
    expect(body).toContain("TSLA is not in your watchlist, so these are the UIP list's values:");
    expect(body).toContain(`Average intrinsic value ${dollars(uip.average_iv)}`);
    expect(body).toContain(`Buy levels: ${dollars(uip.buy_level_one)}`);
    expect(body).toContain("UIP category: Speculative.");
  });

  it("says there are no values when neither the caller nor the UIP list has the stock", async () => {
    const { status, body } = await analyse("HD");
    expect(status).toBe(200);
    expect(body).toContain(
      "You have no intrinsic values or buy levels for HD in your watchlist, and it is not on the UIP list, so the price cannot be judged against a fair value or buy levels.",
    );
    expect(body).toContain("HD has no UIP category");
    expect(body).not.toMatch(/intrinsic value \$/);
  });

  it("covers price, trend, volatility, earnings and the best current put from the market and the engine", async () => {
    const facts = await stockFacts(provider.context, "MSFT", demo.id);
    expect(facts.price?.source).toBe("market");
    expect(facts.trend).not.toBeNull();
    expect(facts.volatility.historical).not.toBeNull();
    expect(facts.earnings).not.toBeNull();
    expect(facts.bestPut).not.toBeNull();
    const { body } = await analyse("MSFT");
    const quote = await market.quote("MSFT");
    expect(body).toContain(`Price: ${dollars(quote.price)} (live quote).`);
    expect(body).toContain(`${facts.bestPut!.symbol}, strike ${dollars(facts.bestPut!.strike)}`);
    expect(body).toContain("Best put now for you (");
    expect(body).toContain(`Next earnings report: `);
    expect(body).toContain(`Historical volatility over the last 20 daily returns: `);
    expect(body).not.toContain("Missing from this analysis");
  });

  it("writes no number that is not in its facts, for every demo ticker", async () => {
    for (const { ticker } of DEMO_TICKERS) {
      const facts = await stockFacts(provider.context, ticker, demo.id);
      const written = text(stockAnalysisText(facts));
      expect(numbersIn(written).length, ticker).toBeGreaterThan(10);
      expect(ungroundedNumbers(written, facts), ticker).toEqual([]);
    }
  });

  it("the grounding check catches a number that is not in the facts", async () => {
    const facts = await stockFacts(provider.context, "AAPL", demo.id);
    const written = text(stockAnalysisText(facts));
    expect(ungroundedNumbers(`${written} It could reach $1,234.56 with 48,213 contracts.`, facts)).toEqual([
      "1234.56",
      "48213",
    ]);
    // Facts changed after writing: the old figures no longer count as grounded.
    const other: StockFacts = { ...facts, trend: { ...facts.trend!, firstClose: facts.trend!.firstClose + 1.11 } };
    expect(ungroundedNumbers(written, other)).toEqual([facts.trend!.firstClose.toFixed(2)]);
  });

  it("says what is missing when the market knows nothing of a tracked stock", async () => {
    const { status, body } = await analyse("ZZZZ");
    expect(status).toBe(200);
    expect(body).toContain("Price: $12.50, the last price stored on 2 Nov 2026; no live quote could be read.");
    expect(body).toContain("There is no usable price history, so the trend cannot be judged.");
    expect(body).toContain("The option chain could not be read, so there is no implied volatility.");
    expect(body).toContain(
      "The earnings calendar could not be read, so an earnings report before an expiry cannot be ruled out.",
    );
    expect(body).toContain("Without the option chain no put can be suggested.");
    expect(body).toContain(
      "Missing from this analysis: a live quote, price history, the option chain and the earnings calendar.",
    );
    const facts = await stockFacts(provider.context, "ZZZZ", demo.id);
    expect(ungroundedNumbers(body, facts)).toEqual([]);
  });

  it("answers 404 for a ticker the provider does not track, 422 for a bad body, 401 without a token", async () => {
    const unknown = await analyse("NOPE");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "Unknown ticker: NOPE" });
    const bad = await provider.call(calls.stockAnalysis, { token: demo.token, body: { ticker: "" } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain("Ticker is required");
    expect((await provider.call(calls.stockAnalysis, { body: { ticker: "AAPL" } })).status).toBe(401);
  });

  it("streams: the text leaves in several pieces", async () => {
    const response = await provider.fetch(
      new Request("http://provider.test/api/gen-ai-stock-analysis", {
        method: "POST",
        headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/json" },
        body: JSON.stringify({ ticker: "AAPL" }),
      }),
    );
    const reader = response.body!.getReader();
    const pieces: string[] = [];
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(decoder.decode(value, { stream: true }));
    }
    expect(pieces.length).toBeGreaterThanOrEqual(5);
    expect(pieces[0]).toMatch(/^AAPL \(Apple Inc\.\)\nBuilt-in analysis/);
  });
});

describe("POST /api/summarize-trade-recommendation (built-in analyst)", () => {
  let recommendations: TradeRecommendation[];
  beforeAll(async () => {
    await provider.call(calls.generateRecommendations, { token: demo.token, params: { ticker: "AAPL" } });
    recommendations = (
      await provider.call(calls.tradeRecommendations, {
        token: demo.token,
        params: { symbol: "AAPL" },
        // Wider than the demo's defaults, so there are a few to describe.
        query: { at_or_below_conservative: "0", skip_earnings: "0", min_open_interest: "0" },
      })
    ).body;
    expect(recommendations.length).toBeGreaterThan(2);
  });

  it("explains a stored recommendation: meaning, cash, breakeven, returns, probability, greeks, assignment, risks", async () => {
    const r = recommendations[0]!;
    const res = await summarize(r);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const pct = (f: number) => `${(Math.abs(f) * 100).toFixed(1)}%`;
    const body: string = res.body;
    expect(body).toContain(
      `Selling ${r.option_identifier}: a put on AAPL (Apple Inc.), strike ${dollars(r.strike_price)}`,
    );
    expect(body).toContain(`Cash needed: ${dollars(r.strike_price * 100)} a contract`);
    expect(body).toContain(`Breakeven: ${dollars(r.breakeven)}.`);
    // Net of the reader's commission, on the time value, beside T-bills and the chance of assignment.
    expect(body).toContain(`net of ${dollars(r.commission)} commission a contract`);
    expect(body).toContain(`${pct(r.net_monthly_return)} a month, ${pct(r.net_annualized_return)} a year`);
    // The T-bill return as the card writes it, to 2 decimals.
    expect(body).toContain(
      `T-bills would pay ${(r.tbill_return * 100).toFixed(2)}% on the same cash over the same days`,
    );
    expect(body).toContain(`Chance of assignment (risk-neutral, N(−d2)): ${pct(r.probability_of_assignment!)}`);
    expect(body).toContain(`(the mid is ${dollars(r.mid)})`);
    expect(body).toContain(`Probability of profit: ${pct(r.probability_of_profit)}.`);
    expect(body).toContain(`Delta ${r.delta.toFixed(2)}:`);
    expect(body).toContain(`Theta ${r.theta.toFixed(2)}:`);
    expect(body).toContain(`Vega ${r.vega.toFixed(2)}:`);
    expect(body).toContain(`If assigned: you buy 100 shares at ${dollars(r.strike_price)}`);
    expect(body).toContain("Risks: ");
    // The caller holds AAPL: the strike is judged against their own watchlist levels.
    const own = await levelsOf("user_stocks", "AAPL");
    expect(body).toContain(`your conservative intrinsic value (${dollars(own.conservative_iv)})`);
  });

  it("writes no number that is not in the recommendation or the caller's levels", async () => {
    for (const r of recommendations) {
      const facts = await recommendationFacts(provider.context, calls.SummarizeBody.parse(r), demo.id);
      const written = text(recommendationText(facts));
      expect((await summarize(r)).body).toBe(written);
      expect(ungroundedNumbers(written, facts), r.option_identifier).toEqual([]);
    }
  });

  it("says what it cannot know from a bare recommendation, and computes nothing it lacks the inputs for", async () => {
    const bare = {
      option_identifier: "XYZ261218P00050000",
      strike_price: 50,
      expiration_date: "2026-12-18",
      current_stock_price: 48,
      current_option_price: 3.1,
      days_to_expiry: 30,
    };
    const { status, body } = await summarize(bare);
    expect(status).toBe(200);
    expect(body).toContain("so the strike is 4.2% above it: in the money. $2.00 of the premium is intrinsic value");
    expect(body).toContain("No probability of profit was given, and without implied volatility it cannot be computed.");
    expect(body).toContain(
      "Delta, theta and vega were not given, and without implied volatility they cannot be computed.",
    );
    expect(body).toContain("The earnings date was not given, so a report before expiry cannot be ruled out.");
    expect(body).toContain(
      "The provider does not track XYZ, so the strike cannot be judged against intrinsic values or buy levels.",
    );
    expect(body).toContain(
      "Not available: implied volatility, the probability of profit, the greeks (delta, theta, vega), the option's weekly range, volume and open interest, the earnings date and intrinsic values and buy levels (the provider does not track XYZ).",
    );
    const facts = await recommendationFacts(provider.context, calls.SummarizeBody.parse(bare), demo.id);
    expect(ungroundedNumbers(body, facts)).toEqual([]);
  });

  it("computes probability and greeks from the implied volatility when only that is given, and says so", async () => {
    const { body } = await summarize({
      option_identifier: "KO261218P00065000",
      strike_price: 65,
      expiration_date: "2026-12-18",
      current_stock_price: 68,
      current_option_price: 0.9,
      days_to_expiry: 30,
      implied_volatility: 0.2,
    });
    expect(body).toMatch(
      /Probability of profit: about \d+\.\d%, from the lognormal model at the option's implied volatility\./,
    );
    expect(body).toContain("The greeks, computed with the Black-Scholes model from the implied volatility:");
    // KO is in the caller's watchlist but not flagged; their levels still apply.
    expect(body).toContain("your conservative intrinsic value");
  });

  it("takes the T-bill rate from the market in use when the recommendation carries none", async () => {
    const body = calls.SummarizeBody.parse({
      option_identifier: "KO261218P00065000",
      strike_price: 65,
      expiration_date: "2026-12-18",
      current_stock_price: 68,
      current_option_price: 0.9,
      days_to_expiry: 30,
      implied_volatility: 0.2,
    });
    // A market pricing at 3 %: T-bills pay 0.03 × 30 / 365 = 0.2466 % on the collateral over 30 days,
    // and the risk-neutral chance of assignment is N(−d2) at r = 3 %, not at a fixed 4.5 %.
    const at3 = await recommendationFacts(
      { db: provider.context.db, market: { riskFreeRate: async () => 0.03 } },
      body,
      demo.id,
    );
    expect(at3.tbillReturn).toBeCloseTo(0.0024658, 7);
    const years = 30 / 365;
    expect(at3.probabilityOfAssignment).toBeCloseTo(
      probabilityBelow({ spot: 68, level: 65, years, rate: 0.03, volatility: 0.2 }),
      12,
    );
    expect(at3.probabilityOfAssignment).not.toBeCloseTo(
      probabilityBelow({ spot: 68, level: 65, years, rate: 0.045, volatility: 0.2 }),
      6,
    );
    // The run's own rate, when the recommendation carries it, wins over the market's.
    const stored = await recommendationFacts(
      { db: provider.context.db, market: { riskFreeRate: async () => 0.03 } },
      { ...body, rate: 0.05 },
      demo.id,
    );
    expect(stored.tbillReturn).toBeCloseTo((0.05 * 30) / 365, 10);
  });

  it("refuses a body without the recommendation's essentials (422)", async () => {
    const res = await summarize({ option_identifier: "AAPL261218P00180000", strike_price: 180 });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/body\.expiration_date/);
  });
});
