import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MarketDataError } from "./port.ts";
import { FAKE_TRADIER_TOKEN, startTradierFake, type TradierFake } from "./testing/tradier-fake.ts";
import { createTradierMarket, type TradierMarketOptions } from "./tradier.ts";

/**
 * The Tradier adapter against a local HTTP stand-in for Tradier's API serving fixtures/tradier
 * (paths, query, bearer token, X-Ratelimit headers and 429 as Tradier answers them).
 */
const NOW = new Date("2026-11-18T17:00:00Z"); // Wednesday 12:00 New York
let clock = NOW;
let fake: TradierFake;

beforeAll(async () => {
  fake = await startTradierFake(() => clock);
});
afterAll(() => fake.close());
beforeEach(() => {
  clock = NOW;
  fake.requests.length = 0;
  fake.down = false;
  fake.allowance = 120;
  fake.clock = "open";
});

const market = (options: Partial<TradierMarketOptions> = {}) =>
  createTradierMarket({ token: FAKE_TRADIER_TOKEN, baseUrl: fake.baseUrl, now: () => clock, ...options });
const paths = () => fake.requests.map((r) => r.path);

async function failure(promise: Promise<unknown>): Promise<MarketDataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketDataError);
  return error as MarketDataError;
}

describe("tradier market data (local Tradier over HTTP)", () => {
  it("quotes concurrent tickers in one batched request with the bearer token", async () => {
    const m = market();
    const [aapl, msft] = await Promise.all([m.quote("aapl"), m.quote("MSFT")]);
    const quotes = fake.requests.filter((r) => r.path === "/v1/markets/quotes");
    expect(quotes).toHaveLength(1);
    expect(quotes[0]!.query.symbols).toBe("AAPL,MSFT");
    expect(fake.requests.every((r) => r.authorization === `Bearer ${FAKE_TRADIER_TOKEN}`)).toBe(true);
    expect(aapl).toEqual({
      ticker: "AAPL",
      price: 231.47,
      asOf: new Date(1795021200000),
      source: "tradier",
      stale: false,
      previousClose: 229.02,
      session: { time: "2026-11-18", open: 229.5, high: 232.1, low: 228.36, close: 231.47, volume: 21877433 },
    });
    expect(msft).toMatchObject({ ticker: "MSFT", price: 412.3, asOf: new Date(1795021195000), previousClose: 413.5 });
  });

  it("gives a company's sector from Tradier's fundamentals as GICS, asked once; a fund's is null", async () => {
    const m = market();
    expect(await m.sector!("aapl")).toBe("Information Technology");
    expect(await m.sector!("AAPL")).toBe("Information Technology");
    // Only the historical classification: its code is read the same way.
    expect(await m.sector!("MSFT")).toBe("Information Technology");
    expect(await m.sector!("SPY")).toBeNull();
    expect(await m.sector!("ZZZZ")).toBeNull();
    const asked = fake.requests.filter((r) => r.path === "/beta/markets/fundamentals/company");
    expect(asked.map((r) => r.query.symbols)).toEqual(["AAPL", "MSFT", "SPY", "ZZZZ"]);
    expect(asked.every((r) => r.authorization === `Bearer ${FAKE_TRADIER_TOKEN}`)).toBe(true);
  });

  it("names a company, and answers an unmatched symbol as unknown", async () => {
    const m = market();
    expect(await m.companyName("AAPL")).toBe("Apple Inc");
    expect(await m.companyName("ZZZZ")).toBeUndefined();
    const unknown = await failure(m.quote("ZZZZ"));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toBe("Unknown ticker: ZZZZ");
  });

  it("builds the chain from the expirations in the engine's window, one chains request with greeks each", async () => {
    const chain = await market({ riskFreeRate: 0.0413 }).optionChain("AAPL");
    const chainRequests = fake.requests.filter((r) => r.path === "/v1/markets/options/chains");
    expect(chainRequests.map((r) => r.query)).toEqual([
      { symbol: "AAPL", expiration: "2026-11-20", greeks: "true" },
      { symbol: "AAPL", expiration: "2026-11-27", greeks: "true" },
      { symbol: "AAPL", expiration: "2026-12-18", greeks: "true" },
    ]);
    // 2027-03-19 is listed but beyond 70 days.
    expect(paths()).toContain("/v1/markets/options/expirations");
    expect(chain).toMatchObject({ ticker: "AAPL", spot: 231.47, source: "tradier", stale: false, rate: 0.0413 });
    expect(chain.asOf).toEqual(NOW);
    expect(chain.expirations.map((e) => e.expiration)).toEqual(["2026-11-20", "2026-11-27", "2026-12-18"]);
    // Field by field from chains-AAPL-2026-11-27.json: IV is ORATS's mid_iv, a fraction.
    const put = chain.expirations[1]!.options.find((o) => o.symbol === "AAPL261127P00225000")!;
    expect(put).toEqual({
      symbol: "AAPL261127P00225000",
      type: "put",
      strike: 225,
      bid: 1.43,
      ask: 1.45,
      last: 1.44,
      volume: 587,
      openInterest: 2620,
      impliedVolatility: 0.271,
      bidSource: "quote",
      greeks: { delta: -0.241, gamma: 0.0313, theta: -0.1631, vega: 0.1143, rho: -0.0144 },
    });
    const call = chain.expirations[2]!.options.find((o) => o.symbol === "AAPL261218C00240000")!;
    expect(call).toMatchObject({ type: "call", strike: 240, bid: 3.7, ask: 3.78, impliedVolatility: 0.258 });
  });

  it("falls back to the smoothed IV (smv_vol) when a contract has no mid IV", async () => {
    const { toOption } = await import("./tradier.ts");
    const option = toOption(
      {
        symbol: "AAPL261127P00200000",
        option_type: "put",
        strike: 200,
        expiration_date: "2026-11-27",
        bid: 0.05,
        ask: 0.07,
        last: null,
        volume: 0,
        open_interest: 310,
        greeks: { delta: -0.01, gamma: 0.001, theta: -0.01, vega: 0.005, rho: 0, mid_iv: 0, smv_vol: 0.341 },
      },
      true,
      NOW,
    );
    expect(option).toMatchObject({ impliedVolatility: 0.341, last: 0, bid: 0.05, openInterest: 310 });
  });

  it("gives daily history oldest first for a stock and an option", async () => {
    const m = market();
    expect(await m.dailyHistory("AAPL", 2)).toEqual([
      { time: "2026-11-17", open: 228.9, high: 229.9, low: 228.1, close: 229.02, volume: 41230000 },
      { time: "2026-11-18", open: 229.5, high: 232.1, low: 228.36, close: 231.47, volume: 21877433 },
    ]);
    const history = fake.requests.find((r) => r.path === "/v1/markets/history")!;
    expect(history.query).toMatchObject({ symbol: "AAPL", interval: "daily", end: "2026-11-18" });
    expect(history.query.start! < "2026-11-13").toBe(true);
    expect(await m.optionHistory("AAPL261127P00225000", 5)).toEqual([
      { time: "2026-11-12", close: 3.66 },
      { time: "2026-11-13", close: 3.24 },
      { time: "2026-11-17", close: 2.28 },
      { time: "2026-11-18", close: 1.44 },
    ]);
    expect((await failure(m.dailyHistory("ZZZZ", 5))).status).toBe(404);
    expect((await failure(m.optionHistory("not-a-symbol", 5))).status).toBe(400);
  });

  it("reads the market clock and calendar, and judges freshness with its holidays", async () => {
    const m = market();
    expect(await m.clock()).toEqual({
      date: "2026-11-18",
      state: "open",
      description: "Market is open from 09:30 to 16:00",
      asOf: NOW,
      nextChange: "16:00",
      nextState: "postmarket",
    });
    const days = await m.calendar(2026, 11);
    expect(days.find((d) => d.date === "2026-11-26")).toEqual({
      date: "2026-11-26",
      status: "closed",
      description: "Market is closed for Thanksgiving Day",
    });
    expect(days.find((d) => d.date === "2026-11-27")).toMatchObject({
      status: "open",
      open: { start: "09:30", end: "13:00" },
    });
    // Thanksgiving at noon: SPY's Wednesday close is the latest session's, not stale (the weekday
    // rule alone would call it stale); on Friday at noon it is.
    clock = new Date("2026-11-26T17:00:00Z");
    expect(await market().quote("SPY")).toMatchObject({ asOf: new Date("2026-11-25T21:00:00Z"), stale: false });
    clock = new Date("2026-11-27T17:00:00Z");
    expect((await market().quote("SPY")).stale).toBe(true);
  });

  it("keeps under the rate limit with a token bucket: an empty bucket answers 429 without asking Tradier", async () => {
    const m = market({ requestsPerMinute: 2, maxQueueMs: 0 });
    await m.dailyHistory("AAPL", 2);
    await m.optionHistory("AAPL261127P00225000", 2);
    const sent = fake.requests.length;
    const error = await failure(m.dailyHistory("MSFT", 2));
    expect(error.status).toBe(429);
    expect(Number(error.headers["Retry-After"])).toBeGreaterThan(0);
    expect(fake.requests.length).toBe(sent);
  });

  it("on Tradier's 429 answers the last good figures marked with their age, else 429 with Retry-After", async () => {
    const m = market();
    const fresh = await m.quote("AAPL");
    expect(fresh.lastGood).toBeUndefined();
    fake.allowance = 0;
    clock = new Date(NOW.getTime() + 61_000); // a new minute at the fake: nothing allowed
    const kept = await m.quote("AAPL");
    expect(kept).toMatchObject({ price: 231.47, asOf: new Date(1795021200000), source: "tradier" });
    expect(kept.lastGood).toEqual({ fetchedAt: NOW, reason: "Too many market data requests; try again in 60 seconds" });
    // Nothing kept for MSFT: the caller sees the rate limit (the bucket now waits for Tradier's reset).
    const error = await failure(m.quote("MSFT"));
    expect(error.status).toBe(429);
    expect(error.headers["Retry-After"]).toBe("60");
  });

  it("on an outage answers the last good chain, else 503", async () => {
    const m = market();
    const chain = await m.optionChain("AAPL");
    fake.down = true;
    const kept = await m.optionChain("AAPL");
    expect(kept.expirations).toEqual(chain.expirations);
    expect(kept.lastGood?.fetchedAt).toEqual(NOW);
    expect((await failure(m.optionChain("MSFT"))).status).toBe(503);
  });

  it("says so when Tradier refuses the token", async () => {
    const error = await failure(market({ token: "wrong" }).quote("AAPL"));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/TRADIER_TOKEN/);
  });
});
