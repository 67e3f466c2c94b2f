/**
 * A local stand-in for Tradier's market-data API that serves fixtures/tradier over HTTP the way
 * Tradier does: the same paths and query parameters, `Authorization: Bearer` checked (401
 * "Invalid Access Token" otherwise), JSON converted from XML (a list of one is a bare object,
 * unknown symbols under `unmatched_symbols`, empty answers null), X-Ratelimit-* headers on every
 * answer and 429 once the minute's allowance is spent. Tests switch it down or limit it.
 *
 * It serves the brokerage API's account side too (issue 43): /user/profile, and per account
 * /accounts/{id}/positions, /history (paged with `page` and `limit`, 25 by default; filtered by
 * `start`, `end` and `type`), /gainloss and /balances, from fixtures/tradier/account-*.json. A
 * second token, FAKE_TRADIER_TWO_ACCOUNTS_TOKEN, has a profile of two accounts. Company
 * fundamentals (/beta/markets/fundamentals/company) answer from `company-<SYMBOL>.json`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import type { AddressInfo } from "node:net";

export const FAKE_TRADIER_TOKEN = "fake-tradier-token";
/** A token whose profile lists two accounts (VA00001111 and an empty IRA, VA00002222). */
export const FAKE_TRADIER_TWO_ACCOUNTS_TOKEN = "fake-tradier-two-accounts";
/** The fake's brokerage account (fixtures/tradier/account-VA00001111-*.json). */
export const FAKE_TRADIER_ACCOUNT = "VA00001111";

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

  /** The account side: the token's profile, and each account's positions, history, gain/loss, balances. */
  function account(path: string, q: Record<string, string>, token: string): unknown {
    if (path === "/v1/user/profile") {
      return fixture(token === FAKE_TRADIER_TWO_ACCOUNTS_TOKEN ? "account-profile-two" : "account-profile");
    }
    const m = /^\/v1\/accounts\/([^/]+)\/(positions|history|gainloss|balances)$/.exec(path);
    if (!m) return undefined;
    const [, id, what] = m as unknown as [string, string, string];
    const body = fixture(`account-${decodeURIComponent(id)}-${what}`) as Record<string, unknown> | undefined;
    if (!body || what !== "history") return body;
    const all = (body.history as { event?: unknown } | string | null) ?? null;
    let events = (
      typeof all === "object" && all ? ([] as Record<string, unknown>[]).concat(all.event as never) : []
    ).filter(
      (e) =>
        (!q.type || e.type === q.type) &&
        (!q.start || String(e.date).slice(0, 10) >= q.start) &&
        (!q.end || String(e.date).slice(0, 10) <= q.end),
    );
    const limit = Math.max(1, Number(q.limit) || 25);
    const page = Math.max(1, Number(q.page) || 1);
    events = events.slice((page - 1) * limit, page * limit);
    return { history: events.length ? { event: one(events) } : "null" };
  }

  function route(path: string, q: Record<string, string>): unknown {
    switch (path) {
      case "/beta/markets/fundamentals/company": {
        // Answered as Tradier's beta fundamentals do: an array of one item a requested symbol.
        const symbols = (q.symbols ?? "").split(",").filter(Boolean);
        return symbols.map((s) => fixture(`company-${s}`) ?? { request: s, type: "Symbol", results: [] });
      }
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
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const accountSide = url.pathname === "/v1/user/profile" || url.pathname.startsWith("/v1/accounts/");
    const known = token === FAKE_TRADIER_TOKEN || (accountSide && token === FAKE_TRADIER_TWO_ACCOUNTS_TOKEN);
    if (!known) {
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
    const body = accountSide ? account(url.pathname, query, token) : route(url.pathname, query);
    if (body === undefined) return answer(res, 404, "Not Found", limits);
    answer(res, 200, body, limits);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
