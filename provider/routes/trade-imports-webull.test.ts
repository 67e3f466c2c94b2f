import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import type { DailyBar, MarketData } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

/**
 * Webull's orders file (issue 43; docs/decisions/0095-webull-orders-and-expiries-from-the-close.md): the
 * KO wheel as Webull's order history writes it, newest first — a put sold, rolled in one minute, a
 * covered call sold, another sold — with none of the expiries or assignments, which are not orders.
 * The import reads each from the market's close of its expiry day: the July 65 put assigned at a
 * close of $63.80, the August 66 call expired at $65.20, the September 67 call called away at $68.10.
 *
 * Webull writes fill times in US Eastern with the zone after them (EDT = UTC−4) and no fees (0).
 * Collateral 13,000 (the puts, then the shares' cost) from 2026-05-04 14:31:05Z to the call-away at
 * 2026-09-18 20:00Z = 137.2284 days, less the roll's 31 s between its buy-back (15:02:10Z) and its new
 * sale (15:02:41Z) = 137.2281 days → 1,783,964.72 collateral-days.
 */
const NOW = new Date("2026-10-01T15:00:00Z");
const simulated = createSimulatedMarket({ seed: 5, tickers: DEMO_TICKERS, now: () => NOW });
/** KO's closes on the expiry days; a test may change one. */
const closes = new Map<string, number>();
const resetCloses = () => {
  closes.clear();
  closes.set("2026-07-17", 63.8);
  closes.set("2026-08-21", 65.2);
  closes.set("2026-09-18", 68.1);
};
/** KO's daily bars asked for, and how many days back. */
const requests: number[] = [];
const market: MarketData = {
  ...simulated,
  async dailyHistory(ticker, days) {
    if (ticker.toUpperCase() !== "KO") return simulated.dailyHistory(ticker, days);
    requests.push(days);
    return [...closes].map(([time, close]): DailyBar => ({
      time,
      open: close,
      high: close,
      low: close,
      close,
      volume: 1000,
    }));
  },
};

let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ market });
});
afterAll(() => provider.close());

let counter = 0;
async function trader() {
  resetCloses();
  const name = `webull${++counter}`;
  await provider.call(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-wheel",
      first_name: "W",
      last_name: "B",
    },
    headers: { "x-forwarded-for": `198.51.100.${counter}` },
  });
  return provider.login(name, "Passw0rd-wheel");
}
const fixture = (name: string) => readFileSync(new URL(`../journal/brokers/fixtures/${name}`, import.meta.url), "utf8");
const csv = fixture("webull-orders.csv");
const journalOf = async (token: string) =>
  calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);
const preview = async (token: string, file = csv) =>
  calls.previewImport.response.parse(
    (await provider.call(calls.previewImport, { token, body: { broker: "webull", csv: file } })).body,
  );

/** The file's four lines that are not the wheel's, and why each is refused. */
const REFUSED = [
  {
    line: 3,
    reason:
      "VOO shares: the file has no options on VOO, so they are not part of a wheel (add them on Trades if they are)",
  },
  { line: 5, reason: 'Symbol "KO260717P65" is not an option like KO260612P00065000' },
  { line: 6, reason: 'Status "Cancelled": the order did not trade' },
  {
    line: 7,
    reason:
      'Status "Partially Filled": 1 of 2 filled; import it once the order shows Filled, or enter the filled part on Trades',
  },
];

