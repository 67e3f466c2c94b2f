import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { fillPath, type Endpoint } from "#contract/endpoint.ts";
import type { PositionAlertEvent } from "#contract/position-alerts.ts";
import { startPushReceiver, type PushReceiver, type TestSubscription } from "../../tests/support/push-receiver.ts";
import { createProvider, type Provider } from "#provider/app.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { dayNumberOf } from "#provider/market/calendar.ts";
import type { MarketData, OptionChain, Quote } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { testPostgresDatabase } from "#provider/testing/provider.ts";
import { dueAlerts, raisePositionAlerts, tradingDaysUntil } from "./position-alerts.ts";

/**
 * Alerts on open short puts (ADR 0034) against a real store (PGlite in a data folder, or a
 * PostgreSQL database with TEST_DATABASE=postgres) and the local Web Push endpoint: each event
 * fires at its threshold, not below it, once; not again from a new provider on the same data, and
 * once when two runs race. The market is a vendor stand-in whose figures each test sets.
 */

/** Wednesday 2026-11-18, noon in New York. */
const NOW = new Date("2026-11-18T17:00:00Z");
const simulated = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW });

interface Figures {
  spot: number;
  strike: number;
  expiry: string;
  bid: number;
  ask: number;
  earnings: string | null;
  exDividend: { date: string; amount: number } | null;
}
/** What the vendor says, per ticker (the positions' tickers are the test's own). */
const figures = new Map<string, Figures>();
const figuresOf = (ticker: string) => {
  const f = figures.get(ticker.toUpperCase());
  if (!f) throw new Error(`no figures for ${ticker}`);
  return f;
};
const market: MarketData = {
  ...simulated,
  async quote(ticker) {
    if (!figures.has(ticker.toUpperCase())) return simulated.quote(ticker);
    const f = figuresOf(ticker);
    return { ticker, price: f.spot, asOf: NOW, source: "simulated", stale: false } satisfies Quote;
  },
  async optionChain(ticker) {
    if (!figures.has(ticker.toUpperCase())) return simulated.optionChain(ticker);
    const f = figuresOf(ticker);
    return {
      ticker,
      spot: f.spot,
      asOf: NOW,
      source: "simulated",
      stale: false,
      expirations: [
        {
          expiration: f.expiry,
          options: [
            {
              symbol: `${ticker}PUT`,
              type: "put",
              strike: f.strike,
              bid: f.bid,
              ask: f.ask,
              last: f.bid,
              volume: 10,
              openInterest: 100,
              impliedVolatility: 0.3,
            },
          ],
        },
      ],
    } satisfies OptionChain;
  },
  async nextEarningsDate(ticker) {
    return figures.get(ticker.toUpperCase())?.earnings ?? null;
  },
  async nextExDividend(ticker) {
    return figures.get(ticker.toUpperCase())?.exDividend ?? null;
  },
};

let receiver: PushReceiver;
let subscription: TestSubscription;
let dataDir: string | undefined;
let database: { url: string; drop(): Promise<void> } | undefined;
let provider: Provider;
let token: string;
let demoId: number;

async function startProvider(): Promise<Provider> {
  return createProvider({
    seedDemo: true,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
    market,
    pushAgent: receiver.agent,
    pushAllowedHosts: ["localhost"],
    ...(database ? { databaseUrl: database.url } : { dataDir }),
  });
}

