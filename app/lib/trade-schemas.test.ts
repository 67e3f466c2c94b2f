import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  CONFIDENCE_LABELS,
  DEFAULT_PORTFOLIO,
  errorsByTab,
  firstTabWithErrors,
  TRADE_TABS,
  TradeDraftSchema,
} from "./trade-schemas.ts";

/** What the browser posts: every field as text, as Conform reads it on client and server. */
function post(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return parseWithZod(form, { schema: TradeDraftSchema });
}

/** The field errors of a submission; none for a valid one. */
const errorsOf = (submission: ReturnType<typeof post>) =>
  submission.status === "success" ? undefined : submission.error;

const REQUIRED = { entryPrice: "189.20", quantity: "10", entryFee: "1", closingPrice: "196.40", exitFee: "1" };

describe("trade draft (SPEC.md §3, §4, §5, §9)", () => {
  it("fills the defaults: Default Portfolio, buy, Filled, Closed, confidence 2 (Neutral)", () => {
    const result = post(REQUIRED);
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toEqual({
      portfolio: DEFAULT_PORTFOLIO,
      type: "buy",
      entryPrice: 189.2,
      quantity: 10,
      entryFee: 1,
      entryStatus: "filled",
      closingPrice: 196.4,
      exitFee: 1,
      exitStatus: "closed",
      confidence: 2,
    });
    expect(CONFIDENCE_LABELS[result.value.confidence]).toBe("Neutral");
  });

  it("an emptied portfolio name falls back to the default one", () => {
    const result = post({ ...REQUIRED, portfolio: "   " });
    expect(result.status === "success" && result.value.portfolio).toBe(DEFAULT_PORTFOLIO);
    const named = post({ ...REQUIRED, portfolio: " Wheel account " });
    expect(named.status === "success" && named.value.portfolio).toBe("Wheel account");
  });

  it("keeps every field of a full draft", () => {
    const result = post({
      portfolio: "Income",
      type: "sell",
      symbol: "aapl",
      ...REQUIRED,
      entryStatus: "pending",
      entryDate: "2026-11-20T09:30",
      exitStatus: "sl_hit",
      exitDate: "2026-11-21T15:45",
      strategy: "Wheel",
      notes: "Rolled once.",
      confidence: "4",
    });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({
      portfolio: "Income",
      type: "sell",
      symbol: "AAPL",
      entryStatus: "pending",
      entryDate: "2026-11-20T09:30",
      exitStatus: "sl_hit",
      exitDate: "2026-11-21T15:45",
      strategy: "Wheel",
      notes: "Rolled once.",
      confidence: 4,
    });
  });

  it("requires prices, fees and quantity, with one message per field", () => {
    const result = post({});
    expect(result.status).toBe("error");
    expect(errorsOf(result)).toEqual({
      entryPrice: ["Entry price is required"],
      quantity: ["Quantity is required"],
      entryFee: ["Entry fee is required"],
      closingPrice: ["Closing price is required"],
      exitFee: ["Exit fee is required"],
    });
  });

  it("bounds price and fee to 0..9,999,999 and quantity to 0..100,000, edges included", () => {
    const edges = post({
      entryPrice: "0",
      quantity: "100000",
      entryFee: "9999999",
      closingPrice: "9999999",
      exitFee: "0",
    });
    expect(edges.status).toBe("success");
    const over = post({
      entryPrice: "9999999.01",
      quantity: "100000.5",
      entryFee: "-0.01",
      closingPrice: "10000000",
      exitFee: "-1",
    });
    expect(errorsOf(over)).toEqual({
      entryPrice: ["Entry price must be at most 9,999,999"],
      quantity: ["Quantity must be at most 100,000"],
      entryFee: ["Entry fee must be at least 0"],
      closingPrice: ["Closing price must be at most 9,999,999"],
      exitFee: ["Exit fee must be at least 0"],
    });
  });

  it("refuses text that is not a number", () => {
    const result = post({ ...REQUIRED, entryPrice: "abc", quantity: "1.2.3" });
    expect(errorsOf(result)).toEqual({
      entryPrice: ["Entry price must be a number"],
      quantity: ["Quantity must be a number"],
    });
  });

  it("accepts only the listed type, statuses and confidence levels", () => {
    const result = post({ ...REQUIRED, type: "short", entryStatus: "done", exitStatus: "open", confidence: "5" });
    expect(Object.keys(errorsOf(result) ?? {}).sort()).toEqual(["confidence", "entryStatus", "exitStatus", "type"]);
    for (const level of ["0", "1", "2", "3", "4"])
      expect(post({ ...REQUIRED, confidence: level }).status).toBe("success");
  });

  it("takes dates as a datetime-local input sends them", () => {
    expect(post({ ...REQUIRED, entryDate: "2026-11-20T09:30:15" }).status).toBe("success");
    expect(errorsOf(post({ ...REQUIRED, entryDate: "20/11/2026" }))).toEqual({ entryDate: ["Enter a date and time"] });
  });
});

describe("symbol and number sanitising (SPEC.md §5)", () => {
  it("accepts a symbol with characters it drops", () => {
    const result = post({ ...REQUIRED, symbol: "msft!" });
    expect(result.status === "success" && result.value.symbol).toBe("MSFT");
  });

  it("the schema sanitises a symbol the browser did not", () => {
    const result = post({ ...REQUIRED, symbol: "nv-da" });
    expect(result.status === "success" && result.value.symbol).toBe("NVDA");
  });
});

describe("tabs", () => {
  it("every field of the draft sits on exactly one tab", () => {
    const onTabs = TRADE_TABS.flatMap((tab) => [...tab.fields]).sort();
    expect(onTabs).toEqual(Object.keys(TradeDraftSchema.shape).sort());
  });

  it("counts errors per tab and finds the first tab and field with one", () => {
    expect(errorsByTab(["exitFee", "closingPrice", "quantity"])).toEqual({ general: 1, exit: 2, journal: 0 });
    expect(firstTabWithErrors(["exitFee", "closingPrice"])).toEqual({ tab: "exit", field: "closingPrice" });
    expect(firstTabWithErrors(["confidence", "entryFee"])).toEqual({ tab: "general", field: "entryFee" });
    expect(firstTabWithErrors([])).toBeNull();
  });
});
