import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { parseOccSymbol } from "#provider/options/occ-symbol.ts";
import { isWeekday, dayNumberOf, nyInstant, closeMinuteOf, yearsToExpiry } from "./calendar.ts";
import { MarketDataError, type MarketData, type MarketSource } from "./port.ts";
import { marketRate } from "./rates.ts";
import { createSimulatedMarket } from "./simulated.ts";
import { FAKE_TRADIER_TOKEN, startTradierFake, type TradierFake } from "./testing/tradier-fake.ts";
import { vendor } from "./testing/yahoo-replay.ts";
import { createTradierMarket } from "./tradier.ts";
import { createYahooMarket } from "./yahoo.ts";

/**
 * One behaviour for every market source: whichever MARKET_DATA names, callers get the same shapes,
 * units and errors. Each adapter runs the same checks offline: the simulated market as it is,
 * Yahoo on its recorded responses, Tradier against a local server speaking its API.
 */
const NOW = new Date("2026-11-18T17:00:00Z"); // Wednesday 12:00 New York, the fixtures' moment

interface Setup {
  source: MarketSource;
  market: MarketData;
  /** An option of AAPL the source has daily history for. */
  optionSymbol?: string;
}

let fake: TradierFake;
beforeAll(async () => {
  fake = await startTradierFake(() => NOW);
});
afterAll(() => fake.close());

const adapters: Array<[string, () => Setup]> = [
  [
    "simulated",
    () => ({ source: "simulated", market: createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW }) }),
  ],
  [
    "yahoo (recorded responses)",
    () => {
      const v = vendor({
        "quote AAPL": "quote-AAPL",
        "quote ZZZZ": "quote-ZZZZ",
        "quote ^IRX": "quote-IRX",
        "chart AAPL": "chart-AAPL",
        "chart AAPL261127P00225000": "chart-AAPL261127P00225000",
        "options AAPL": "options-AAPL",
        "options AAPL 2026-11-27": "options-AAPL-2026-11-27",
        "options AAPL 2026-12-18": "options-AAPL-2026-12-18",
      });
      return {
        source: "yahoo",
        market: createYahooMarket({ fetch: v.fetch, now: () => NOW }),
        optionSymbol: "AAPL261127P00225000",
      };
    },
  ],
  [
    "tradier (local Tradier)",
    () => ({
      source: "tradier",
      market: createTradierMarket({ token: FAKE_TRADIER_TOKEN, baseUrl: fake.baseUrl, now: () => NOW }),
      optionSymbol: "AAPL261127P00225000",
    }),
  ],
];

async function rejection(promise: Promise<unknown>): Promise<MarketDataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketDataError);
  return error as MarketDataError;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

