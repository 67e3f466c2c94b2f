import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import {
  CONFIDENCE_LABELS,
  DEFAULT_PORTFOLIO,
  errorsByTab,
  firstTabWithErrors,
  prefillFromSearch,
  TRADE_TABS,
  tradeDefaults,
  utcInstant,
} from "./trade-fields.ts";
import { OptionTradeSchema, StockTradeSchema } from "./trade-schemas.ts";
import { recordTradeHref } from "./record-trade.ts";
import { resolveHref } from "./resolve-expiry.ts";

/** What the browser posts: every field as text, as Conform reads it on client and server. */
function post(schema: typeof StockTradeSchema | typeof OptionTradeSchema, fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return parseWithZod(form, { schema });
}
const errorsOf = (submission: ReturnType<typeof post>) =>
  submission.status === "success" ? undefined : submission.error;

const STOCK = { symbol: "ko", entryPrice: "60.10", quantity: "10", entryFee: "1", entryDate: "2026-01-05T15:30" };
const OPTION = {
  symbol: "ko",
  strike: "50",
  expiry: "2026-01-30",
  quantity: "1",
  entryPrice: "2.00",
  entryFee: "1",
  entryDate: "2026-01-05T15:30",
};

describe("the stocks form", () => {
  it("fills the defaults: Default Portfolio, buy, confidence 2 (Neutral); no exit", () => {
    const result = post(StockTradeSchema, STOCK);
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toEqual({
      portfolio: DEFAULT_PORTFOLIO,
      type: "buy",
      symbol: "KO",
      entryPrice: 60.1,
      quantity: 10,
      entryFee: 1,
      entryDate: "2026-01-05T15:30",
      confidence: 2,
    });
    expect(CONFIDENCE_LABELS[result.value.confidence]).toBe("Neutral");
  });

  it("requires symbol, price, shares, fees and date, one message per field", () => {
    expect(errorsOf(post(StockTradeSchema, {}))).toEqual({
      symbol: ["Symbol is required"],
      entryPrice: ["Price is required"],
      quantity: ["Shares is required"],
      entryFee: ["Fees is required"],
      entryDate: ["Date and time is required"],
    });
  });

  it("bounds amounts, refuses text and a date in the future", () => {
    const result = post(StockTradeSchema, {
      ...STOCK,
      entryPrice: "9999999.01",
      quantity: "0",
      entryFee: "abc",
      entryDate: "2999-01-01T00:00",
    });
    expect(errorsOf(result)).toEqual({
      entryPrice: ["Price must be at most 9,999,999"],
      quantity: ["Shares must be above 0"],
      entryFee: ["Fees must be a number"],
      entryDate: ["A trade cannot be dated in the future"],
    });
  });

  it("an exit needs its price and date, not before the entry", () => {
    expect(errorsOf(post(StockTradeSchema, { ...STOCK, closingPrice: "61" }))).toEqual({
      exitDate: ["Exit date and time is required"],
    });
    expect(errorsOf(post(StockTradeSchema, { ...STOCK, exitDate: "2026-01-06T15:30" }))).toEqual({
      closingPrice: ["Closing price is required"],
    });
    expect(errorsOf(post(StockTradeSchema, { ...STOCK, closingPrice: "61", exitDate: "2026-01-04T15:30" }))).toEqual({
      exitDate: ["The exit cannot come before the entry"],
    });
  });
});

describe("the options form", () => {
  it("a sell-to-open of one put by default", () => {
    const result = post(OptionTradeSchema, OPTION);
    expect(result.status === "success" && result.value).toMatchObject({
      action: "sell_to_open",
      optionType: "put",
      symbol: "KO",
      strike: 50,
      expiry: "2026-01-30",
      quantity: 1,
      entryPrice: 2,
    });
  });

  it("whole contracts, a strike from 0.001, an expiry date; only a sell-to-open takes an exit", () => {
    expect(
      errorsOf(post(OptionTradeSchema, { ...OPTION, quantity: "1.5", strike: "0", expiry: "30/01/2026" })),
    ).toEqual({
      quantity: ["Contracts must be a whole number"],
      strike: ["Strike must be from 0.001 to 99,999.999"],
      expiry: ["Enter a date"],
    });
    expect(
      errorsOf(
        post(OptionTradeSchema, { ...OPTION, action: "assignment", closingPrice: "1", exitDate: "2026-01-06T10:00" }),
      ),
    ).toEqual({ closingPrice: ["Only a sell-to-open can be closed here"] });
  });

  it("reads its date as UTC", () => {
    expect(utcInstant("2026-01-05T15:30")).toBe("2026-01-05T15:30:00.000Z");
    expect(tradeDefaults("options", new Date("2026-01-05T15:30:59Z"))).toMatchObject({
      entryDate: "2026-01-05T15:30",
      quantity: "1",
    });
  });
});

