import { describe, expect, test } from "vitest";
import type { TradierHistoryEvent } from "#provider/broker/tradier-brokerage.ts";
import { parseTradierHistory } from "./tradier.ts";

const put = { ticker: "KO", option_type: "put", strike: 65, expiry: "2026-09-18", quantity: 1 };

describe("Tradier's option events", () => {
  test("the code Tradier's documentation gives an expiration (OPTEXP) closes the option, whatever its words", async () => {
    const events: TradierHistoryEvent[] = [
      {
        amount: 0,
        date: "2026-09-21T00:00:00Z",
        type: "option",
        option: {
          option_type: "OPTEXP",
          description: "PUT  KO     09/18/26    65",
          quantity: -1,
          symbol: "KO260918P00065000",
        },
      },
    ];
    const [line] = await parseTradierHistory(events);
    expect(line).toMatchObject({ trade: { kind: "expire", ...put, price: 0, fees: 0 } });
    expect(line).not.toHaveProperty("refused");
  });

  test("an assignment without a symbol is read from the contract its description names, with its share leg", async () => {
    const events: TradierHistoryEvent[] = [
      {
        amount: -6500,
        date: "2026-09-21T00:00:00Z",
        type: "trade",
        trade: {
          commission: 0,
          description: "COCA COLA CO",
          price: 65,
          quantity: 100,
          symbol: "KO",
          trade_type: "Equity",
        },
      },
      {
        amount: 0,
        date: "2026-09-21T00:00:00Z",
        type: "option",
        option: { option_type: "OPTASGN", description: "PUT  KO     09/18/26    65 ASSIGNED", quantity: 1 },
      },
    ];
    const lines = await parseTradierHistory(events);
    const trades = lines.flatMap((l) => ("trade" in l ? [l.trade] : []));
    expect(trades).toEqual([expect.objectContaining({ kind: "assignment", ...put })]);
    expect(lines.filter((l) => "skipped" in l)).toHaveLength(1);
  });

  test("an option event naming no contract is refused with a reason, not guessed", async () => {
    const events: TradierHistoryEvent[] = [
      {
        amount: 0,
        date: "2026-09-21T00:00:00Z",
        type: "option",
        option: { option_type: "OPTEXP", description: "Expired", quantity: -1 },
      },
    ];
    const [line] = await parseTradierHistory(events);
    expect(line).toEqual({
      line: 1,
      text: expect.any(String),
      refused: "Tradier did not name the option (no symbol, no contract in its description); enter it by hand",
    });
  });
});
