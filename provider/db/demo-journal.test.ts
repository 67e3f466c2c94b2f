import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { seedDemoJournal } from "./demo-journal.ts";

/** The demo trader's journal (ADR 0079): every screen it feeds has something on a fresh demo. */
let provider: TestProvider;
let token: string;

beforeAll(async () => {
  provider = await testProvider();
  await seedDemoJournal(provider.context.db, provider.context.market);
  token = await provider.login("demo", "demo1234");
});
afterAll(() => provider.close());

describe("the demo journal", () => {
  it("holds open puts, KO shares from an assignment with a call open, and a closed JPM cycle", async () => {
    const res = await provider.call(calls.getJournal, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const journal = calls.getJournal.response.parse(res.body);
    const open = journal.open_options.map((o) => `${o.ticker} ${o.option_type}`).sort();
    expect(open).toEqual(["AAPL put", "KO call", "MSFT put"]);
    // Two 65 puts at 1.20 and two 67 calls at 0.45, each less $1.30 of fees, then the open call's premium:
    // (13,000 − 238.70 − 88.70 − that premium) ÷ 200.
    const call = journal.open_options.find((o) => o.ticker === "KO")!;
    expect(journal.share_lots).toEqual([
      {
        ticker: "KO",
        shares: 200,
        average_cost: 65,
        adjusted_cost_basis: expect.closeTo((12_672.6 - call.premium_kept) / 200, 2),
      },
    ]);
    const jpm = journal.cycles.find((c) => c.ticker === "JPM")!;
    // 209.35 put + 179.35 call + (215 − 210) × 100 shares = 888.70, realised.
    expect(jpm).toMatchObject({ closed_at: expect.any(String), realised_pnl: 888.7 });
    const ko = journal.cycles.find((c) => c.ticker === "KO")!;
    expect(ko.closed_at).toBeNull();
  });

  it("gives the covered-call screen a holding with a call left to sell", async () => {
    const res = await provider.call(calls.coveredCalls, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { holdings } = calls.coveredCalls.response.parse(res.body);
    expect(holdings).toMatchObject([{ ticker: "KO", shares: 200, open_call_contracts: 1, contracts_available: 1 }]);
  });

  it("gives Reconcile a broker book whose cash is $2,500 short of the journal's puts' collateral", async () => {
    const res = await provider.call(calls.reconciliation, { token, query: {} });
    const book = calls.reconciliation.response.parse(res.body);
    expect(book.cash.committed).toBeGreaterThan(2500);
    expect(book.cash.short).toBe(2500);
    expect(book.cash.broker).toBe(book.cash.committed - 2500);
  });
});
