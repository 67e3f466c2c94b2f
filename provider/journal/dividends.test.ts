import { describe, expect, it } from "vitest";
import { periodStats, replay, type WheelTrade } from "./wheel.ts";

/** Dividends and cash in lieu in the wheel (issue 43; docs/decisions/0074-broker-imports-keep-the-wheel-whole.md). */
const at = (date: string) => Date.parse(`${date}T12:00:00Z`);
const NOW = at("2026-06-01");
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
const call = (strike: number, expiry: string) => ({ optionType: "call" as const, strike, expiry });

describe("dividends in the wheel", () => {
  it("a dividend on held shares is the cycle's cash: realised, and it lowers the adjusted basis", () => {
    // 100 KO bought at 50 with a 1.00 fee: cost 5,001.00. A 0.51 dividend: +51.00.
    // Realised 51.00; adjusted basis (5,001 − 51) ÷ 100 = 49.50. Not a closing trade: no win rate.
    const trades = [
      trade({ kind: "stock_buy", quantity: 100, price: 50, fees: 1, tradedAt: at("2026-01-05") }),
      trade({ kind: "dividend", quantity: 100, price: 0.51, tradedAt: at("2026-03-15") }),
    ];
    const result = replay(trades, NOW);
    if (!result.ok) throw new Error(result.refusal.reason);
    const [cycle] = result.wheel.cycles;
    expect(result.wheel.cycles).toHaveLength(1);
    expect(cycle!.realisedPnl).toBeCloseTo(51, 9);
    expect(cycle!.adjustedCostBasis).toBeCloseTo(49.5, 9);
    expect(result.wheel.results.get(trades[1]!.id)!.pnl).toBe(51);
    const stats = periodStats(trades, result.wheel, null, NOW);
    expect(stats).toMatchObject({ realisedPnl: 51, closingTrades: 0, winRate: null });
  });

  it("a dividend paid after the shares were called away belongs to that cycle, which stays closed when it was", () => {
    // Bought 100 at 50 (5,000), call 52 sold for 1.00 (+100), called away at 52 (+5,200): P/L 300.
    // The 0.51 dividend paid a week later: +51 → 351 on the same, closed cycle.
    const trades = [
      trade({ kind: "stock_buy", quantity: 100, price: 50, tradedAt: at("2026-01-05") }),
      trade({ kind: "sell_to_open", ...call(52, "2026-01-30"), price: 1, tradedAt: at("2026-01-06") }),
      trade({ kind: "exercise", ...call(52, "2026-01-30"), tradedAt: at("2026-01-30") }),
      trade({ kind: "dividend", quantity: 100, price: 0.51, tradedAt: at("2026-02-06") }),
    ];
    const result = replay(trades, NOW);
    if (!result.ok) throw new Error(result.refusal.reason);
    expect(result.wheel.cycles).toHaveLength(1);
    expect(result.wheel.cycles[0]!.realisedPnl).toBeCloseTo(351, 9);
    expect(result.wheel.cycles[0]!.closedAt).toBe(at("2026-01-30"));
  });

  it("a dividend on a ticker whose shares the journal never held is refused with the reason", () => {
    const lone = trade({ kind: "dividend", quantity: 100, price: 0.51, tradedAt: at("2026-03-15") });
    expect(replay([lone], NOW)).toEqual({
      ok: false,
      refusal: { tradeId: lone.id, reason: "A dividend on KO needs KO shares held in the journal before it" },
    });
  });
});
