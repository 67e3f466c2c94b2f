import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { MarketDataError } from "./port.ts";
import { createYahooMarket } from "./yahoo.ts";

/**
 * The yahoo adapter against recorded Yahoo Finance responses (fixtures/yahoo), replayed through
 * yahoo-finance2's `fetch` option: the library's cookie and crumb handshake, parsing and schema
 * validation all run; only the network is replaced.
 */
const NOW = new Date("2026-11-18T17:00:00Z");

interface Recorded {
  response: { status: number; headers: Record<string, string>; bodyJson?: unknown; bodyText?: string };
}
const fixture = (name: string): Recorded =>
  JSON.parse(readFileSync(new URL(`./fixtures/yahoo/${name}.json`, import.meta.url), "utf8")) as Recorded;

function reply({ response }: Recorded): Response {
  const body = response.bodyText ?? JSON.stringify(response.bodyJson);
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A replaying vendor: `routes` maps "quote AAPL", "chart AAPL", "options AAPL [date]" to fixture names. */
function vendor(routes: Record<string, string | (() => Response | Promise<Response>)>) {
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(String(input));
    requests.push(url.href);
    if (url.hostname === "finance.yahoo.com") {
      // The page that sets Yahoo's session cookie (the library's first handshake step).
      const headers = new Headers({ "content-type": "text/html" });
      headers.append(
        "set-cookie",
        "A3=d=recorded&S=cookie; Expires=Sun, 3 Oct 2027 14:16:59 GMT; Domain=.yahoo.com; Path=/; Secure",
      );
      return new Response("<!doctype html><title>Apple</title>", { status: 200, headers });
    }
    if (url.pathname === "/v1/test/getcrumb") return new Response("Xy7crumb.Rec", { status: 200 });
    let key: string | undefined;
    if (url.pathname === "/v7/finance/quote") key = `quote ${url.searchParams.get("symbols")}`;
    else if (url.pathname.startsWith("/v8/finance/chart/")) key = `chart ${decodeURIComponent(url.pathname.slice(18))}`;
    else if (url.pathname.startsWith("/v7/finance/options/")) {
      const date = url.searchParams.get("date");
      key = `options ${url.pathname.slice(20)}${date ? ` ${new Date(Number(date) * 1000).toISOString().slice(0, 10)}` : ""}`;
    }
    const route = key ? routes[key] : undefined;
    if (!route) return reply(fixture("chart-not-found"));
    return typeof route === "string" ? reply(fixture(route)) : route();
  };
  return { fetch, requests };
}

const market = (routes: Parameters<typeof vendor>[0]) => {
  const v = vendor(routes);
  return { market: createYahooMarket({ fetch: v.fetch, now: () => NOW, timeoutMs: 2_000 }), requests: v.requests };
};

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
    const { market: m, requests } = market({
      "options AAPL": "options-AAPL",
      "options AAPL 2026-11-27": "options-AAPL-2026-11-27",
      "options AAPL 2026-12-18": "options-AAPL-2026-12-18",
    });
    const chain = await m.optionChain("AAPL");
    expect(chain.ticker).toBe("AAPL");
    expect(chain.spot).toBe(231.47);
    expect(chain.asOf).toEqual(NOW);
    expect(chain.expirations.map((e) => e.expiration)).toEqual(["2026-11-20", "2026-11-27", "2026-12-18"]);
    // 2027-03-19 is listed but beyond 70 days: never asked for.
    expect(requests.filter((r) => r.includes("/v7/finance/options/"))).toHaveLength(3);
    const put = chain.expirations[1]!.options.find((o) => o.symbol === "AAPL261127P00225000")!;
    expect(put).toMatchObject({ type: "put", strike: 225, impliedVolatility: expect.any(Number) });
    expect(put.ask).toBeGreaterThan(put.bid);
    expect(put.volume).toBeGreaterThan(0);
    expect(put.openInterest).toBeGreaterThan(0);
    const types = new Set(chain.expirations[0]!.options.map((o) => o.type));
    expect(types).toEqual(new Set(["put", "call"]));
  });

  it("gives an option's daily closes, skipping sessions without a trade", async () => {
    const { market: m } = market({ "chart AAPL261127P00225000": "chart-AAPL261127P00225000" });
    expect(await m.optionHistory("AAPL261127P00225000", 5)).toEqual([
      { time: "2026-11-12", close: 3.1 },
      { time: "2026-11-13", close: 2.95 },
      { time: "2026-11-17", close: 2.6 },
      { time: "2026-11-18", close: 2.2 },
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