describe.each(adapters)("market port: %s", (_name, setup) => {
  let s: Setup;
  beforeAll(() => {
    s = setup();
  });

  it("quotes a ticker, whatever its case, saying where the price came from and when", async () => {
    const quote = await s.market.quote("aapl");
    expect(quote.ticker).toBe("AAPL");
    expect(quote.price).toBeGreaterThan(0);
    expect(quote.source).toBe(s.source);
    expect(quote.asOf).toBeInstanceOf(Date);
    expect(quote.asOf.getTime()).toBeLessThanOrEqual(NOW.getTime());
    expect(quote.stale).toBe(false);
    expect(quote.lastGood).toBeUndefined();
    if (quote.session) {
      expect(quote.session.low).toBeLessThanOrEqual(quote.session.close);
      expect(quote.session.high).toBeGreaterThanOrEqual(quote.session.close);
    }
  });

  it("names a known company and answers an unknown ticker with 404 (undefined for its name)", async () => {
    expect(await s.market.companyName("AAPL")).toMatch(/apple/i);
    expect(await s.market.companyName("ZZZZ")).toBeUndefined();
    expect((await rejection(s.market.quote("ZZZZ"))).status).toBe(404);
  });

  it("gives daily bars oldest first, weekdays only, at most the days asked for", async () => {
    const bars = await s.market.dailyHistory("AAPL", 3);
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.length).toBeLessThanOrEqual(3);
    const times = bars.map((b) => b.time);
    expect([...times].sort()).toEqual(times);
    for (const b of bars) {
      expect(b.time).toMatch(ISO_DATE);
      expect(isWeekday(dayNumberOf(b.time))).toBe(true);
      expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
      expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
      expect(Number.isInteger(b.volume)).toBe(true);
    }
    expect(times.at(-1)).toBe("2026-11-18");
  });

  it("gives a chain at the quote's spot: sorted future expiries, OCC symbols, IV as a fraction, bids at most asks", async () => {
    const [chain, quote] = await Promise.all([s.market.optionChain("AAPL"), s.market.quote("AAPL")]);
    expect(chain).toMatchObject({ ticker: "AAPL", spot: quote.price, source: s.source, stale: false });
    const expiries = chain.expirations.map((e) => e.expiration);
    expect(expiries.length).toBeGreaterThan(0);
    expect([...expiries].sort()).toEqual(expiries);
    let puts = 0;
    for (const e of chain.expirations) {
      expect(e.expiration).toMatch(ISO_DATE);
      // Options stop trading at the close in New York on the expiry date: 16:00, or 13:00 on an
      // early-close day such as the Friday after Thanksgiving.
      const expiry = nyInstant(dayNumberOf(e.expiration), closeMinuteOf(dayNumberOf(e.expiration)));
      expect(yearsToExpiry(chain.asOf, e.expiration)).toBeCloseTo(
        (expiry.getTime() - chain.asOf.getTime()) / (365 * 86_400_000),
        12,
      );
      expect(expiry.getTime()).toBeGreaterThan(NOW.getTime());
      for (const o of e.options) {
        expect(parseOccSymbol(o.symbol)).toMatchObject({
          ticker: "AAPL",
          expiration: e.expiration,
          type: o.type,
          strike: o.strike,
        });
        expect(o.bid).toBeGreaterThanOrEqual(0);
        if (o.ask > 0) expect(o.bid).toBeLessThanOrEqual(o.ask);
        expect(o.impliedVolatility).toBeGreaterThan(0.01);
        expect(o.impliedVolatility).toBeLessThan(3);
        expect(Number.isInteger(o.volume) && o.volume >= 0).toBe(true);
        expect(Number.isInteger(o.openInterest) && o.openInterest >= 0).toBe(true);
        if (o.type === "put") puts++;
      }
    }
    expect(puts).toBeGreaterThan(0);
    // The model inputs, when given, are continuous fractions.
    if (chain.rate !== undefined) {
      expect(chain.rate).toBeGreaterThan(0);
      expect(chain.rate).toBeLessThan(0.2);
    }
    if (chain.dividendYield !== undefined) expect(chain.dividendYield).toBeLessThan(0.2);
  });

  it("gives an option's daily closes oldest first, and 400 for a malformed symbol", async () => {
    const chain = await s.market.optionChain("AAPL");
    const symbol =
      s.optionSymbol ?? chain.expirations[1]!.options.find((o) => o.type === "put" && o.strike < chain.spot)!.symbol;
    const closes = await s.market.optionHistory(symbol, 5);
    expect(closes.length).toBeGreaterThan(0);
    expect(closes.every((c) => c.close > 0 && ISO_DATE.test(c.time))).toBe(true);
    expect(closes.map((c) => c.time)).toEqual([...closes.map((c) => c.time)].sort());
    expect((await rejection(s.market.optionHistory("not-a-symbol", 5))).status).toBe(400);
  });

  it("gives the next earnings date as a day from today on, or null when unknown", async () => {
    const date = await s.market.nextEarningsDate("AAPL");
    if (date !== null) {
      expect(date).toMatch(ISO_DATE);
      expect(date >= "2026-11-18").toBe(true);
    }
  });

  it("prices with one risk-free rate, the one its chains carry, as a continuous fraction", async () => {
    const [rate, chain] = await Promise.all([marketRate(s.market), s.market.optionChain("AAPL")]);
    expect(chain.rate).toBe(rate);
    expect(rate).toBeGreaterThan(0);
    expect(rate).toBeLessThan(0.25);
  });
});
