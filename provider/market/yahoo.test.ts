import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { impliedVolatility } from "#provider/options/implied-volatility.ts";
import { yearsToExpiry } from "./calendar.ts";
import { MarketDataError } from "./port.ts";
import { fixture, reply, vendor, type Recorded } from "./testing/yahoo-replay.ts";
import { createYahooMarket, type YahooMarketOptions } from "./yahoo.ts";

/**
 * The yahoo adapter against recorded Yahoo Finance responses (fixtures/yahoo), replayed through
 * yahoo-finance2's `fetch` option: the library's cookie and crumb handshake, parsing and schema
 * validation all run; only the network is replaced.
 */
const NOW = new Date("2026-11-18T17:00:00Z");

const market = (routes: Parameters<typeof vendor>[0], options: YahooMarketOptions = {}) => {
  const v = vendor(routes);
  return {
    market: createYahooMarket({ fetch: v.fetch, now: () => NOW, timeoutMs: 2_000, ...options }),
    requests: v.requests,
  };
};

const CHAIN_ROUTES = {
  "quote ^IRX": "quote-IRX",
  "options AAPL": "options-AAPL",
  "options AAPL 2026-11-27": "options-AAPL-2026-11-27",
  "options AAPL 2026-12-18": "options-AAPL-2026-12-18",
};

/** A recorded chain page with every bid and ask zeroed, as Yahoo answers after hours. */
function zeroedBids(name: string): () => Response {
  return () => {
    const recorded = fixture(name) as Recorded & {
      response: { bodyJson: { optionChain: { result: { options: { puts: object[]; calls: object[] }[] }[] } } };
    };
    for (const set of recorded.response.bodyJson.optionChain.result[0]!.options) {
      for (const c of [...set.puts, ...set.calls]) Object.assign(c, { bid: 0, ask: 0 });
    }
    return reply(recorded);
  };
}

async function failure(promise: Promise<unknown>): Promise<MarketDataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MarketDataError);
  return error as MarketDataError;
}