describe("Record this trade", () => {
  it("takes ticker, strike, expiry, bid and type from the link", () => {
    const search = new URLSearchParams("ticker=ko&strike=52.5&expiry=2026-12-18&bid=1.25&type=put");
    expect(prefillFromSearch(search)).toEqual({
      symbol: "KO",
      strike: "52.5",
      expiry: "2026-12-18",
      entryPrice: "1.25",
      optionType: "put",
    });
  });

  it("leaves out values it cannot use", () => {
    const search = new URLSearchParams("ticker=&strike=-1&expiry=soon&bid=abc&type=straddle");
    expect(prefillFromSearch(search)).toEqual({});
  });

  it("the link on a recommended put opens the form with that put at its bid", () => {
    const href = recordTradeHref({ ticker: "AAPL", strike: 210, expiry: "2026-12-18", bid: 3.45 });
    const url = new URL(href, "http://app.test");
    expect(url.pathname).toBe("/add-trade");
    expect(prefillFromSearch(url.searchParams)).toEqual({
      symbol: "AAPL",
      strike: "210",
      expiry: "2026-12-18",
      entryPrice: "3.45",
      optionType: "put",
    });
  });
});

describe("an expired option's record links (ADR 0078)", () => {
  const awaiting = { ticker: "KO", option_type: "call" as const, strike: 70, expiry: "2026-11-20", contracts: 2 };

  it("fill the form with the outcome, the contracts, no premium or fees, and the expiry close", () => {
    const url = new URL(resolveHref(awaiting, "exercise", "2026-11-20T21:00:00.000Z"), "http://app.test");
    expect(url.searchParams.get("form")).toBe("options");
    expect(prefillFromSearch(url.searchParams)).toEqual({
      symbol: "KO",
      strike: "70",
      expiry: "2026-11-20",
      optionType: "call",
      action: "exercise",
      entryPrice: "0",
      entryFee: "0",
      quantity: "2",
      entryDate: "2026-11-20T21:00",
    });
  });

  it("leave out an action that is not a resolution, a count that is not whole, a date that is not one", () => {
    const search = new URLSearchParams("action=sell_to_open&contracts=1.5&date=2026-11-20");
    expect(prefillFromSearch(search)).toEqual({});
  });
});

describe("record this trade with the plan's size (ADR 0081)", () => {
  it("carries the contracts the plan allows into the form's quantity", () => {
    const href = recordTradeHref({ ticker: "KO", strike: 60, expiry: "2026-12-18", bid: 0.81, quantity: 2 });
    const url = new URL(href, "http://app.test");
    expect(prefillFromSearch(url.searchParams)).toMatchObject({ symbol: "KO", quantity: "2" });
    expect(prefillFromSearch(new URLSearchParams("quantity=1.5"))).toEqual({});
    expect(prefillFromSearch(new URLSearchParams("quantity=0"))).toEqual({});
  });
});

describe("tabs", () => {
  it("every field of each form sits on exactly one tab", () => {
    for (const [kind, schema] of [
      ["stocks", StockTradeSchema],
      ["options", OptionTradeSchema],
    ] as const) {
      const onTabs = TRADE_TABS[kind].flatMap((tab) => [...tab.fields]).sort();
      expect(onTabs).toEqual(Object.keys(schema.shape).sort());
    }
  });

  it("counts errors per tab and finds the first tab and field with one", () => {
    expect(errorsByTab("stocks", ["exitFee", "closingPrice", "quantity"])).toEqual({ general: 1, exit: 2, journal: 0 });
    expect(firstTabWithErrors("options", ["exitFee", "strike"])).toEqual({ tab: "general", field: "strike" });
    expect(firstTabWithErrors("stocks", [])).toBeNull();
  });
});
