import { describe, expect, it } from "vitest";
import type { BrokerPosition } from "#contract/broker-positions.ts";
import type { WheelTrade } from "#provider/journal/wheel.ts";
import { brokerBook, cashCover, journalBook, reconcile, sideBySide, totalsOf } from "./reconcile.ts";

const at = (date: string) => Date.parse(`${date}T12:00:00Z`);
let nextId = 1;
function trade(partial: Partial<WheelTrade> & Pick<WheelTrade, "kind" | "tradedAt">): WheelTrade {
  return {
    id: nextId++,
    ticker: "KO",
    optionType: null,
    strike: null,
    expiry: null,
    quantity: 1,
    price: 0,
    fees: 0,
    rolledFrom: null,
    ...partial,
  };
}
const put = (strike: number, expiry: string) => ({ optionType: "put" as const, strike, expiry });

function shares(ticker: string, quantity: number, cost_basis: number | null): BrokerPosition {
  return { ticker, kind: "shares", option_type: null, strike: null, expiry: null, quantity, cost_basis };
}
function option(
  ticker: string,
  option_type: "put" | "call",
  strike: number,
  expiry: string,
  quantity: number,
  cost_basis: number | null,
): BrokerPosition {
  return { ticker, kind: "option", option_type, strike, expiry, quantity, cost_basis };
}

const asOf = at("2026-03-31");
const differencesOf = (trades: WheelTrade[], positions: BrokerPosition[], when = asOf) =>
  reconcile(journalBook(trades, when), brokerBook(positions, when));

describe("positions only one book holds", () => {
  // The journal sold 1 KO 50 put (17 Apr) at 2.00 with a $1 fee: 1.99 a share kept.
  const soldPut = () => [
    trade({ kind: "sell_to_open", ...put(50, "2026-04-17"), price: 2, fees: 1, tradedAt: at("2026-03-02") }),
  ];

  it("shares the broker holds and the journal never bought: add them at the broker's cost", () => {
    const differences = differencesOf(soldPut(), [
      shares("KO", 100, 49.5),
      option("KO", "put", 50, "2026-04-17", -1, 1.99),
    ]);
    expect(differences).toEqual([
      expect.objectContaining({
        key: "KO|shares",
        issue: "missing",
        journal: null,
        broker: { quantity: 100, cost_basis: 49.5, awaiting_resolution: false },
        fix: { action: "add", trade_kind: "stock_buy", quantity: 100, price: 49.5 },
      }),
    ]);
  });

  it("a put the journal holds and the broker does not, before its expiry: buy it back at a price the trader gives", () => {
    expect(differencesOf(soldPut(), [])).toEqual([
      expect.objectContaining({
        key: "KO|put|50|2026-04-17",
        issue: "stale",
        journal: { quantity: -1, cost_basis: 1.99, awaiting_resolution: false },
        broker: null,
        fix: { action: "close", trade_kind: "buy_to_close", quantity: 1, price: null },
      }),
    ]);
  });

  it("a short call the broker holds without a cost: added once the trader gives the premium", () => {
    const [difference] = differencesOf([], [option("MSFT", "call", 420, "2026-04-17", -2, null)]);
    expect(difference!.fix).toEqual({ action: "add", trade_kind: "sell_to_open", quantity: 2, price: null });
  });

  it("a long option or short shares are told apart: a wheel journal cannot record them", () => {
    const differences = differencesOf([], [option("KO", "call", 60, "2026-04-17", 1, 0.5), shares("T", -10, 20)]);
    expect(differences.map((d) => [d.key, d.issue, d.fix])).toEqual([
      ["T|shares", "unsupported", null],
      ["KO|call|60|2026-04-17", "unsupported", null],
    ]);
  });
});

describe("past expiry (ADR 0078)", () => {
  // Sold 1 KO 50 put expiring Friday 27 Mar; the snapshot is of Tuesday 31 Mar.
  const expired = () => [
    trade({ kind: "sell_to_open", ...put(50, "2026-03-27"), price: 1, tradedAt: at("2026-03-02") }),
  ];

  it("both books still show it: no difference while the journal awaits its resolution", () => {
    expect(differencesOf(expired(), [option("KO", "put", 50, "2026-03-27", -1, 1)])).toEqual([]);
  });

  it("the broker has booked it and the journal not: recorded as expired, no price asked", () => {
    const [difference] = differencesOf(expired(), []);
    expect(difference).toMatchObject({
      issue: "stale",
      journal: { quantity: -1, awaiting_resolution: true },
      fix: { action: "expire", trade_kind: "expire", quantity: 1, price: 0 },
    });
  });

  it("only the broker still lists an expired option: its lag, not a missing trade", () => {
    expect(differencesOf([], [option("KO", "put", 50, "2026-03-27", -1, 1)])).toEqual([]);
  });
});

