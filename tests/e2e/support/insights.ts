import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { expect, type Locator, type Page } from "@playwright/test";
import * as calls from "#contract/calls.ts";
import type { TopLineRecommendation, TradeRecommendation } from "#contract/entities.ts";
import { startNode, tempDir, type Started } from "./processes.ts";
import { embeddedProviderUrl } from "./ports.ts";
import { createTrader, providerCall, watchlistOf, type Trader } from "./watchlist.ts";

/**
 * Helpers for the Recommendations screen's browser tests: traders who flagged tickers for
 * recommendations, the provider's own view of the data, and a stand-in provider for data the
 * engine cannot be made to produce on demand (exact boundaries, failures).
 */

/** A new trader whose watchlist holds these tickers, each switched on for recommendations. */
export async function flaggedTrader(tickers: string[]): Promise<Trader> {
  const trader = await createTrader(tickers);
  for (const row of await watchlistOf(trader)) {
    const res = await providerCall(trader.providerUrl, calls.updateUserStock, {
      token: trader.token,
      params: { id: row.id },
      body: { generate_recommendation: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return trader;
}

export async function topLineOf(trader: Pick<Trader, "token" | "providerUrl">): Promise<TopLineRecommendation[]> {
  const res = await providerCall<TopLineRecommendation[]>(trader.providerUrl, calls.topLineRecommendations, {
    token: trader.token,
  });
  expect(res.status).toBe(200);
  return res.body;
}

export async function optionsOf(trader: Pick<Trader, "token" | "providerUrl">, symbol: string) {
  const res = await providerCall<TradeRecommendation[]>(trader.providerUrl, calls.tradeRecommendations, {
    token: trader.token,
    params: { symbol },
  });
  expect(res.status).toBe(200);
  return res.body;
}

export async function generateAs(trader: Pick<Trader, "token" | "providerUrl">, ticker: string) {
  return providerCall<{ message: string }>(trader.providerUrl, calls.generateRecommendations, {
    token: trader.token,
    params: { ticker },
  });
}

/** The stock card of a ticker on /insights. */
export function card(page: Page, ticker: string): Locator {
  return page.locator(`li.ins-card[data-ticker="${ticker}"]`);
}

/** The option cards shown, as their strikes' text, top to bottom. */
export async function shownStrikes(scope: Locator): Promise<string[]> {
  return scope.getByTestId("option-card").getByTestId("strike").allTextContents();
}

/** The date chips shown (MM/DD) and the selected one. */
export function chips(scope: Locator): Locator {
  return scope.getByRole("navigation", { name: /expiration dates/ }).getByRole("link");
}

export function selectedChip(scope: Locator): Locator {
  return scope.locator('.ins-chip[aria-current="true"]');
}

/** "2026-11-27" → "11/27". */
export const chipText = (date: string) => `${date.slice(5, 7)}/${date.slice(8, 10)}`;

/** The expirations of a set, soonest first, each once. */
export const datesOf = (options: readonly Pick<TradeRecommendation, "expiration_date">[]) =>
  [...new Set(options.map((o) => o.expiration_date))].sort();

/** en-US grouping with fixed decimals, as the screen shows numbers (docs/product.md#constants-display). */
export function fixed(value: number, digits = 2): string {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// ── A stand-in provider ─────────────────────────────────────────────────────────────────────────

type Answer = { status: number; body: unknown } | "forward";
type Handler = (request: IncomingMessage) => Answer | Promise<Answer>;

/**
 * An HTTP server in front of the real embedded provider: every call is passed through (sign-in,
 * permissions, the watchlist …) except those a test answers itself. The app under test is a
 * second instance of the real build pointed at it with PROVIDER_URL, as an operator would point
 * it at any server that honours the contract.
 */
export class StandIn {
  private readonly answers = new Map<string, Handler>();
  readonly requests: string[] = [];
  private server!: Server;
  url = "";

  private readonly upstream: string;

  constructor(upstream: string) {
    this.upstream = upstream;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers `METHOD /path` (exact path) with the handler's answer until reset. */
  answer(method: string, path: string, handler: Handler | Answer): void {
    this.answers.set(`${method} ${path}`, typeof handler === "function" ? handler : () => handler);
  }

  reset(): void {
    this.answers.clear();
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://stand-in").pathname;
    this.requests.push(`${req.method} ${path}`);
    const handler = this.answers.get(`${req.method} ${path}`);
    const answer = handler ? await handler(req) : "forward";
    if (answer !== "forward") {
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || ["host", "connection", "content-length"].includes(name)) continue;
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    }
    try {
      const upstream = await fetch(this.upstream + req.url, {
        method: req.method,
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(name))
          out[name] = value;
      });
      res.writeHead(upstream.status, out);
      if (upstream.body) Readable.fromWeb(upstream.body as never).pipe(res);
      else res.end();
    } catch {
      res.writeHead(502).end();
    }
  }
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The stand-in provider and a second app instance (the real build) that talks to it. */
export async function startStandInApp(): Promise<{ standIn: StandIn; app: Started; close(): Promise<void> }> {
  const standIn = new StandIn(embeddedProviderUrl());
  await standIn.start();
  const port = await freePort();
  const app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(port),
      PROVIDER_URL: standIn.url,
      SESSION_SECRET: "insights-stand-in-session-secret-0123456789",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      DATA_DIR: tempDir("putseller-insights-"),
    },
    `http://localhost:${port}`,
  );
  return {
    standIn,
    app,
    async close() {
      await app.stop();
      await standIn.close();
    },
  };
}

// ── Data made to sit on the option-card rules' boundaries ───────────────────────────────────────

export const RULES = "RULES";
export const RULES_PRICE = 100;
export const D1 = "2030-01-18";
export const D2 = "2030-02-15";
export const D3 = "2030-03-15";

const STAMP = "2030-01-02T15:00:00.000Z";

/** A full TradeRecommendation of RULES (stock price 100, weekly range 1 to 4) with these changes. */
export function ruleOption(
  id: number,
  expiration_date: string,
  strike_price: number,
  changes: Partial<TradeRecommendation> = {},
): TradeRecommendation {
  const yymmdd = expiration_date.slice(2).replaceAll("-", "");
  return {
    id,
    stock_id: 424242,
    trade_recommendations_id: 777,
    option_identifier: `${RULES}${yymmdd}P${String(Math.round(strike_price * 1000)).padStart(8, "0")}`,
    put_or_call: "put",
    volume: 120,
    expiration_date,
    strike_price,
    current_stock_price: RULES_PRICE,
    current_option_price: 2.5,
    option_weekly_low_price: 1,
    option_weekly_high_price: 4,
    calculated_monthly_roi: 0.0234,
    implied_volatility: 0.3123,
    historical_volatility: 0.2875,
    delta: -0.4567,
    theta: -0.0512,
    vega: 0.1234,
    created_at: STAMP,
    updated_at: STAMP,
    active: 1,
    open_interest: 900,
    bid: 2.45,
    ask: 2.55,
    days_to_expiry: 30,
    annualized_roi: 0.2846,
    breakeven: strike_price - 2.5,
    collateral: strike_price * 100,
    cushion: 0.1,
    probability_of_profit: 0.7125,
    probability_of_profit_delta: 0.5433,
    earnings_date: null,
    earnings_before_expiry: false,
    iv_rank: 0.4,
    buy_level: null,
    below_conservative_iv: false,
    // The honest figures (ADR 0022), for a 30-day put bid 2.45 at a 100 strike, commission 0.65.
    mid: 2.5,
    intrinsic_value: Math.max(0, strike_price - RULES_PRICE),
    time_value: Math.max(0, 2.45 - Math.max(0, strike_price - RULES_PRICE)),
    spread: 0.04,
    probability_of_assignment: 0.4812,
    iv_percentile: 0.45,
    iv_history_days: 252,
    rate: 0.045,
    commission: 0.65,
    net_return: 0.0244,
    net_monthly_return: 0.0244,
    net_annualized_return: 0.2968,
    tbill_return: 0.0037,
    excess_return: 0.0207,
    at_or_below_conservative: false,
    score: 0.01,
    rank: 0,
    nearest_above_conservative: false,
    market_source: "simulated",
    quoted_at: null,
    bid_source: "quote",
    ...changes,
  };
}

/**
 * RULES's set. On D1, one option per boundary: ITM 5 % above; exactly 5 % below; 5.1 %; exactly
 * 15 %; 15.1 %. Option prices sit exactly at a third of the range (2 and 3), just above the upper
 * line (3.01) and just below the lower one (1.99). D2 and D3 have lower strikes for the filter.
 */
export function ruleOptions(): TradeRecommendation[] {
  return [
    ruleOption(910001, D1, 105, { current_option_price: 2 }),
    ruleOption(910002, D1, 95, { current_option_price: 3, buy_level: "two" }),
    ruleOption(910003, D1, 94.9, {
      current_option_price: 3.01,
      earnings_before_expiry: true,
      earnings_date: "2030-01-10",
    }),
    ruleOption(910004, D1, 85, { current_option_price: 1.99 }),
    ruleOption(910005, D1, 84.9),
    ruleOption(910006, D2, 90),
    ruleOption(910007, D2, 80),
    ruleOption(910008, D3, 75),
    ruleOption(910009, D3, 70, { active: 0 }),
  ];
}

export function ruleTopLine(changes: Partial<TopLineRecommendation> = {}): TopLineRecommendation {
  return {
    ticker: RULES,
    stock_id: 424242,
    stock_name: "Rule Check Corporation",
    current_price: RULES_PRICE,
    implied_volatility: 0.3111,
    historical_volatility: 0.2875,
    average_iv: 120,
    recommendation_date: new Date().toISOString(),
    trade_recommendation_count: 9,
    ...changes,
  };
}

/** Makes the stand-in answer RULES's top line, its options and each option by id. */
export function serveRules(standIn: StandIn, topLine: TopLineRecommendation[] = [ruleTopLine()]): void {
  const options = ruleOptions();
  standIn.answer("GET", calls.topLineRecommendations.path, { status: 200, body: topLine });
  // The list asks for a page of it (ADR 0102): these few cards are all of it.
  standIn.answer("GET", calls.topLineRecommendationsPage.path, {
    status: 200,
    body: { items: topLine, total: topLine.length },
  });
  standIn.answer("GET", `/api/biz-trade-recommendations/${RULES}`, { status: 200, body: options });
  for (const option of options) {
    standIn.answer("GET", `/api/biz-trade-recommendation/${option.id}`, { status: 200, body: option });
  }
}
