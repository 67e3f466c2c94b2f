import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { DailyBar, MarketData } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { expiryCloseOf, expiryOutcome, resolutionNotice } from "./expiry.ts";
import { resolveExpiries } from "./expiry-resolution.ts";

/**
 * Expiry resolves itself (ADR 0078), against a real store and the provider's journal: each
 * hand-worked case sells an option expiring Friday 2026-11-20 (close 16:00 New York, 21:00 UTC),
 * sets that day's close in the market's daily bars, and runs the resolution after the close.
 */

const EXPIRY = "2026-11-20";
const AFTER_CLOSE = new Date("2026-11-20T22:00:00Z");
const BEFORE_CLOSE = new Date("2026-11-20T20:30:00Z");
const simulated = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => AFTER_CLOSE });

/** The expiry day's close per ticker (the tests' own tickers); none means the vendor has no bar yet. */
const closes = new Map<string, number>();
const market: MarketData = {
  ...simulated,
  async dailyHistory(ticker, days) {
    const close = closes.get(ticker.toUpperCase());
    if (close === undefined) return simulated.dailyHistory(ticker, days);
    const bar: DailyBar = { time: EXPIRY, open: close, high: close, low: close, close, volume: 1000 };
    return [{ ...bar, time: "2026-11-19" }, bar];
  },
};

let provider: TestProvider;
let counter = 0;

async function trader() {
  const name = `expiry${++counter}`;
  await provider.call(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-wheel",
      first_name: "E",
      last_name: "T",
    },
    headers: { "x-forwarded-for": `198.51.100.${counter}` },
  });
  return provider.session(name, "Passw0rd-wheel");
}

type Trader = { token: string; id: number };