describe("Webull orders files (issue 43)", () => {
  it("the preview shows the assignment and the expiries recorded from the close, in time order", async () => {
    const token = await trader();
    requests.length = 0;
    const res = await preview(token);
    // One request for KO's three expiry days: 2026-10-01 is 54 weekdays after 2026-07-17, + that day + one to spare.
    expect(requests).toEqual([56]);
    expect(res.refused).toEqual(REFUSED);
    expect(res.skipped).toBe(0);
    expect(res.added.map((t) => [t.line, t.kind, t.option_type, t.strike, t.price, t.fees, t.traded_at])).toEqual([
      [10, "sell_to_open", "put", 65, 1.2, 0, "2026-05-04T14:31:05.000Z"],
      [9, "buy_to_close", "put", 65, 1.45, 0, "2026-05-26T15:02:10.000Z"],
      [8, "sell_to_open", "put", 65, 2.1, 0, "2026-05-26T15:02:41.000Z"],
      [0, "assignment", "put", 65, 0, 0, "2026-07-17T20:00:00.000Z"],
      [4, "sell_to_open", "call", 66, 0.95, 0, "2026-07-20T13:45:30.000Z"],
      [0, "expire", "call", 66, 0, 0, "2026-08-21T20:00:00.000Z"],
      [2, "sell_to_open", "call", 67, 0.8, 0, "2026-08-24T14:05:12.000Z"],
      [0, "exercise", "call", 67, 0, 0, "2026-09-18T20:00:00.000Z"],
    ]);
    expect(res.added[3]!.notes).toBe(
      "Recorded from the close of $63.80 on 2026-07-17: the Webull file has no expiries or assignments",
    );
    // A preview changes nothing.
    expect((await provider.call(calls.listTrades, { token })).body).toEqual([]);
  });

  it("the KO wheel imports to its hand-checked cycle, the roll kept whole; re-importing adds nothing", async () => {
    const token = await trader();
    const res = calls.importTrades.response.parse(
      (await provider.call(calls.importTrades, { token, body: { broker: "webull", csv } })).body,
    );
    expect(res.added).toHaveLength(8);

    const journal = await journalOf(token);
    expect(journal.cycles).toHaveLength(1);
    // Premiums 2 × 100 × (1.20 − 1.45 + 2.10 + 0.95 + 0.80) = 720; shares 200 × (67 − 65) = 400; no fees
    // in the file: 1,120. 1,120 ÷ 13,000 = 8.62 %; 1,120 ÷ 1,783,964.72 × 365 = 22.92 %.
    expect(journal.cycles[0]).toMatchObject({
      opened_at: "2026-05-04T14:31:05.000Z",
      closed_at: "2026-09-18T20:00:00.000Z",
      realised_pnl: 1120,
      capital: 13000,
      collateral_days: 1783965,
      return_on_capital: 0.0862,
      annualised_return: 0.2292,
    });
    // (13,000 − (240 − 290 + 420)) ÷ 200 = 63.15; − 190 ÷ 200 = 62.20; − 160 ÷ 200 = 61.40.
    expect(journal.cycles[0]!.steps.map((s) => [s.kind, s.adjusted_cost_basis])).toEqual([
      ["sell_to_open", null],
      ["buy_to_close", null],
      ["sell_to_open", null],
      ["assignment", 63.15],
      ["sell_to_open", 62.2],
      ["expire", 62.2],
      ["sell_to_open", 61.4],
      ["exercise", null],
    ]);
    const btc = journal.rows.find((r) => r.kind === "buy_to_close")!;
    expect(journal.rows.find((r) => r.expiry === "2026-07-17" && r.kind === "sell_to_open")!.rolled_from).toBe(btc.id);
    expect(journal.rows.every((r) => r.source === "webull")).toBe(true);

    const again = calls.importTrades.response.parse(
      (await provider.call(calls.importTrades, { token, body: { broker: "webull", csv } })).body,
    );
    expect(again.added).toEqual([]);
    expect(again.duplicates).toHaveLength(8);
    expect((await journalOf(token)).rows).toHaveLength(8);
  });

  it("a close within 1 % of the strike is not guessed: the line says how to go on, the call waits", async () => {
    const token = await trader();
    closes.set("2026-07-17", 64.8);
    const res = await preview(token);
    expect(res.refused).toContainEqual({
      line: 8,
      reason:
        "The KO 65 put of 2026-07-17 was still open at its expiry and the Webull file does not say how it ended: KO closed at $64.80, within 1 % of the strike, so it may have gone either way. Record its expiry or assignment on Trades (or confirm it when the journal asks), then import the file again",
    });
    expect(res.added.map((t) => t.kind)).not.toContain("assignment");
  });

  it("another broker's file is refused whole with the columns it lacks; nothing is added", async () => {
    const token = await trader();
    const other = await provider.call(calls.importTrades, {
      token,
      body: { broker: "webull", csv: fixture("ibkr-ko-wheel.csv") },
    });
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/^This is not a Webull orders file: the columns .*Avg Price.* are missing$/);
    expect((await provider.call(calls.listTrades, { token })).body).toEqual([]);
  });
});

