import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { impliedVolatility } from "#provider/options/implied-volatility.ts";
import { parseOccSymbol } from "#provider/options/occ-symbol.ts";
import { dayNumberOf, isTradingDay, weekdayOf, yearsToExpiry } from "./calendar.ts";
import { strikeStep } from "./option-model.ts";
import { FALLBACK_RISK_FREE_RATE } from "./rates.ts";
import { MarketDataError } from "./port.ts";
import { createSimulatedMarket, isMarketOpen } from "./simulated.ts";

// Wednesday 2026-11-18, New York is on EST (UTC−5): the session is 14:30–21:00 UTC.
const NOON = new Date("2026-11-18T17:00:00Z");

function marketAt(time: Date | string, seed: number | string = 42) {
  const at = new Date(time);
  return createSimulatedMarket({ seed, tickers: DEMO_TICKERS, now: () => at });
}

async function rejection(promise: Promise<unknown>): Promise<MarketDataError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof MarketDataError) return error;
    throw error;
  }
  throw new Error("expected a MarketDataError");
}

describe("simulated market: determinism", () => {
  it("gives the same numbers for the same seed and time", async () => {
    const a = marketAt(NOON);
    const b = marketAt(NOON);
    expect(await a.quote("AAPL")).toEqual(await b.quote("AAPL"));
    expect(await a.dailyHistory("TSLA", 450)).toEqual(await b.dailyHistory("TSLA", 450));
    expect(await a.optionChain("KO")).toEqual(await b.optionChain("KO"));
    expect(await a.nextEarningsDate("MSFT")).toBe(await b.nextEarningsDate("MSFT"));
  });

  it("gives different numbers for a different seed", async () => {
    const a = marketAt(NOON, 1);
    const b = marketAt(NOON, 2);
    expect((await a.quote("AAPL")).price).not.toBe((await b.quote("AAPL")).price);
    const closes = async (m: typeof a) => (await m.dailyHistory("AAPL", 50)).map((bar) => bar.close);
    expect(await closes(a)).not.toEqual(await closes(b));
  });

  it("does not depend on the order or number of calls", async () => {
    const fresh = marketAt(NOON);
    const used = marketAt(NOON);
    await used.dailyHistory("AAPL", 1500);
    await used.optionChain("AAPL");
    await used.quote("MSFT");
    expect(await used.dailyHistory("AAPL", 30)).toEqual(await fresh.dailyHistory("AAPL", 30));
    expect(await used.quote("AAPL")).toEqual(await fresh.quote("AAPL"));
  });
});

