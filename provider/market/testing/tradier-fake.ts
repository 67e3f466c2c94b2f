/**
 * A local stand-in for Tradier's market-data API that serves fixtures/tradier over HTTP the way
 * Tradier does: the same paths and query parameters, `Authorization: Bearer` checked (401
 * "Invalid Access Token" otherwise), JSON converted from XML (a list of one is a bare object,
 * unknown symbols under `unmatched_symbols`, empty answers null), X-Ratelimit-* headers on every
 * answer and 429 once the minute's allowance is spent. Tests switch it down or limit it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import type { AddressInfo } from "node:net";

export const FAKE_TRADIER_TOKEN = "fake-tradier-token";

const fixture = (name: string): unknown | undefined => {
  const url = new URL(`../fixtures/tradier/${name}.json`, import.meta.url);
  return existsSync(url) ? JSON.parse(readFileSync(url, "utf8")) : undefined;
};
const one = <T>(items: T[]): T | T[] => (items.length === 1 ? items[0]! : items);

export interface FakeRequest {
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
}

export interface TradierFake {
  /** The API root to give the adapter, e.g. http://127.0.0.1:40123/v1. */
  baseUrl: string;
  requests: FakeRequest[];
  /** Answer 503 to everything. */
  down: boolean;
  /** Requests allowed per minute before 429 (Tradier's production allowance by default). */
  allowance: number;
  clock: "open" | "closed";
  close(): Promise<void>;
}

export async function startTradierFake(now: () => Date = () => new Date()): Promise<TradierFake> {
  let windowStart = 0;
  let used = 0;
  const fake: TradierFake = {
    baseUrl: "",
    requests: [],
    down: false,
    allowance: 120,
    clock: "open",
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>) {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, {
      "content-type": typeof body === "string" ? "text/plain" : "application/json",
      ...headers,
    });
    res.end(text);
  }

  function route(path: string, q: Record<string, string>): unknown {
    switch (path) {
      case "/v1/markets/quotes": {
        const symbols = (q.symbols ?? "").split(",").filter(Boolean);
        const found = symbols.map((s) => fixture(`quote-${s}`)).filter((x) => x !== undefined);
        const unmatched = symbols.filter((s) => fixture(`quote-${s}`) === undefined);
        const quotes: Record<string, unknown> = {};
        if (found.length) quotes.quote = one(found);
        if (unmatched.length) quotes.unmatched_symbols = { symbol: one(unmatched) };
        return { quotes };
      }
      case "/v1/markets/options/expirations":
        return fixture(`expirations-${q.symbol}`) ?? { expirations: null };
      case "/v1/markets/options/chains":
        return fixture(`chains-${q.symbol}-${q.expiration}`) ?? { options: null };
      case "/v1/markets/history":
        return fixture(`history-${q.symbol}`) ?? { history: null };
      case "/v1/markets/clock":
        return fixture(`clock-${fake.clock}`);
      case "/v1/markets/calendar":
        return (
          fixture(`calendar-${q.year}-${q.month}`) ?? {
            calendar: { month: Number(q.month), year: Number(q.year), days: { day: [] } },
          }
        );
      default:
        return undefined;
    }
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const query = Object.fromEntries(url.searchParams);
    fake.requests.push({ path: url.pathname, query, authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${FAKE_TRADIER_TOKEN}`) {
      return answer(res, 401, "Invalid Access Token", {});
    }
    const t = now().getTime();
    if (t >= windowStart + 60_000 || t < windowStart) {
      windowStart = t;
      used = 0;
    }
    used++;
    const limits = {
      "X-Ratelimit-Allowed": String(fake.allowance),
      "X-Ratelimit-Used": String(Math.min(used, fake.allowance)),
      "X-Ratelimit-Available": String(Math.max(0, fake.allowance - used)),
      "X-Ratelimit-Expiry": String(windowStart + 60_000),
    };
    if (used > fake.allowance) return answer(res, 429, "Quota Violation", limits);
    if (fake.down) return answer(res, 503, "Service Unavailable", {});
    const body = route(url.pathname, query);
    if (body === undefined) return answer(res, 404, "Not Found", limits);
    answer(res, 200, body, limits);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