describe("a Webull file over an expiry the journal has already recorded", () => {
  it("does not record it twice: that line is already in, and the calls after it import", async () => {
    const token = await trader();
    // The May lines, while the market has no close for 2026-07-17: the July put's end is asked for.
    const may = csv
      .split("\n")
      .filter((l, i) => i === 0 || l.includes("05/"))
      .join("\n");
    closes.delete("2026-07-17");
    const first = calls.importTrades.response.parse(
      (await provider.call(calls.importTrades, { token, body: { broker: "webull", csv: may } })).body,
    );
    expect(first.added.map((t) => t.kind)).toEqual(["sell_to_open", "buy_to_close", "sell_to_open"]);
    expect(first.refused).toEqual([
      {
        line: 2,
        reason:
          "The KO 65 put of 2026-07-17 was still open at its expiry and the Webull file does not say how it ended: the market has no close of KO for that day. Record its expiry or assignment on Trades (or confirm it when the journal asks), then import the file again",
      },
    ]);
    resetCloses();
    // The trader records the July assignment on Trades, as the refusal says.
    const added = await provider.call(calls.addTrade, {
      token,
      body: {
        kind: "assignment",
        ticker: "KO",
        option_type: "put",
        strike: 65,
        expiry: "2026-07-17",
        quantity: 2,
        price: 0,
        fees: 0,
        traded_at: "2026-07-17T20:00:00.000Z",
      },
    });
    expect(added.status).toBe(200);

    const res = calls.importTrades.response.parse(
      (await provider.call(calls.importTrades, { token, body: { broker: "webull", csv } })).body,
    );
    expect(res.refused).toEqual(REFUSED);
    expect(res.duplicates).toContainEqual({
      line: 0,
      reason: "Already in the journal: how this option ended is recorded",
    });
    expect(res.added.map((t) => [t.line, t.kind])).toEqual([
      [4, "sell_to_open"],
      [0, "expire"],
      [2, "sell_to_open"],
      [0, "exercise"],
    ]);
    expect((await journalOf(token)).cycles.map((c) => c.realised_pnl)).toEqual([1120]);
  });
});

describe("a Webull file that starts after the assignment", () => {
  it("asks for the shares the call-away delivers, then the cycle adds up", async () => {
    const token = await trader();
    const callsOnly = csv
      .split("\n")
      .filter((l, i) => i === 0 || /C0006[67]000/.test(l))
      .join("\n");
    const res = await preview(token, callsOnly);
    // The call-away read from the close delivers 200 shares the file never bought.
    expect(res.openings).toEqual([
      {
        key: "KO|shares",
        kind: "stock_buy",
        ticker: "KO",
        option_type: null,
        strike: null,
        expiry: null,
        quantity: 200,
        traded_at: "2026-07-20T13:45:29.000Z",
        price: null,
      },
    ]);
    const body = { broker: "webull", csv: callsOnly, openings: { "KO|shares": 65 } };
    const imported = calls.importTrades.response.parse((await provider.call(calls.importTrades, { token, body })).body);
    expect(imported.refused).toEqual([]);
    // Calls 2 × 100 × (0.95 + 0.80) = 350; shares 200 × (67 − 65) = 400: 750.
    expect((await journalOf(token)).cycles.map((c) => c.realised_pnl)).toEqual([750]);
  });
});
