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
import {
  dueAlerts,
  raisePositionAlerts,
  strikeInterest,
  tradingDaysUntil,
  type ShortPosition,
} from "./position-alerts.ts";

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
  /** The option the chain lists (a put unless said). */
  type?: "put" | "call";
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
              symbol: `${ticker}OPT`,
              type: f.type ?? "put",
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
  async riskFreeRate() {
    return 0.045;
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

/**
 * Records a short option: 1 contract sold for $2.50 with $0.65 fees, so $249.35 is the most it can
 * make; a call is sold against 100 shares bought the day before.
 */
async function sellOption(ticker: string, strike: number, expiry: string, type: "put" | "call" = "put") {
  if (type === "call") {
    const shares = await call(provider, calls.addTrade, {
      kind: "stock_buy",
      ticker,
      quantity: 100,
      price: strike,
      fees: 0,
      traded_at: "2026-11-09T15:00:00.000Z",
    });
    expect(shares.status, JSON.stringify(shares.body)).toBe(200);
  }
  const res = await call(provider, calls.addTrade, {
    kind: "sell_to_open",
    ticker,
    option_type: type,
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
  type?: "put" | "call";
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
    // A put $20 in the money, to 2026-12-18 16:00 New York (30 days 4 hours: T = 0.082648 years) at
    // 4.5%: the strike earns 100 × (e^(0.045 × 0.082648) − 1) = $0.3726. Mid 20.40 leaves $0.40 of
    // time value, above it; mid 20.30 leaves $0.30, below it.
    event: "early_exercise",
    ticker: "ALEE",
    expiry: "2026-12-18",
    below: { spot: 80, bid: 20.3, ask: 20.5, earnings: null, exDividend: null },
    at: { spot: 80, bid: 20.2, ask: 20.4, earnings: null, exDividend: null },
    text: "ALEE is at $80.00, $20.00 below the strike: your put's time value of $0.30 (mid $20.30 less $20.00 intrinsic) is below the $0.37 a share the $100.00 strike earns by 2026-12-18 at 4.5% a year, so the holder gains by exercising early.",
  },
  {
    // A call $10 in the money, ex-dividend Thursday 11-19 (today is the last day before it): mid 10.50
    // leaves $0.50 of time value, not below the $0.50 dividend; mid 10.40 leaves $0.40.
    event: "ex_dividend",
    type: "call",
    ticker: "ALDV",
    expiry: "2026-12-18",
    below: { spot: 110, bid: 10.4, ask: 10.6, earnings: null, exDividend: { date: "2026-11-19", amount: 0.5 } },
    at: { spot: 110, bid: 10.3, ask: 10.5, earnings: null, exDividend: { date: "2026-11-19", amount: 0.5 } },
    text: "ALDV goes ex-dividend on 2026-11-19 ($0.50 a share) and your call is in the money: its time value of $0.40 (mid $10.40 less $10.00 intrinsic) is below the dividend, so the holder may exercise before the ex-date and call your 100 shares away at $100.00.",
  },
  {
    // The call's profit target, as the put's: at the ask $1.24 it keeps $124.70 of $249.35, 50.01%.
    event: "profit_target",
    type: "call",
    ticker: "CLPT",
    expiry: "2026-12-18",
    below: { spot: 90, bid: 1.2, ask: 1.25, earnings: null, exDividend: null },
    at: { spot: 90, bid: 1.2, ask: 1.24, earnings: null, exDividend: null },
    text: "Buy to close for $1.24 a share (the ask; $124.00 for 1 contract) keeps $124.70 of the $249.35 premium, net of your $0.65 commission per contract.",
  },
  {
    // A call is tested from below: 3% under the $100 strike is $97.
    event: "near_strike",
    type: "call",
    ticker: "CLNS",
    expiry: "2026-12-18",
    below: { spot: 96.99, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    at: { spot: 97, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    text: "CLNS is at $97.00, 3% below the $100.00 strike of your call expiring 2026-12-18.",
  },
  {
    event: "through_strike",
    type: "call",
    ticker: "CLTS",
    expiry: "2026-12-18",
    below: { spot: 100, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    at: { spot: 100.01, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    text: "CLTS is at $100.01, $0.01 above the $100.00 strike of your call expiring 2026-12-18: the call is in the money.",
  },
  {
    event: "earnings",
    type: "call",
    ticker: "CLER",
    expiry: "2026-12-18",
    below: { spot: 80, bid: 3, ask: 3.1, earnings: "2026-11-23", exDividend: null },
    at: { spot: 80, bid: 3, ask: 3.1, earnings: "2026-11-20", exDividend: null },
    text: "CLER reports earnings on 2026-11-20 (in 2 trading days), before your call expires on 2026-12-18.",
  },
  {
    event: "expiry_itm",
    type: "call",
    ticker: "CLEX",
    expiry: "2026-11-19",
    below: { spot: 100, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    at: { spot: 100.01, bid: 3, ask: 3.1, earnings: null, exDividend: null },
    text: "Your call expires on 2026-11-19 with CLEX at $100.01, $0.01 above the strike: your shares are likely to be called away (100 shares at $100.00 for $10,000.00).",
  },
];

describe.each(CASES.map((c) => ({ type: "put" as const, ...c })))(
  "the $event alert on a $type",
  ({ event, type, ticker, expiry, below, at, text }) => {
    it("is not sent short of its threshold", async () => {
      figures.set(ticker, { ...below, type, strike: 100, expiry });
      await sellOption(ticker, 100, expiry, type);
      const raised = await raise();
      expect(eventsFor(raised, ticker)).not.toContain(event);
    });

    it("is sent once at its threshold: a notification in the panel and a push", async () => {
      figures.set(ticker, { ...at, type, strike: 100, expiry });
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
  },
);

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
    await sellOption("RACE", 100, "2026-12-18");
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
    await sellOption("WIDE", 100, "2026-12-18");
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
    const position: ShortPosition = {
      userId: 1,
      key: "X#1",
      ticker: "X",
      optionType: "put",
      strike: 50,
      expiry: "2026-11-30",
      contracts: 2,
      premium: 100,
    };
    const facts = { spot: 49, option: null, earnings: null, exDividend: null, rate: 0.045, yearsToExpiry: 0.01 };
    const settings = { profit_share: 0.5, strike_distance: 0.03, earnings_days: 2 };
    const friday = dueAlerts(position, facts, settings, 0.65, dayNumberOf("2026-11-27"));
    expect(friday.map((a) => a.event)).toContain("expiry_itm");
    expect(friday.find((a) => a.event === "expiry_itm")!.body).toContain("200 shares for $10,000.00");
    const thursday = dueAlerts(position, facts, settings, 0.65, dayNumberOf("2026-11-26"));
    expect(thursday.map((a) => a.event)).not.toContain("expiry_itm");
  });
});

/**
 * Early assignment by the option's type (ADR 0077), on both sides of each threshold: a short call
 * on the trading day before an ex-dividend date when its time value is below the dividend; a short
 * put when its time value is below the interest on the strike to expiry. A dividend never raises
 * the put's alert.
 */
describe("early assignment, by the option's type", () => {
  const settings = { profit_share: 0.99, strike_distance: 0, earnings_days: 0 };
  const quote = (mid: number) => ({ bid: mid - 0.05, ask: mid + 0.05 });
  const events = (position: ShortPosition, facts: Parameters<typeof dueAlerts>[1], today: string) =>
    dueAlerts(position, facts, settings, 0.65, dayNumberOf(today)).map((a) => a.event);

  describe("a short put: time value below strike × (e^(rT) − 1)", () => {
    // $100 strike, 4% a year, a quarter of a year: 100 × (e^0.01 − 1) = 100 × 0.010050 = $1.0050 a share.
    const put: ShortPosition = {
      userId: 1,
      key: "P#1",
      ticker: "PUTX",
      optionType: "put",
      strike: 100,
      expiry: "2027-02-19",
      contracts: 1,
      premium: 500,
    };
    const facts = (mid: number, exDividend: { date: string; amount: number } | null = null) => ({
      spot: 80,
      option: quote(mid),
      earnings: null,
      exDividend,
      rate: 0.04,
      yearsToExpiry: 0.25,
    });

    it("works the interest out by hand: $100 at 4% for 0.25 years is $1.0050", () => {
      expect(strikeInterest(100, 0.04, 0.25)).toBeCloseTo(1.00502, 5);
    });

    it("alerts with $1.00 of time value (mid 21.00 less 20.00 intrinsic), just below $1.0050", () => {
      const due = dueAlerts(put, facts(21), settings, 0.65, dayNumberOf("2026-11-18"));
      expect(due.map((a) => a.event)).toContain("early_exercise");
      expect(due.find((a) => a.event === "early_exercise")!.body).toBe(
        "PUTX is at $80.00, $20.00 below the strike: your put's time value of $1.00 (mid $21.00 less $20.00 intrinsic) " +
          "is below the $1.01 a share the $100.00 strike earns by 2027-02-19 at 4% a year, so the holder gains by exercising early.",
      );
    });

    it("does not alert with $1.01 of time value, just above it", () => {
      expect(events(put, facts(21.01), "2026-11-18")).not.toContain("early_exercise");
    });

    it("does not alert out of the money, however little time value is left", () => {
      expect(events(put, { ...facts(0.01), spot: 101 }, "2026-11-18")).not.toContain("early_exercise");
    });

    it("gets no dividend alert: a short AAPL 260 put with a dividend ahead and time value below it", () => {
      // $0.52 of time value under a $1.17 dividend: the old rule fired here. At 0.5% for 0.1 years the
      // strike earns 260 × (e^0.0005 − 1) = $0.13, below $0.52: no early-exercise alert either.
      const aapl = { ...put, ticker: "AAPL", strike: 260, expiry: "2027-02-19" };
      const due = events(
        aapl,
        {
          spot: 250,
          option: quote(10.52),
          earnings: null,
          exDividend: { date: "2026-11-19", amount: 1.17 },
          rate: 0.005,
          yearsToExpiry: 0.1,
        },
        "2026-11-18",
      );
      expect(due).not.toContain("ex_dividend");
      expect(due).not.toContain("early_exercise");
    });
  });

  describe("a short call: in the money, time value below the dividend, the day before the ex-date", () => {
    const callPosition: ShortPosition = {
      userId: 1,
      key: "C#1",
      ticker: "CALX",
      optionType: "call",
      strike: 100,
      expiry: "2026-12-18",
      contracts: 2,
      premium: 500,
    };
    // Ex-dividend Thursday 2026-11-19 with $0.50 a share; the stock at $110, $10 in the money.
    const facts = (mid: number, spot = 110, date = "2026-11-19") => ({
      spot,
      option: quote(mid),
      earnings: null,
      exDividend: { date, amount: 0.5 },
      rate: 0.04,
      yearsToExpiry: 0.08,
    });

    it("alerts on Wednesday with $0.49 of time value (mid 10.49 less 10.00), below the $0.50 dividend", () => {
      const due = dueAlerts(callPosition, facts(10.49), settings, 0.65, dayNumberOf("2026-11-18"));
      const alert = due.find((a) => a.event === "ex_dividend")!;
      expect(alert.title).toBe("CALX goes ex-dividend on 2026-11-19: your CALX 100 call may be assigned early");
      expect(alert.body).toBe(
        "CALX goes ex-dividend on 2026-11-19 ($0.50 a share) and your call is in the money: its time value of $0.49 " +
          "(mid $10.49 less $10.00 intrinsic) is below the dividend, so the holder may exercise before the ex-date " +
          "and call your 200 shares away at $100.00.",
      );
      expect(due.map((a) => a.event)).not.toContain("early_exercise");
    });

    it("does not alert with $0.51 of time value, above the dividend", () => {
      expect(events(callPosition, facts(10.51), "2026-11-18")).not.toContain("ex_dividend");
    });

    it("does not alert out of the money", () => {
      expect(events(callPosition, facts(0.2, 99), "2026-11-18")).not.toContain("ex_dividend");
    });

    it("alerts the day before the ex-date only: not two days before, not on the ex-date", () => {
      expect(events(callPosition, facts(10.4), "2026-11-17")).not.toContain("ex_dividend");
      expect(events(callPosition, facts(10.4), "2026-11-19")).not.toContain("ex_dividend");
    });

    it("counts the day before in trading days: Friday before Thanksgiving week's Monday ex-date", () => {
      // Ex-date Monday 2026-11-30: the last trading day before it is Friday 11-27 (Thursday is Thanksgiving).
      expect(events(callPosition, facts(10.4, 110, "2026-11-30"), "2026-11-27")).toContain("ex_dividend");
      expect(events(callPosition, facts(10.4, 110, "2026-11-30"), "2026-11-25")).not.toContain("ex_dividend");
    });

    it("does not alert for an ex-date after the call expires", () => {
      const short = { ...callPosition, expiry: "2026-11-18" };
      expect(events(short, facts(10.4, 110, "2026-11-19"), "2026-11-18")).not.toContain("ex_dividend");
    });

    it("never raises the put's interest rule, however low the time value", () => {
      expect(events(callPosition, { ...facts(10), exDividend: null }, "2026-11-18")).not.toContain("early_exercise");
    });
  });
});