describe("simulated market: daily history", () => {
  it("has the requested trading days, weekdays only, oldest first, ending today", async () => {
    const m = marketAt(NOON);
    const bars = await m.dailyHistory("AAPL", 400);
    expect(bars).toHaveLength(400);
    const days = bars.map((b) => dayNumberOf(b.time));
    for (let i = 0; i < days.length; i++) {
      expect(isTradingDay(days[i]!)).toBe(true);
      // Consecutive bars are consecutive sessions: no trading day in between is missing.
      if (i > 0) for (let d = days[i - 1]! + 1; d < days[i]!; d++) expect(isTradingDay(d)).toBe(false);
    }
    expect(bars.at(-1)!.time).toBe("2026-11-18");
    expect(bars.at(-1)!.close).toBe((await m.quote("AAPL")).price);
  });

  it("has sane bars without NaN for every ticker, hovering around the reference price", async () => {
    const m = marketAt(NOON);
    for (const t of DEMO_TICKERS) {
      const bars = await m.dailyHistory(t.ticker, 420);
      for (const b of bars) {
        for (const v of [b.open, b.high, b.low, b.close, b.volume]) expect(Number.isFinite(v)).toBe(true);
        expect(b.low).toBeGreaterThan(0);
        expect(b.low).toBeLessThanOrEqual(Math.min(b.open, b.close));
        expect(b.high).toBeGreaterThanOrEqual(Math.max(b.open, b.close));
        expect(Number.isInteger(b.volume) && b.volume >= 0).toBe(true);
      }
      expect(Math.abs(Math.log(bars.at(-1)!.close / t.price))).toBeLessThan(0.8);
    }
  });

  it("has no bar on an exchange holiday, and the session after one opens at the close before it", async () => {
    // Friday 2026-11-27, after Thanksgiving (an early close at 13:00 New York).
    const m = marketAt("2026-11-27T20:00:00Z");
    const bars = await m.dailyHistory("JPM", 300);
    const times = bars.map((b) => b.time);
    for (const holiday of ["2026-11-26", "2026-09-07", "2026-07-03", "2026-01-19", "2025-12-25"]) {
      expect(times).not.toContain(holiday);
    }
    expect(times.slice(-2)).toEqual(["2026-11-25", "2026-11-27"]);
    expect(bars.at(-1)!.open).toBe(bars.at(-2)!.close);
    expect((await m.quote("JPM")).previousClose).toBe(bars.at(-2)!.close);
    const history = await m.optionHistory((await m.optionChain("JPM")).expirations[2]!.options[0]!.symbol, 10);
    expect(history.map((h) => h.time)).toEqual(times.slice(-10));
  });

  it("keeps yesterday's bar once today starts", async () => {
    const yesterday = (await marketAt("2026-11-17T22:00:00Z").dailyHistory("NVDA", 5)).at(-1)!;
    const today = await marketAt(NOON).dailyHistory("NVDA", 5);
    expect(today.at(-2)).toEqual(yesterday);
    expect(today.at(-1)!.open).toBe(yesterday.close);
  });
});

describe("simulated market: intraday quotes", () => {
  it("moves during the session, continuously", async () => {
    const prices = new Set<number>();
    let start = Date.parse("2026-11-18T14:30:00Z");
    for (let i = 0; i < 390; i += 13) {
      const t = start + i * 60_000;
      const a = (await marketAt(new Date(t)).quote("TSLA")).price;
      const b = (await marketAt(new Date(t + 5_000)).quote("TSLA")).price;
      expect(Math.abs(b / a - 1)).toBeLessThan(0.003);
      prices.add(a);
    }
    expect(prices.size).toBeGreaterThan(20);
    start = Date.parse("2026-11-18T20:59:58Z");
    const beforeClose = (await marketAt(new Date(start)).quote("TSLA")).price;
    const afterClose = (await marketAt("2026-11-18T21:00:01Z").quote("TSLA")).price;
    expect(Math.abs(afterClose / beforeClose - 1)).toBeLessThan(0.003);
  });

  it("is flat outside market hours and at the weekend", async () => {
    const evening = await marketAt("2026-11-18T23:00:00Z").quote("AAPL");
    const night = await marketAt("2026-11-19T05:00:00Z").quote("AAPL");
    const morning = await marketAt("2026-11-19T14:29:00Z").quote("AAPL");
    expect(night).toEqual(evening);
    expect(morning).toEqual(evening);
    expect(evening.asOf).toEqual(new Date("2026-11-18T21:00:00Z"));
    const saturday = await marketAt("2026-11-21T15:00:00Z").optionChain("AAPL");
    const sunday = await marketAt("2026-11-22T23:00:00Z").optionChain("AAPL");
    expect(sunday).toEqual(saturday);
    expect(isMarketOpen(NOON)).toBe(true);
    expect(isMarketOpen(new Date("2026-11-21T15:00:00Z"))).toBe(false);
  });

  it("reports the previous close and resolves tickers case-insensitively", async () => {
    const m = marketAt(NOON);
    const q = await m.quote(" aapl ");
    expect(q.ticker).toBe("AAPL");
    expect(q.previousClose).toBe((await m.dailyHistory("AAPL", 2))[0]!.close);
    expect(await m.companyName("msft")).toBe("Microsoft Corporation");
  });
});

