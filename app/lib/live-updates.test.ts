import { describe, expect, it } from "vitest";
import type { StockPriceUpdate } from "#contract/ws.ts";
import { applyPriceUpdate, withLivePrices, type LivePrices, type QuotedRows } from "./live-updates.ts";
import { parsePriceMessage } from "./live-messages.ts";
import { parseTradeMessage } from "./live-trade-messages.ts";

const T0 = "2026-11-18T17:00:00.000Z";
const T1 = "2026-11-18T17:01:00.000Z";
const T2 = "2026-11-18T17:02:00.000Z";
const row = (ticker: string, current_price: number, updated_at: string | null) => ({
  id: ticker.length,
  average_iv: 200,
  stock: { id: 1, ticker, name: `${ticker} Inc.`, current_price, updated_at },
});

describe("live message validation (docs/product.md#states-live, #validation-live)", () => {
  it("accepts a single quote and a list of quotes", () => {
    const one = { type: "stock_price_update", data: { ticker: "AAPL", current_price: 1.5, updated_at: T0 } };
    expect(parsePriceMessage(JSON.stringify(one))).toEqual({ ok: true, message: one });
    const list = { type: "stock_price_update", data: [one.data, { ...one.data, ticker: "MSFT" }] };
    expect(parsePriceMessage(JSON.stringify(list))).toMatchObject({ ok: true });
  });

  it("rejects, with a reason for the log, what is not JSON or misses the ticker, the price or the data", () => {
    for (const raw of [
      "not json",
      JSON.stringify({ type: "stock_price_update" }),
      JSON.stringify({ type: "stock_price_update", data: { current_price: 1, updated_at: T0 } }),
      JSON.stringify({ type: "stock_price_update", data: { ticker: "AAPL", updated_at: T0 } }),
      JSON.stringify({ type: "stock_price_update", data: [{ ticker: "AAPL", current_price: "1", updated_at: T0 }] }),
      JSON.stringify({ type: "something_else", data: [] }),
    ]) {
      const parsed = parsePriceMessage(raw);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.reason.length).toBeGreaterThan(0);
    }
  });

  it("rejects a trade update without a symbol, without data, or whose set is not an array", () => {
    expect(parseTradeMessage(JSON.stringify({ type: "trade_recommendations_update", data: [] })).ok).toBe(false);
    expect(parseTradeMessage(JSON.stringify({ type: "trade_recommendations_update", ticker: "AAPL" })).ok).toBe(false);
    expect(
      parseTradeMessage(JSON.stringify({ type: "trade_recommendations_update", ticker: "AAPL", data: { id: 1 } })).ok,
    ).toBe(false);
    expect(
      parseTradeMessage(JSON.stringify({ type: "trade_recommendations_update", ticker: "AAPL", data: [] })),
    ).toEqual({ ok: true, message: { type: "trade_recommendations_update", ticker: "AAPL", data: [] } });
  });
});

describe("applying prices", () => {
  const update = (data: StockPriceUpdate["data"]): StockPriceUpdate => ({ type: "stock_price_update", data });

  it("keeps the newest quote per ticker", () => {
    let prices: LivePrices = new Map();
    prices = applyPriceUpdate(prices, update({ ticker: "aapl", current_price: 10, updated_at: T1 }));
    prices = applyPriceUpdate(prices, update([{ ticker: "AAPL", current_price: 9, updated_at: T0 }]));
    expect(prices.get("AAPL")).toEqual({ ticker: "aapl", current_price: 10, updated_at: T1 });
  });

  it("replaces price and time of matching rows only, leaves other rows the same objects, and never goes back in time", () => {
    const rows = [row("AAPL", 100, T0), row("MSFT", 300, T0), row("KO", 60, T1)];
    const prices = applyPriceUpdate(
      new Map(),
      update([
        { ticker: "AAPL", current_price: 101.25, updated_at: T1 },
        { ticker: "KO", current_price: 59, updated_at: T0 },
      ]),
    );
    const shown = withLivePrices(rows, prices);
    expect(shown[0]).toEqual({ ...rows[0], stock: { ...rows[0]!.stock, current_price: 101.25, updated_at: T1 } });
    expect(shown[1]).toBe(rows[1]);
    expect(shown[2]).toBe(rows[2]); // the loader's KO is newer than the live quote
    expect(withLivePrices(rows, new Map())).toBe(rows);
  });

  it("hands back the same row object while its quote has not changed, and a new one when it has", () => {
    const rows = [row("AAPL", 100, T0), row("MSFT", 300, T0)];
    const kept: QuotedRows<(typeof rows)[number]> = new WeakMap();
    let prices = applyPriceUpdate(
      new Map(),
      update([
        { ticker: "AAPL", current_price: 101, updated_at: T1 },
        { ticker: "MSFT", current_price: 301, updated_at: T1 },
      ]),
    );
    const first = withLivePrices(rows, prices, kept);
    // A quote for AAPL only: MSFT's row is the object shown before, so React skips it.
    prices = applyPriceUpdate(prices, update({ ticker: "AAPL", current_price: 102, updated_at: T2 }));
    const second = withLivePrices(rows, prices, kept);
    expect(second[1]).toBe(first[1]);
    expect(second[0]).not.toBe(first[0]);
    expect(second[0]!.stock).toMatchObject({ current_price: 102, updated_at: T2 });
    expect(second[1]!.stock).toMatchObject({ current_price: 301, updated_at: T1 });
  });
});