describe("both hold it", () => {
  it("the broker holds 150 shares at 51.00, the journal 100 at 50.00: add 50 at the 53.00 the difference cost", () => {
    // 150 × 51 − 100 × 50 = 2,650 for 50 shares: 53.00 a share.
    const bought = [trade({ kind: "stock_buy", quantity: 100, price: 50, tradedAt: at("2026-03-02") })];
    const [difference] = differencesOf(bought, [shares("KO", 150, 51)]);
    expect(difference).toMatchObject({
      issue: "quantity",
      fix: { action: "add", trade_kind: "stock_buy", quantity: 50, price: 53 },
    });
  });

  it("3 puts in the journal, 1 at the broker: buy back 2", () => {
    const sold = [
      trade({ kind: "sell_to_open", ...put(50, "2026-04-17"), quantity: 3, price: 1, tradedAt: at("2026-03-02") }),
    ];
    const [difference] = differencesOf(sold, [option("KO", "put", 50, "2026-04-17", -1, 1)]);
    expect(difference).toMatchObject({
      issue: "quantity",
      journal: { quantity: -3 },
      broker: { quantity: -1 },
      fix: { action: "close", trade_kind: "buy_to_close", quantity: 2, price: null },
    });
  });

  it("cost a share a cent apart is the same; more than a cent is a basis difference with both figures and no fix", () => {
    // 100 shares at 50.00 with a $1 fee: 50.01 a share paid.
    const bought = [trade({ kind: "stock_buy", quantity: 100, price: 50, fees: 1, tradedAt: at("2026-03-02") })];
    expect(differencesOf(bought, [shares("KO", 100, 50.02)])).toEqual([]);
    expect(differencesOf(bought, [shares("KO", 100, 50)])).toEqual([]);
    expect(differencesOf(bought, [shares("KO", 100, 49.5)])).toEqual([
      expect.objectContaining({
        issue: "basis",
        journal: { quantity: 100, cost_basis: 50.01, awaiting_resolution: false },
        broker: { quantity: 100, cost_basis: 49.5, awaiting_resolution: false },
        fix: null,
      }),
    ]);
  });

  it("a broker's lots of one position are one position, at their weighted cost", () => {
    const bought = [trade({ kind: "stock_buy", quantity: 100, price: 50, tradedAt: at("2026-03-02") })];
    expect(differencesOf(bought, [shares("KO", 60, 49), shares("KO", 40, 51.5)])).toEqual([]);
  });
});

it("a trade after the snapshot's moment is not compared: the broker could not have seen it", () => {
  const trades = [
    trade({ kind: "stock_buy", quantity: 100, price: 50, tradedAt: at("2026-03-02") }),
    trade({ kind: "stock_sell", quantity: 100, price: 55, tradedAt: at("2026-04-02") }),
  ];
  expect(differencesOf(trades, [shares("KO", 100, 50)])).toEqual([]);
});

it("the books' totals: shares at cost, short contracts, and the collateral the live puts commit", () => {
  const book = brokerBook(
    [
      shares("KO", 100, 49.5),
      option("KO", "call", 55, "2026-04-17", -1, 0.9),
      option("PEP", "put", 150, "2026-04-17", -2, 2.1),
      // Past expiry on 31 Mar: counted as held, no longer committing cash.
      option("T", "put", 20, "2026-03-27", -1, 0.3),
      option("KO", "call", 60, "2026-04-17", 1, 0.5),
    ],
    asOf,
  );
  expect(totalsOf(book)).toEqual({
    shares: 100,
    shares_cost: 4950,
    short_puts: 3,
    short_calls: 1,
    put_collateral: 30_000,
  });
  expect(totalsOf(brokerBook([shares("KO", 100, null)], asOf)).shares_cost).toBeNull();
  expect(sideBySide([], book).map((p) => p.key)).toEqual([
    "KO|shares",
    "PEP|put|150|2026-04-17",
    "T|put|20|2026-03-27",
    "KO|call|55|2026-04-17",
    "KO|call|60|2026-04-17",
  ]);
});

describe("cashCover", () => {
  it("two KO 62.5 puts commit $12,500: $13,250.40 covers them, $10,000.10 is $2,499.90 short, unknown cash is unknown", () => {
    expect(cashCover(12_500, 13_250.4)).toEqual({ committed: 12_500, broker: 13_250.4, short: 0 });
    expect(cashCover(12_500, 10_000.1)).toEqual({ committed: 12_500, broker: 10_000.1, short: 2_499.9 });
    expect(cashCover(12_500, null)).toEqual({ committed: 12_500, broker: null, short: null });
  });
});