async function add({ token }: Trader, body: Record<string, unknown>) {
  const res = await provider.call(calls.addTrade, { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { id: number };
}

/** Sells `contracts` of an option expiring 2026-11-20 at $1.00 a share with $0.65 fees per contract. */
async function sell(token: Trader, ticker: string, type: "put" | "call", strike: number, contracts: number) {
  if (type === "call") {
    await add(token, {
      kind: "stock_buy",
      ticker,
      quantity: contracts * 100,
      price: 68,
      fees: 0,
      traded_at: "2026-11-02T15:00:00.000Z",
    });
  }
  return add(token, {
    kind: "sell_to_open",
    ticker,
    option_type: type,
    strike,
    expiry: EXPIRY,
    quantity: contracts,
    price: 1,
    fees: 0.65 * contracts,
    traded_at: "2026-11-02T16:00:00.000Z",
  });
}

const journalOf = async ({ token }: Trader) => {
  const res = await provider.call(calls.getJournal, { token });
  expect(res.status).toBe(200);
  return calls.getJournal.response.parse(res.body);
};
const noticesOf = async ({ token, id }: Trader) => {
  const res = await provider.call(calls.listNotifications, { token, params: { userId: id } });
  return (res.body as { notification: { title: string; body: string; type: string } }[]).map((n) => n.notification);
};
const resolve = (now = AFTER_CLOSE) => resolveExpiries(provider.context, { now });

beforeAll(async () => {
  provider = await testProvider({ market });
});
afterAll(() => provider.close());

describe("the outcome from the close (pure)", () => {
  const put = { optionType: "put" as const, strike: 65 };
  const call = { optionType: "call" as const, strike: 70 };

  it("a $65 put: 1% is $0.65, so $64.35–$65.65 asks to confirm, below is assigned, above expired", () => {
    expect(expiryOutcome(put, 65.66)).toBe("expire");
    expect(expiryOutcome(put, 65.65)).toBe("confirm");
    expect(expiryOutcome(put, 65)).toBe("confirm");
    expect(expiryOutcome(put, 64.35)).toBe("confirm");
    expect(expiryOutcome(put, 64.34)).toBe("assignment");
  });

  it("a $70 call: 1% is $0.70, so above $70.70 it is called away, below $69.30 it expired", () => {
    expect(expiryOutcome(call, 70.71)).toBe("exercise");
    expect(expiryOutcome(call, 70.7)).toBe("confirm");
    expect(expiryOutcome(call, 69.3)).toBe("confirm");
    expect(expiryOutcome(call, 69.29)).toBe("expire");
  });

  it("the expiry's close is 16:00 New York: 21:00 UTC in November, 20:00 in August", () => {
    expect(new Date(expiryCloseOf("2026-11-20")).toISOString()).toBe("2026-11-20T21:00:00.000Z");
    expect(new Date(expiryCloseOf("2026-08-21")).toISOString()).toBe("2026-08-21T20:00:00.000Z");
  });

  it("the texts say what happened and how to undo it", () => {
    const leg = {
      ticker: "KO",
      optionType: "put" as const,
      strike: 65,
      expiry: "2026-08-21",
      contracts: 2,
      premium: 198.7,
    };
    expect(resolutionNotice(leg, 67.1, "expire").body).toBe(
      "KO closed at $67.10 on 2026-08-21, above the $65.00 strike: the put expired and its $198.70 premium is kept. " +
        "Recorded in your journal automatically; undo it on Trades if your broker reports otherwise.",
    );
    expect(resolutionNotice(leg, 65.4, "confirm").title).toBe("KO 65 put expired: confirm whether it was assigned");
  });
});

describe("after the close of the expiry day", () => {
  it("records an out-of-the-money put as expired, marked automatic, and its premium as the P/L", async () => {
    const token = await trader();
    // 2 contracts at $1.00 less $1.30 fees: $198.70 kept. The close $67.10 is above 65 × 1.01 = $65.65.
    await sell(token, "EXPA", "put", 65, 2);
    closes.set("EXPA", 67.1);
    const resolved = (await resolve()).filter((r) => r.positionKey.startsWith("EXPA"));
    expect(resolved.map((r) => r.outcome)).toEqual(["expire"]);

    const journal = await journalOf(token);
    expect(journal.open_options).toEqual([]);
    const record = journal.rows.find((r) => r.kind === "expire")!;
    expect(record).toMatchObject({
      ticker: "EXPA",
      option_type: "put",
      strike: 65,
      expiry: EXPIRY,
      quantity: 2,
      price: 0,
      fees: 0,
      traded_at: "2026-11-20T21:00:00.000Z",
      recorded_automatically: true,
      realised_pnl: 198.7,
    });
    const notices = await noticesOf(token);
    expect(notices.map((n) => n.title)).toContain("EXPA 65 put expired worthless: recorded automatically");
  });

  it("records an in-the-money put as assigned: 200 shares at the $65 strike", async () => {
    const token = await trader();
    await sell(token, "EXPB", "put", 65, 2);
    closes.set("EXPB", 62); // $3.00 below the strike, past the 1% band
    expect((await resolve()).filter((r) => r.positionKey.startsWith("EXPB")).map((r) => r.outcome)).toEqual([
      "assignment",
    ]);
    const journal = await journalOf(token);
    expect(journal.open_options).toEqual([]);
    // Adjusted basis: 65 less the $198.70 kept over 200 shares ($0.9935) = $64.0065, $64.01.
    expect(journal.share_lots).toEqual([{ ticker: "EXPB", shares: 200, average_cost: 65, adjusted_cost_basis: 64.01 }]);
    expect(journal.rows.find((r) => r.kind === "assignment")!.recorded_automatically).toBe(true);
    expect((await noticesOf(token)).map((n) => n.body)).toContain(
      "EXPB closed at $62.00 on 2026-11-20, $3.00 below the $65.00 strike: the put was assigned, 200 shares bought at " +
        "$65.00 ($13,000.00). Recorded in your journal automatically; undo it on Trades if your broker reports otherwise.",
    );
  });

  it("records an in-the-money call as called away: the 100 shares go at the $70 strike", async () => {
    const token = await trader();
    // 100 shares bought at $68, a 70 call sold for $1.00 less $0.65: called away at $70,
    // P/L = 99.35 premium + 7,000 − 6,800 cost = $299.35.
    await sell(token, "EXPC", "call", 70, 1);
    closes.set("EXPC", 72);
    expect((await resolve()).filter((r) => r.positionKey.startsWith("EXPC")).map((r) => r.outcome)).toEqual([
      "exercise",
    ]);
    const journal = await journalOf(token);
    expect(journal.open_options).toEqual([]);
    expect(journal.share_lots).toEqual([]);
    const record = journal.rows.find((r) => r.kind === "exercise")!;
    expect(record.recorded_automatically).toBe(true);
    expect(record.realised_pnl).toBe(299.35);
    expect(journal.cycles[0]!.closed_at).toBe("2026-11-20T21:00:00.000Z");
  });

  it("asks the trader to confirm at pin risk, records nothing, and shows the leg awaiting resolution", async () => {
    const token = await trader();
    await sell(token, "EXPD", "put", 65, 1);
    closes.set("EXPD", 65.4); // $0.40 above the strike, inside $0.65
    expect((await resolve()).filter((r) => r.positionKey.startsWith("EXPD")).map((r) => r.outcome)).toEqual([
      "confirm",
    ]);
    const journal = await journalOf(token);
    expect(journal.rows.map((r) => r.kind)).toEqual(["sell_to_open"]);
    expect(journal.open_options).toHaveLength(1);
    expect(journal.open_options[0]).toMatchObject({ awaiting_resolution: true, collateral: 0, mark: null });
    // Collateral counts until the expiry close only: $6,500 from 11-02 16:00 to 11-20 21:00 UTC
    // (18.2083 days) is 118,354 collateral-days, however long the leg then waits.
    expect(journal.cycles[0]!.collateral_days).toBe(118_354);
    const notice = (await noticesOf(token)).find((n) => n.title.startsWith("EXPD"))!;
    expect(notice.title).toBe("EXPD 65 put expired: confirm whether it was assigned");
    expect(notice.body).toBe(
      "EXPD closed at $65.40 on 2026-11-20; within 1% of the $65.00 strike, whether it was assigned depends on " +
        "after-hours moves and the holder's choice. Nothing was recorded: on Trades, record it as expired or as " +
        "assigned, as your broker reports.",
    );
    expect(notice.type).toBe("alert");
    // Asked once: the next run sends nothing more.
    expect((await resolve()).filter((r) => r.positionKey.startsWith("EXPD"))).toEqual([]);
    expect((await noticesOf(token)).filter((n) => n.title.startsWith("EXPD"))).toHaveLength(1);
  });

  it("does nothing before the close, nor without the day's bar", async () => {
    const token = await trader();
    await sell(token, "EXPE", "put", 65, 1);
    closes.set("EXPE", 60);
    expect((await resolve(BEFORE_CLOSE)).filter((r) => r.positionKey.startsWith("EXPE"))).toEqual([]);
    await sell(token, "EXPF", "put", 65, 1);
    expect((await resolve()).filter((r) => /^EXP[EF]/.test(r.positionKey))).toEqual([
      expect.objectContaining({ positionKey: expect.stringMatching(/^EXPE/), outcome: "assignment" }),
    ]);
    expect((await journalOf(token)).open_options.map((o) => [o.ticker, o.awaiting_resolution])).toEqual([
      ["EXPF", true],
    ]);
  });

  it("is undone by deleting the record, and never recorded again", async () => {
    const token = await trader();
    await sell(token, "EXPG", "put", 65, 1);
    closes.set("EXPG", 70);
    const [resolved] = (await resolve()).filter((r) => r.positionKey.startsWith("EXPG"));
    expect(resolved!.tradeId).not.toBeNull();
    const undo = await provider.call(calls.deleteTrade, {
      token: token.token,
      params: { id: resolved!.tradeId! },
    });
    expect(undo.status).toBe(200);
    const journal = await journalOf(token);
    expect(journal.open_options.map((o) => [o.ticker, o.awaiting_resolution])).toEqual([["EXPG", true]]);
    expect((await resolve()).filter((r) => r.positionKey.startsWith("EXPG"))).toEqual([]);
    expect((await journalOf(token)).rows.map((r) => r.kind)).toEqual(["sell_to_open"]);
  });

  it("records once when runs race", async () => {
    const token = await trader();
    await sell(token, "EXPH", "put", 65, 1);
    closes.set("EXPH", 70);
    const runs = await Promise.all([resolve(), resolve(), resolve()]);
    expect(runs.flat().filter((r) => r.positionKey.startsWith("EXPH"))).toHaveLength(1);
    expect((await journalOf(token)).rows.filter((r) => r.kind === "expire")).toHaveLength(1);
    expect((await noticesOf(token)).filter((n) => n.title.startsWith("EXPH"))).toHaveLength(1);
  });
});
