import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { scoreCall } from "./call-outcome.ts";
import { runTrackRecord } from "./job.ts";
import { lastClosedSession, settlingBar } from "./store.ts";

/**
 * The covered calls the screen suggests enter the track record (docs/decisions/0088): copied once
 * per trader, option and day when the screen is computed, then scored from the expiry close against
 * the adjusted basis shown, and totalled on GET /api/track-record beside the puts.
 */
const SEED = 11;
// The screen reads the market at the real clock (the journal replays against it); the scorer reads
// the same simulated market 150 days on, when every call shown (7 to 90 days) has expired.
const LATER = new Date(Date.now() + 150 * 86_400_000);
const marketAt = (now: () => Date) => createSimulatedMarket({ seed: SEED, tickers: DEMO_TICKERS, now });

let provider: TestProvider;
let token: string;
beforeAll(async () => {
  provider = await testProvider({ market: marketAt(() => new Date()) });
  await provider.call(calls.register, {
    body: {
      email: "scored@example.test",
      username: "scored",
      password: "Passw0rd-call",
      first_name: "S",
      last_name: "C",
    },
    headers: { "x-forwarded-for": "198.51.100.201" },
  });
  token = await provider.login("scored", "Passw0rd-call");
  // 200 KO bought at $66.00 with $0.65 fees: an adjusted basis of 13,200.65 ÷ 200 = $66.00325.
  const res = await provider.call(calls.addTrade, {
    token,
    body: {
      kind: "stock_buy",
      ticker: "KO",
      quantity: 200,
      price: 66,
      fees: 0.65,
      traded_at: new Date(Date.now() - 600_000).toISOString(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
});
afterAll(() => provider.close());

const WIDE = { delta_min: "0.05", delta_max: "0.6", min_open_interest: "0", dte_max: "90", min_bid: "0.05" };
const rows = () => provider.context.db.selectFrom("track_record_calls").selectAll().orderBy("id").execute();

describe("the track record of suggested covered calls", () => {
  let shown: { occ_symbol: string; strike: number; bid: number; expiry: string; chance_called: number | null }[] = [];

  it("copies each call the screen lists once per trader and day, however often the screen is asked", async () => {
    const first = await provider.call(calls.coveredCalls, { token, query: WIDE });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const ko = calls.coveredCalls.response.parse(first.body).holdings[0]!;
    shown = ko.calls;
    expect(shown.length).toBeGreaterThan(0);
    await provider.call(calls.coveredCalls, { token, query: WIDE });

    const stored = await rows();
    expect(stored.map((r) => r.option_symbol).sort()).toEqual(shown.map((c) => c.occ_symbol).sort());
    const call = shown[0]!;
    expect(stored.find((r) => r.option_symbol === call.occ_symbol)).toMatchObject({
      ticker: "KO",
      strike: call.strike,
      premium: call.bid,
      adjusted_basis: ko.adjusted_basis,
      chance_called: call.chance_called,
      simulated: true,
      outcome: null,
    });
  });

  it("scores each from its expiry close: called away above the strike, kept at or below it", async () => {
    const market = marketAt(() => LATER);
    const run = await runTrackRecord({ db: provider.context.db, market }, { now: () => LATER });
    expect(run.calls).toEqual({ scored: shown.length, waiting: 0 });

    const closed = lastClosedSession(LATER);
    const bars = (await market.dailyHistory("KO", 200)).filter((b) => b.time <= closed);
    const stored = await rows();
    for (const row of stored) {
      const bar = settlingBar(bars, row.expiration)!;
      const expected = scoreCall({ strike: row.strike, premium: row.premium, adjustedBasis: 66, close: bar.close });
      expect(row).toMatchObject({ close_at_expiry: bar.close, outcome: expected.outcome });
      expect(row.pnl_per_share).toBe(expected.pnlPerShare);
    }
    // A second run finds nothing left to score.
    expect((await runTrackRecord({ db: provider.context.db, market }, { now: () => LATER })).calls.scored).toBe(0);
  });

  it("totals them on the public track record, next to the puts", async () => {
    const res = await provider.call(calls.trackRecord);
    expect(res.status).toBe(200);
    const record = calls.trackRecord.response.parse(res.body);
    const stored = await rows();
    const calledAway = stored.filter((r) => r.outcome === "called_away").length;
    expect(record.calls).toMatchObject({
      count: stored.length,
      called_away: calledAway,
      kept: stored.length - calledAway,
      pending: 0,
      simulated: true,
    });
    const pnl = stored.reduce((sum, r) => sum + r.pnl_per_share! * 100, 0);
    expect(record.calls.pnl_per_contract).toBeCloseTo(pnl, 2);
    const realised = stored.reduce((sum, r) => sum + r.pnl_per_share! / r.adjusted_basis, 0) / stored.length;
    expect(record.calls.mean_realised_return).toBeCloseTo(realised, 10);
  });
});