describe("simulated market: option chains", () => {
  it("lists Friday (or holiday-eve Thursday) expirations after now, strikes on the grid, bids ≤ asks", async () => {
    const m = marketAt(NOON);
    for (const t of DEMO_TICKERS) {
      const chain = await m.optionChain(t.ticker);
      expect(chain.expirations.length).toBeGreaterThanOrEqual(12);
      const step = strikeStep((await m.dailyHistory(t.ticker, 2))[0]!.close);
      let zeroBids = 0;
      for (const { expiration, options } of chain.expirations) {
        // A Friday, or the Thursday before a Friday holiday.
        const day = dayNumberOf(expiration);
        expect(isTradingDay(day)).toBe(true);
        expect(weekdayOf(day) === 5 || (weekdayOf(day) === 4 && !isTradingDay(day + 1))).toBe(true);
        expect(yearsToExpiry(chain.asOf, expiration)).toBeGreaterThan(0);
        expect(options.length).toBeGreaterThan(10);
        for (const o of options) {
          expect(parseOccSymbol(o.symbol)).toEqual({ ticker: t.ticker, expiration, type: o.type, strike: o.strike });
          expect(Math.abs(o.strike / step - Math.round(o.strike / step))).toBeLessThan(1e-9);
          expect(o.strike).toBeGreaterThanOrEqual(chain.spot * 0.6);
          expect(o.strike).toBeLessThanOrEqual(chain.spot * 1.25);
          expect(o.bid).toBeGreaterThanOrEqual(0);
          expect(o.bid).toBeLessThanOrEqual(o.ask);
          if (o.bid === 0) zeroBids++;
          for (const v of [o.bid, o.ask, o.last, o.impliedVolatility]) expect(Number.isFinite(v)).toBe(true);
          expect(Number.isInteger(o.volume) && o.volume >= 0).toBe(true);
          expect(Number.isInteger(o.openInterest) && o.openInterest >= 0).toBe(true);
        }
      }
      const days = chain.expirations.map((e) => e.expiration);
      expect(days).toEqual([...days].sort());
      expect(zeroBids).toBeGreaterThan(0);
    }
  });

  it("quotes puts consistent with the model: IV recovered from the mid", async () => {
    const m = marketAt(NOON);
    for (const ticker of ["AAPL", "TSLA", "KO", "SOFI", "COST"]) {
      const chain = await m.optionChain(ticker);
      let checked = 0;
      for (const { expiration, options } of chain.expirations) {
        const years = yearsToExpiry(chain.asOf, expiration);
        for (const o of options) {
          const mid = (o.bid + o.ask) / 2;
          // Out-of-the-money puts, the ones a put seller writes (deep ITM mids can round below intrinsic).
          if (o.type !== "put" || o.strike > chain.spot || o.bid < 0.1) continue;
          const iv = impliedVolatility("put", mid, {
            spot: chain.spot,
            strike: o.strike,
            years,
            rate: chain.rate!,
            dividendYield: chain.dividendYield!,
          });
          // The quote is rounded out to cents, so allow a little slack where vega is small.
          expect(Math.abs(iv - o.impliedVolatility)).toBeLessThan(0.03);
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(15);
    }
  });

  it("has a put skew and concentrates volume and open interest near the money", async () => {
    const chain = await marketAt(NOON).optionChain("MSFT");
    const monthly = chain.expirations.find((e) => e.expiration === "2026-12-18")!;
    const puts = monthly.options.filter((o) => o.type === "put");
    expect(puts[0]!.impliedVolatility).toBeGreaterThan(puts.at(-1)!.impliedVolatility);
    const near = puts.filter((o) => Math.abs(o.strike / chain.spot - 1) < 0.05);
    const far = puts.filter((o) => o.strike / chain.spot < 0.75);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(near.map((o) => o.openInterest))).toBeGreaterThan(mean(far.map((o) => o.openInterest)));
    expect(mean(near.map((o) => o.volume))).toBeGreaterThan(mean(far.map((o) => o.volume)));
    const all = chain.expirations.flatMap((e) => e.options);
    expect(all.some((o) => o.volume === 0)).toBe(true);
  });

  it("stays well-formed at any moment, expiry Fridays and DST changes included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.date({ min: new Date("2025-01-01T00:00:00Z"), max: new Date("2028-12-31T00:00:00Z"), noInvalidDate: true }),
        fc.constantFrom("SOFI", "AAPL", "COST", "TSLA"),
        async (at, ticker) => {
          const m = marketAt(at);
          const quote = await m.quote(ticker);
          const chain = await m.optionChain(ticker);
          expect(chain.spot).toBe(quote.price);
          expect(chain.expirations.length).toBeGreaterThanOrEqual(10);
          for (const { expiration, options } of chain.expirations) {
            expect(yearsToExpiry(chain.asOf, expiration)).toBeGreaterThan(0);
            for (const o of options) {
              expect(Number.isFinite(o.impliedVolatility) && o.impliedVolatility > 0).toBe(true);
              expect(o.bid).toBeLessThanOrEqual(o.ask);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("simulated market: no quote below intrinsic value", () => {
  it("holds for every option of every generated chain, at any moment", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.date({ min: new Date("2025-01-01T00:00:00Z"), max: new Date("2028-12-31T00:00:00Z"), noInvalidDate: true }),
        fc.constantFrom(...DEMO_TICKERS.map((t) => t.ticker)),
        async (at, ticker) => {
          const chain = await marketAt(at).optionChain(ticker);
          for (const { options } of chain.expirations) {
            for (const o of options) {
              const intrinsic = Math.max(0, o.type === "put" ? o.strike - chain.spot : chain.spot - o.strike);
              // Cents: spot and strikes are whole cents, so intrinsic is too (up to float error).
              const floor = intrinsic - 1e-9;
              expect(o.bid, o.symbol).toBeGreaterThanOrEqual(floor);
              expect((o.bid + o.ask) / 2, o.symbol).toBeGreaterThanOrEqual(floor);
              expect(o.last, o.symbol).toBeGreaterThanOrEqual(floor);
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("marks a deep in-the-money put's daily closes at no less than its intrinsic value", async () => {
    const m = marketAt(NOON);
    const chain = await m.optionChain("JPM");
    const monthly = chain.expirations.at(-1)!;
    const deep = monthly.options.filter((o) => o.type === "put").at(-1)!;
    expect(deep.strike - chain.spot).toBeGreaterThan(20);
    const closes = await m.optionHistory(deep.symbol, 1);
    expect(closes.at(-1)!.close).toBeGreaterThanOrEqual(deep.strike - chain.spot - 1e-9);
  });
});

describe("simulated market: option history", () => {
  it("gives one close per trading day, ending at the chain's last price", async () => {
    const m = marketAt(NOON);
    const chain = await m.optionChain("AAPL");
    const put = chain.expirations[4]!.options.find((o) => o.type === "put" && o.strike < chain.spot * 0.95)!;
    const history = await m.optionHistory(put.symbol, 5);
    expect(history.map((h) => h.time)).toEqual((await m.dailyHistory("AAPL", 5)).map((b) => b.time));
    expect(history.at(-1)!.close).toBe(put.last);
    for (const h of history) expect(h.close).toBeGreaterThan(0);
  });

  it("stops at expiry, where the option is worth its intrinsic value", async () => {
    const m = marketAt(NOON);
    const [bar] = await m.dailyHistory("AAPL", 4); // 2026-11-13, a Friday expiry
    const history = await m.optionHistory(`AAPL261113P${String((bar!.close + 10) * 1000).padStart(8, "0")}`, 10);
    expect(history.at(-1)).toEqual({ time: "2026-11-13", close: 10 });
  });

  it("rejects malformed symbols (400) and unknown tickers (404)", async () => {
    const m = marketAt(NOON);
    expect((await rejection(m.optionHistory("nonsense", 5))).status).toBe(400);
    expect((await rejection(m.optionHistory("ZZZZ261218P00100000", 5))).status).toBe(404);
  });
});

describe("simulated market: earnings and unknown tickers", () => {
  it("reports earnings on a weekday within the next quarter, about 91 days apart", async () => {
    const first = (await marketAt(NOON).nextEarningsDate("AAPL"))!;
    expect(first).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const day = dayNumberOf(first);
    expect(day).toBeGreaterThanOrEqual(dayNumberOf("2026-11-18"));
    expect(day).toBeLessThanOrEqual(dayNumberOf("2026-11-18") + 93);
    expect([1, 2, 3, 4, 5]).toContain(weekdayOf(day));
    const after = new Date(Date.parse(`${first}T23:00:00Z`) + 86_400_000);
    const second = dayNumberOf((await marketAt(after).nextEarningsDate("AAPL"))!);
    expect(second - day).toBeGreaterThanOrEqual(89);
    expect(second - day).toBeLessThanOrEqual(93);
  });

  it("raises implied volatility for expiries that span earnings", async () => {
    const m = marketAt(NOON);
    for (const t of DEMO_TICKERS.slice(0, 8)) {
      const earnings = (await m.nextEarningsDate(t.ticker))!;
      const chain = await m.optionChain(t.ticker);
      const atm = (e: (typeof chain.expirations)[number]) =>
        e.options
          .filter((o) => o.type === "put")
          .sort((a, b) => Math.abs(a.strike - chain.spot) - Math.abs(b.strike - chain.spot))[0]!.impliedVolatility;
      const before = chain.expirations.filter((e) => e.expiration < earnings).at(-1);
      const spanning = chain.expirations.find((e) => e.expiration >= earnings);
      if (before && spanning && earnings > "2026-11-18") expect(atm(spanning)).toBeGreaterThan(atm(before));
    }
  });

  it("answers 404 for an unknown ticker and undefined for its name", async () => {
    const m = marketAt(NOON);
    for (const call of [
      m.quote("ZZZZ"),
      m.dailyHistory("ZZZZ", 10),
      m.optionChain("ZZZZ"),
      m.nextEarningsDate("ZZZZ"),
    ]) {
      const error = await rejection(call);
      expect(error.status).toBe(404);
      expect(error.message).toBe("Unknown ticker: ZZZZ");
    }
    expect(await m.companyName("ZZZZ")).toBeUndefined();
  });
});

describe("simulated market: the risk-free rate", () => {
  it("prices with RISK_FREE_RATE when given, and says so, else with the one fallback", async () => {
    const at = () => NOON;
    const fallback = createSimulatedMarket({ seed: 42, tickers: DEMO_TICKERS, now: at });
    const low = createSimulatedMarket({ seed: 42, tickers: DEMO_TICKERS, now: at, riskFreeRate: 0.02 });
    expect(await fallback.riskFreeRate!()).toBe(FALLBACK_RISK_FREE_RATE);
    expect(await low.riskFreeRate!()).toBe(0.02);
    const [a, b] = [await fallback.optionChain("KO"), await low.optionChain("KO")];
    expect(a.rate).toBe(FALLBACK_RISK_FREE_RATE);
    expect(b.rate).toBe(0.02);
    // A lower rate lowers the forward, so a put further out is worth more: compare the last expiry's
    // at-the-money put of each (same strike, same IV surface apart from the forward).
    const last = (c: typeof a) => c.expirations.at(-1)!.options.filter((o) => o.type === "put");
    const atm = (puts: ReturnType<typeof last>) =>
      puts.reduce((best, o) => (Math.abs(o.strike - a.spot) < Math.abs(best.strike - a.spot) ? o : best));
    const putA = atm(last(a));
    const putB = last(b).find((o) => o.strike === putA.strike)!;
    expect(putB.ask).toBeGreaterThan(putA.ask);
  });
});
