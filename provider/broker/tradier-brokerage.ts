/**
 * Tradier's brokerage API, the account side (issue 43): the token's profile (its accounts), an
 * account's positions, its cash and its history, paged. JSON converted from XML as everywhere at Tradier: a
 * list of one is a bare object, an empty one `null` or "null". Tradier counts requests per token and
 * minute and says so in X-Ratelimit-* headers: a page waits for the window to reopen when that is
 * a few seconds away, else the sync stops with a sentence saying when to try again
 * (docs/decisions/0093-tradier-sync-through-the-import.md).
 */
import type { BrokerAccount } from "#contract/broker-sync.ts";

export const TRADIER_BROKERAGE_PRODUCTION_URL = "https://api.tradier.com/v1";

/** Why Tradier could not be read, as the trader reads it; `status` is the provider's answer. */
export class BrokerError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

const BROKER_TEXT = {
  tokenRefused: "Tradier refused the token: connect again with a new access token",
  rateLimited: (seconds: number) =>
    `Tradier's limit of requests a minute is used up: try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}`,
  down: "Tradier did not answer: try again in a few minutes",
  shape: "Tradier answered in a shape we do not recognise: try again later",
  noAccounts: "This token's Tradier profile lists no brokerage account",
} as const;

/** One event of /accounts/{id}/history, as Tradier writes it. */
export interface TradierHistoryEvent {
  amount?: number;
  date?: string;
  type?: string;
  trade?: {
    commission?: number;
    description?: string;
    price?: number;
    quantity?: number;
    symbol?: string;
    trade_type?: string;
  };
  option?: { option_type?: string; description?: string; quantity?: number; symbol?: string };
  dividend?: { description?: string; quantity?: number; symbol?: string };
  [other: string]: unknown;
}

export interface TradierPosition {
  cost_basis?: number;
  date_acquired?: string;
  id?: number;
  quantity?: number;
  symbol?: string;
}

export interface TradierBrokerage {
  accounts(): Promise<BrokerAccount[]>;
  positions(account: string): Promise<TradierPosition[]>;
  /**
   * The account's cash from /accounts/{id}/balances: `total_cash` (every account type has it), else a
   * cash account's `cash.cash_available`; null when Tradier gives neither (ADR 0098).
   */
  cash(account: string): Promise<number | null>;
  /** One page of the history, newest first as Tradier sends it; `start` a day (YYYY-MM-DD). */
  history(account: string, page: number, limit: number, start?: string): Promise<TradierHistoryEvent[]>;
}

export interface TradierBrokerageOptions {
  token: string;
  /** TRADIER_BROKERAGE_URL: production by default, https://sandbox.tradier.com/v1 for a paper account. */
  baseUrl?: string | undefined;
  fetch?: typeof fetch | undefined;
  timeoutMs?: number | undefined;
  /** Longest wait for Tradier's request window to reopen before giving up with "try again in …". */
  maxWaitMs?: number | undefined;
  now?: (() => number) | undefined;
}

// Tradier's JSON is converted from XML: a list of one is a bare object and an empty list is null or "null".
const list = <T>(value: T | T[] | null | undefined | string): T[] =>
  value == null || typeof value === "string" ? [] : Array.isArray(value) ? value : [value];

export function createTradierBrokerage(options: TradierBrokerageOptions): TradierBrokerage {
  const baseUrl = (options.baseUrl ?? TRADIER_BROKERAGE_PRODUCTION_URL).replace(/\/+$/, "");
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxWaitMs = options.maxWaitMs ?? 5_000;
  const now = options.now ?? Date.now;
  /** When Tradier's window reopens, once it said none is left. */
  let closedUntil = 0;

  async function get<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    const wait = closedUntil - now();
    if (wait > maxWaitMs) throw new BrokerError(429, BROKER_TEXT.rateLimited(Math.ceil(wait / 1000)));
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const search = new URLSearchParams(query).toString();
    let response: Response;
    try {
      response = await baseFetch(`${baseUrl}${path}${search ? `?${search}` : ""}`, {
        headers: { Authorization: `Bearer ${options.token}`, Accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      throw new BrokerError(503, BROKER_TEXT.down);
    }
    const available = Number(response.headers.get("x-ratelimit-available"));
    const expiry = Number(response.headers.get("x-ratelimit-expiry"));
    if (response.headers.has("x-ratelimit-available") && available <= 0 && expiry > 0) closedUntil = expiry;
    if (response.status === 429) {
      const until = expiry > 0 ? expiry : now() + 60_000;
      closedUntil = until;
      throw new BrokerError(429, BROKER_TEXT.rateLimited(Math.max(1, Math.ceil((until - now()) / 1000))));
    }
    if (response.status === 401 || response.status === 403) throw new BrokerError(422, BROKER_TEXT.tokenRefused);
    if (!response.ok) throw new BrokerError(503, BROKER_TEXT.down);
    try {
      return (await response.json()) as T;
    } catch {
      throw new BrokerError(502, BROKER_TEXT.shape);
    }
  }

  const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 40) : "");

  return {
    async accounts() {
      const body = await get<{ profile?: { account?: unknown } | null }>("/user/profile");
      if (!body || typeof body !== "object" || !("profile" in body)) throw new BrokerError(502, BROKER_TEXT.shape);
      const accounts = list(body.profile?.account as Record<string, unknown> | Record<string, unknown>[] | null)
        .map((a) => ({
          number: String(a.account_number ?? ""),
          type: text(a.type),
          classification: text(a.classification),
        }))
        .filter((a) => /^[A-Za-z0-9-]{1,40}$/.test(a.number));
      if (accounts.length === 0) throw new BrokerError(422, BROKER_TEXT.noAccounts);
      return accounts.slice(0, 100);
    },
    async positions(account) {
      const body = await get<{ positions?: { position?: unknown } | null | string }>(
        `/accounts/${encodeURIComponent(account)}/positions`,
      );
      if (!body || typeof body !== "object" || !("positions" in body)) throw new BrokerError(502, BROKER_TEXT.shape);
      const positions = body.positions;
      return list(
        typeof positions === "object" && positions ? (positions.position as TradierPosition | TradierPosition[]) : null,
      );
    },
    async cash(account) {
      const body = await get<{
        balances?: { total_cash?: unknown; cash?: { cash_available?: unknown } | null } | null;
      }>(`/accounts/${encodeURIComponent(account)}/balances`);
      if (!body || typeof body !== "object" || !("balances" in body)) throw new BrokerError(502, BROKER_TEXT.shape);
      const balances = body.balances;
      const figure = [balances?.total_cash, balances?.cash?.cash_available].find(
        (v): v is number => typeof v === "number" && Number.isFinite(v),
      );
      return figure === undefined ? null : Math.round(figure * 100) / 100;
    },
    async history(account, page, limit, start) {
      const query: Record<string, string> = { page: String(page), limit: String(limit) };
      if (start) query.start = start;
      const body = await get<{ history?: { event?: unknown } | null | string }>(
        `/accounts/${encodeURIComponent(account)}/history`,
        query,
      );
      if (!body || typeof body !== "object" || !("history" in body)) throw new BrokerError(502, BROKER_TEXT.shape);
      const history = body.history;
      return list(
        typeof history === "object" && history ? (history.event as TradierHistoryEvent | TradierHistoryEvent[]) : null,
      );
    },
  };
}