async function call(target: Provider, endpoint: Endpoint, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await target.fetch(
    new Request(new URL(fillPath(endpoint.path, { userId: demoId }), "http://provider.test"), {
      method: endpoint.method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The demo trader's notifications whose title mentions the ticker. */
async function noticesAbout(ticker: string) {
  const list = await call(provider, calls.listNotifications);
  expect(list.status).toBe(200);
  return (list.body as { notification: { title: string; body: string } }[])
    .map((n) => n.notification)
    .filter((n) => n.title.includes(ticker));
}
const pushesAbout = (ticker: string) =>
  receiver.received.filter((p) => p.subscriptionId === subscription.id && p.text.includes(`"${ticker} `));

/** Records a short put: 1 contract sold for $2.50 with $0.65 fees, so $249.35 is the most it can make. */
async function sellPut(ticker: string, strike: number, expiry: string) {
  const res = await call(provider, calls.addTrade, {
    kind: "sell_to_open",
    ticker,
    option_type: "put",
    strike,
    expiry,
    quantity: 1,
    price: 2.5,
    fees: 0.65,
    traded_at: "2026-11-10T15:00:00.000Z",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const raise = (target: Provider = provider) => raisePositionAlerts(target.context, { now: NOW });
const eventsFor = (raised: Awaited<ReturnType<typeof raise>>, ticker: string) =>
  raised.filter((r) => r.positionKey.startsWith(ticker)).map((r) => r.event);

beforeAll(async () => {
  receiver = await startPushReceiver();
  if (process.env.TEST_DATABASE === "postgres") database = await testPostgresDatabase();
  else dataDir = mkdtempSync(join(tmpdir(), "putseller-alerts-"));
  provider = await startProvider();
  const login = await provider.fetch(
    new Request("http://provider.test/auth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "demo", password: "demo1234" }),
    }),
  );
  token = ((await login.json()) as { access_token: string }).access_token;
  const me = await provider.fetch(
    new Request("http://provider.test/auth/users/me", { headers: { authorization: `Bearer ${token}` } }),
  );
  demoId = ((await me.json()) as { id: number }).id;
  subscription = receiver.subscribe();
  const device = await call(provider, calls.registerDevice, {
    device_type: "web",
    fcm_token: JSON.stringify(subscription.json),
    browser: "Chrome",
    os: "Android",
    ip_address: "Unknown",
    user_agent: "Mozilla/5.0 (Linux; Android 14) Chrome/140",
    app_version: "0.1.0",
    notification_opt_in: "1",
  });
  expect(device.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await provider?.close();
  await database?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await receiver?.close();
});

/**
 * Each event on its own position (own ticker, strike $100): `below` leaves it just short of its
 * threshold, `at` puts it on the threshold. Defaults: 50% profit, 3% from the strike, 2 trading days.
 */
const CASES: {
  event: PositionAlertEvent;
  ticker: string;
  expiry: string;
  below: Omit<Figures, "strike" | "expiry">;
  at: Omit<Figures, "strike" | "expiry">;
  text: string;
}[] = [
  {
    // Closing at the ask $1.25: 249.35 − 125 − 0.65 = 123.70, 49.6% of 249.35. At $1.24: 124.70, 50.01%.
    event: "profit_target",
    ticker: "ALPT",
    expiry: "2026-12-18",
    below: { spot: 110, bid: 1.2, ask: 1.25, earnings: null, exDividend: null },
    at: { spot: 110, bid: 1.2, ask: 1.24, earnings: null, exDividend: null },
    text: "Buy to close for $1.24 a share (the ask; $124.00 for 1 contract) keeps $124.70 of the $249.35 premium, net of your $0.65 commission per contract.",
  },
  {
    // 3% above the $100 strike is $103.
    event: "near_strike",
    ticker: "ALNS",
    expiry: "2026-12-18",
    below: { spot: 103.01, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    at: { spot: 103, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    text: "ALNS is at $103.00, 3% above the $100.00 strike of your put expiring 2026-12-18.",
  },
  {
    event: "through_strike",
    ticker: "ALTS",
    expiry: "2026-12-18",
    below: { spot: 100, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    at: { spot: 99.99, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    text: "ALTS is at $99.99, $0.01 below the $100.00 strike of your put expiring 2026-12-18: the put is in the money.",
  },
  {
    // From Wednesday 11-18: Monday 11-23 is 3 trading days away, Friday 11-20 is 2.
    event: "earnings",
    ticker: "ALER",
    expiry: "2026-12-18",
    below: { spot: 120, bid: 3, ask: 3.1, earnings: "2026-11-23", exDividend: null },
    at: { spot: 120, bid: 3, ask: 3.1, earnings: "2026-11-20", exDividend: null },
    text: "ALER reports earnings on 2026-11-20 (in 2 trading days), before your put expires on 2026-12-18.",
  },
  {
    // Expires Thursday 11-19, the next trading day; in the money once below the strike.
    event: "expiry_itm",
    ticker: "ALEX",
    expiry: "2026-11-19",
    below: { spot: 100, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    at: { spot: 99.99, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    text: "Your put expires on 2026-11-19 with ALEX at $99.99, $0.01 below the strike: assignment is likely (100 shares for $10,000.00).",
  },
  {
    // $10 in the money; mid 10.50 leaves $0.50 of time value, not below the $0.50 dividend; mid 10.40 leaves $0.40.
    event: "ex_dividend",
    ticker: "ALDV",
    expiry: "2026-12-18",
    below: { spot: 90, bid: 10.4, ask: 10.6, earnings: null, exDividend: { date: "2026-12-01", amount: 0.5 } },
    at: { spot: 90, bid: 10.3, ask: 10.5, earnings: null, exDividend: { date: "2026-12-01", amount: 0.5 } },
    text: "ALDV goes ex-dividend on 2026-12-01 ($0.50 a share) and your put is deep in the money: its time value of $0.40 (mid $10.40 less $10.00 intrinsic) is below the dividend, so early assignment is a risk.",
  },
];

describe.each(CASES)("the $event alert", ({ event, ticker, expiry, below, at, text }) => {
  it("is not sent short of its threshold", async () => {
    figures.set(ticker, { ...below, strike: 100, expiry });
    await sellPut(ticker, 100, expiry);
    const raised = await raise();
    expect(eventsFor(raised, ticker)).not.toContain(event);
  });

  it("is sent once at its threshold: a notification in the panel and a push", async () => {
    figures.set(ticker, { ...at, strike: 100, expiry });
    const raised = await raise();
    expect(eventsFor(raised, ticker).filter((e) => e === event)).toHaveLength(1);
    const notices = await noticesAbout(ticker);
    expect(notices.map((n) => n.body)).toContain(text);
    expect(pushesAbout(ticker).filter((p) => p.text.includes(text.slice(0, 40)))).toHaveLength(1);

    // The journal puts the event on the position as a badge.
    const journal = await call(provider, calls.getJournal);
    const body = journal.body as {
      open_options: { ticker: string; occ_symbol: string }[];
      position_alerts: Record<string, string[]>;
    };
    const position = body.open_options.find((o) => o.ticker === ticker)!;
    expect(body.position_alerts[position.occ_symbol]).toContain(event);

    // The next run finds it sent.
    expect(eventsFor(await raise(), ticker)).toEqual([]);
    expect(await noticesAbout(ticker)).toHaveLength(notices.length);
  });
});

describe("once, across restarts and racing runs", () => {
  it("a new provider on the same data sends none of them again", async () => {
    const before = await noticesAbout("AL");
    const pushes = receiver.received.length;
    await provider.close();
    provider = await startProvider();
    expect(await raise()).toEqual([]);
    expect(await noticesAbout("AL")).toHaveLength(before.length);
    expect(receiver.received.length).toBe(pushes);
  }, 60_000);

  it("two runs racing (two providers on one PostgreSQL database, or two runs in one process) send it once", async () => {
    figures.set("RACE", {
      spot: 99,
      strike: 100,
      expiry: "2026-12-18",
      bid: 3,
      ask: 3.1,
      earnings: null,
      exDividend: null,
    });
    await sellPut("RACE", 100, "2026-12-18");
    const second = database ? await startProvider() : provider;
    try {
      const results = await Promise.all([raise(provider), raise(second), raise(provider)]);
      const through = results.flatMap((r) => eventsFor(r, "RACE")).filter((e) => e === "through_strike");
      expect(through).toHaveLength(1);
      expect((await noticesAbout("RACE")).filter((n) => n.title.includes("went through"))).toHaveLength(1);
      expect(pushesAbout("RACE")).toHaveLength(1);
    } finally {
      if (second !== provider) await second.close();
    }
  }, 60_000);
});

describe("the trader's thresholds", () => {
  it("are the defaults until saved, and a saved threshold moves the alert", async () => {
    expect((await call(provider, calls.alertSettings)).body).toEqual({
      profit_share: 0.5,
      strike_distance: 0.03,
      earnings_days: 2,
    });
    const saved = await call(provider, calls.saveAlertSettings, {
      profit_share: 0.8,
      strike_distance: 0.1,
      earnings_days: 5,
    });
    expect(saved.status).toBe(200);
    // 9% above the strike: outside the default 3%, inside the trader's 10%.
    figures.set("WIDE", {
      spot: 109,
      strike: 100,
      expiry: "2026-12-18",
      bid: 3,
      ask: 3.1,
      earnings: null,
      exDividend: null,
    });
    await sellPut("WIDE", 100, "2026-12-18");
    expect(eventsFor(await raise(), "WIDE")).toEqual(["near_strike"]);
    expect((await noticesAbout("WIDE"))[0]!.title).toBe("WIDE is within 10% of your WIDE 100 put's strike");
  });

  it("refuses a share above 100% with a readable detail and changes nothing", async () => {
    const refused = await call(provider, calls.saveAlertSettings, {
      profit_share: 1.5,
      strike_distance: 0.03,
      earnings_days: 2,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain("Profit taken must be at most 100%");
    expect((await call(provider, calls.alertSettings)).body).toEqual({
      profit_share: 0.8,
      strike_distance: 0.1,
      earnings_days: 5,
    });
  });
});

describe("the arithmetic", () => {
  it("counts NYSE trading days: Wednesday before Thanksgiving to the Monday after is 2 (Friday, Monday)", () => {
    expect(tradingDaysUntil(dayNumberOf("2026-11-25"), dayNumberOf("2026-11-30"))).toBe(2);
    expect(tradingDaysUntil(dayNumberOf("2026-11-25"), dayNumberOf("2026-11-25"))).toBe(0);
  });

  it("expiry tomorrow means the next trading day: a Friday-evening run warns of a Monday expiry", () => {
    const position = {
      userId: 1,
      key: "X#1",
      ticker: "X",
      strike: 50,
      expiry: "2026-11-30",
      contracts: 2,
      premium: 100,
    };
    const facts = { spot: 49, option: null, earnings: null, exDividend: null };
    const settings = { profit_share: 0.5, strike_distance: 0.03, earnings_days: 2 };
    const friday = dueAlerts(position, facts, settings, 0.65, dayNumberOf("2026-11-27"));
    expect(friday.map((a) => a.event)).toContain("expiry_itm");
    expect(friday.find((a) => a.event === "expiry_itm")!.body).toContain("200 shares for $10,000.00");
    const thursday = dueAlerts(position, facts, settings, 0.65, dayNumberOf("2026-11-26"));
    expect(thursday.map((a) => a.event)).not.toContain("expiry_itm");
  });
});