beforeEach(() => {
  // The library prints the URL of a failed request to the console itself.
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe("yahoo market data (recorded responses)", () => {
  it("quotes a ticker with its time, previous close and the session's bar", async () => {
    const { market: m, requests } = market({ "quote AAPL": "quote-AAPL" });
    const quote = await m.quote("aapl");
    expect(quote).toEqual({
      ticker: "AAPL",
      price: 231.47,
      asOf: NOW,
      source: "yahoo",
      stale: false,
      previousClose: 229.02,
      session: { time: "2026-11-18", open: 229.5, high: 232.1, low: 228.36, close: 231.47, volume: 21877433 },
    });
    // The handshake came first and the crumb went with the quote.
    expect(requests[0]).toMatch(/^https:\/\/finance\.yahoo\.com\//);
    expect(requests.find((r) => r.includes("/v7/finance/quote"))).toContain("crumb=Xy7crumb.Rec");
  });

  it("names a company, and answers undefined for a ticker Yahoo does not know", async () => {
    const { market: m } = market({ "quote AAPL": "quote-AAPL", "quote ZZZZ": "quote-ZZZZ" });
    expect(await m.companyName("AAPL")).toBe("Apple Inc.");
    expect(await m.companyName("ZZZZ")).toBeUndefined();
    const unknown = await failure(m.quote("ZZZZ"));
    expect(unknown.status).toBe(404);
    expect(unknown.message).toBe("Unknown ticker: ZZZZ");
  });

  it("gives daily history oldest first as New York dates, at most the days asked for", async () => {
    const { market: m, requests } = market({ "chart AAPL": "chart-AAPL" });
    const bars = await m.dailyHistory("AAPL", 3);
    expect(bars).toEqual([
      { time: "2026-11-16", open: 228, high: 229.6, low: 227.1, close: 228.7, volume: 35120900 },
      { time: "2026-11-17", open: 228.9, high: 229.9, low: 228.1, close: 229.02, volume: 41230000 },
      { time: "2026-11-18", open: 229.5, high: 232.1, low: 228.36, close: 231.47, volume: 21877433 },
    ]);
    const chart = new URL(requests.find((r) => r.includes("/v8/finance/chart/"))!);
    expect(chart.searchParams.get("interval")).toBe("1d");
    // Asked from far enough back to hold 3 trading days with weekends and holidays.
    expect(Number(chart.searchParams.get("period1"))).toBeLessThan(NOW.getTime() / 1000 - 5 * 86_400);
  });

  it("builds the option chain from one request per expiration within the engine's window", async () => {
    const { market: m, requests } = market(CHAIN_ROUTES);
    const chain = await m.optionChain("AAPL");
    expect(chain.ticker).toBe("AAPL");
    expect(chain.spot).toBe(231.47);
    expect(chain.asOf).toEqual(NOW);
    expect(chain.source).toBe("yahoo");
    expect(chain.stale).toBe(false);
    expect(chain.expirations.map((e) => e.expiration)).toEqual(["2026-11-20", "2026-11-27", "2026-12-18"]);
    // 2027-03-19 is listed but beyond 70 days: never asked for.
    expect(requests.filter((r) => r.includes("/v7/finance/options/"))).toHaveLength(3);
    const put = chain.expirations[1]!.options.find((o) => o.symbol === "AAPL261127P00225000")!;
    // Field by field from options-AAPL-2026-11-27.json: Yahoo's impliedVolatility is already a fraction.
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
    });
    const call = chain.expirations[2]!.options.find((o) => o.symbol === "AAPL261218C00240000")!;
    expect(call).toEqual({
      symbol: "AAPL261218C00240000",
      type: "call",
      strike: 240,
      bid: 3.7,
      ask: 3.78,
      last: 3.74,
      volume: 1074,
      openInterest: 4240,
      impliedVolatility: 0.258,
      bidSource: "quote",
    });
    const types = new Set(chain.expirations[0]!.options.map((o) => o.type));
    expect(types).toEqual(new Set(["put", "call"]));
  });

  it("gives the model inputs: the rate from the 13-week T-bill and the dividend yield from percent", async () => {
    const { market: m } = market(CHAIN_ROUTES);
    const chain = await m.optionChain("AAPL");
    // ^IRX quotes 4.05 (percent, bank discount): price 1 − 0.0405 × 91/360 = 0.9897625,
    // r = −ln(0.9897625) × 365/91 = 0.041274 continuous.
    expect(chain.rate).toBeCloseTo(0.041274, 6);
    // dividendYield 0.45 is 0.45 %, not 45 %.
    expect(chain.dividendYield).toBeCloseTo(0.0045, 12);
  });

  it("takes the rate from RISK_FREE_RATE when set, without asking for ^IRX", async () => {
    const { market: m, requests } = market(CHAIN_ROUTES, { riskFreeRate: 0.039 });
    expect((await m.optionChain("AAPL")).rate).toBe(0.039);
    expect(requests.some((r) => r.includes("%5EIRX") || r.includes("^IRX"))).toBe(false);
  });

  it("has mids that agree with the stated IV (the fixtures are priced by Black-Scholes)", async () => {
    const { market: m } = market(CHAIN_ROUTES);
    const chain = await m.optionChain("AAPL");
    for (const e of chain.expirations) {
      const years = yearsToExpiry(chain.asOf, e.expiration);
      for (const o of e.options) {
        const mid = (o.bid + o.ask) / 2;
        const iv = impliedVolatility(o.type, mid, {
          spot: chain.spot,
          strike: o.strike,
          years,
          rate: chain.rate!,
          dividendYield: chain.dividendYield!,
        });
        // A mid rounded to the cent moves the implied volatility by well under half a point.
        expect(Math.abs(iv - o.impliedVolatility), o.symbol).toBeLessThan(0.005);
      }
    }
  });

  it("marks a quote and a chain older than the latest session stale", async () => {
    // Thursday 12:00 New York: the recorded figures are from Wednesday's session.
    const thursday = new Date("2026-11-19T17:00:00Z");
    const { market: m } = market(CHAIN_ROUTES, { now: () => thursday });
    expect((await m.optionChain("AAPL")).stale).toBe(true);
    const { market: q } = market({ "quote AAPL": "quote-AAPL" }, { now: () => thursday });
    expect(await q.quote("AAPL")).toMatchObject({ asOf: NOW, stale: true });
    // Thursday 09:40, within the grace after the open, Wednesday's figures are still the latest.
    const { market: early } = market({ "quote AAPL": "quote-AAPL" }, { now: () => new Date("2026-11-19T14:40:00Z") });
    expect((await early.quote("AAPL")).stale).toBe(false);
  });

  it("after hours, takes a same-session last trade for a zeroed bid, marked as such", async () => {
    // Wednesday 17:00 New York: closed; Yahoo zeroes bids and asks; the contracts traded at 11:50.
    const evening = new Date("2026-11-18T22:00:00Z");
    const { market: m } = market(
      {
        ...CHAIN_ROUTES,
        "options AAPL": zeroedBids("options-AAPL"),
        "options AAPL 2026-11-27": zeroedBids("options-AAPL-2026-11-27"),
        "options AAPL 2026-12-18": zeroedBids("options-AAPL-2026-12-18"),
      },
      { now: () => evening },
    );
    const chain = await m.optionChain("AAPL");
    const put = chain.expirations[1]!.options.find((o) => o.symbol === "AAPL261127P00225000")!;
    expect(put).toMatchObject({ bid: 1.44, ask: 0, last: 1.44, bidSource: "last" });
    expect(chain.expirations.flatMap((e) => e.options).every((o) => o.bid > 0)).toBe(true);
    const { market: later } = market(
      { ...CHAIN_ROUTES, "options AAPL": zeroedBids("options-AAPL") },
      { now: () => new Date("2026-11-20T12:00:00Z") },
    );
    // Friday 07:00: Thursday's session came after those Wednesday trades, so the zero bids stay zero.
    const stale = await later.optionChain("AAPL");
    expect(stale.expirations[0]!.options.every((o) => o.bid === 0 && o.bidSource === "quote")).toBe(true);
  });

  it("answers the last good quote, marked with when it was fetched, when Yahoo then rate-limits", async () => {
    let limited = false;
    const { market: m } = market({
      "quote AAPL": () => reply(fixture(limited ? "quote-rate-limited" : "quote-AAPL")),
    });
    const fresh = await m.quote("AAPL");
    expect(fresh.lastGood).toBeUndefined();
    limited = true;
    const kept = await m.quote("AAPL");
    expect(kept).toMatchObject({ price: 231.47, asOf: NOW, source: "yahoo" });
    expect(kept.lastGood).toEqual({ fetchedAt: NOW, reason: "Too many market data requests; try again in 60 seconds" });
  });

  it("gives an option's daily closes, skipping sessions without a trade", async () => {
    const { market: m } = market({ "chart AAPL261127P00225000": "chart-AAPL261127P00225000" });
    expect(await m.optionHistory("AAPL261127P00225000", 5)).toEqual([
      { time: "2026-11-12", close: 3.66 },
      { time: "2026-11-13", close: 3.24 },
      { time: "2026-11-17", close: 2.28 },
      { time: "2026-11-18", close: 1.44 },
    ]);
    expect((await failure(m.optionHistory("not-a-symbol", 5))).status).toBe(400);
  });

  it("finds the next earnings date from the quote (the past report is skipped)", async () => {
    const { market: m } = market({ "quote AAPL": "quote-AAPL" });
    expect(await m.nextEarningsDate("AAPL")).toBe("2027-01-28");
  });

  it("turns a rate limit into 429 with Retry-After", async () => {
    const { market: m } = market({ "quote AAPL": "quote-rate-limited" });
    const error = await failure(m.quote("AAPL"));
    expect(error.status).toBe(429);
    expect(error.headers).toMatchObject({ "Retry-After": "60" });
  });

  it("turns a vendor failure, a changed response shape and an unreachable vendor into 503", async () => {
    for (const routes of [
      { "quote AAPL": "quote-server-error" },
      { "quote AAPL": "quote-changed-shape" },
      {
        "quote AAPL": () => {
          throw new TypeError("fetch failed");
        },
      },
    ]) {
      const { market: m } = market(routes);
      const error = await failure(m.quote("AAPL"));
      expect(error.status).toBe(503);
    }
    const { market: shape } = market({ "quote AAPL": "quote-changed-shape" });
    expect((await failure(shape.quote("AAPL"))).message).toMatch(/shape we do not recognise/);
  });

  it("gives up on a vendor that does not answer, as 503", async () => {
    const v = vendor({});
    const hanging = createYahooMarket({
      now: () => NOW,
      timeoutMs: 200,
      fetch: (input, init) =>
        String(input).includes("/v7/finance/quote")
          ? new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)))
          : v.fetch(input as RequestInfo),
    });
    const started = Date.now();
    expect((await failure(hanging.quote("AAPL"))).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("answers an unknown ticker's history with 404", async () => {
    const { market: m } = market({});
    expect((await failure(m.dailyHistory("ZZZZ", 10))).status).toBe(404);
  });
});
