import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { averageIv } from "./stock-fields.ts";
import { AddUserStockSchema, EditUserStockSchema } from "./stock-schemas.ts";

/** The field errors of a failed parse (none for a success). */
function errors(result: { status?: string; error?: unknown } | { status: "success" }): Record<string, string[] | null> {
  return "error" in result ? ((result.error ?? {}) as Record<string, string[] | null>) : {};
}

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
}

const filled = {
  ticker: "aapl",
  name: "Apple Inc.",
  base_iv: "250.5",
  conservative_iv: "210",
  buy_level_one: "220",
  buy_level_two: "205",
  buy_level_three: "190",
  buy_level_four: "175.25",
};

describe("AddUserStockSchema (docs/product.md#validation-stock)", () => {
  it("turns a filled form into numbers and an upper-case ticker", () => {
    const result = parseWithZod(form(filled), { schema: AddUserStockSchema });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toEqual({
      ticker: "AAPL",
      name: "Apple Inc.",
      base_iv: 250.5,
      conservative_iv: 210,
      buy_level_one: 220,
      buy_level_two: 205,
      buy_level_three: 190,
      buy_level_four: 175.25,
    });
  });

  it("keeps only letters and digits of the ticker", () => {
    const result = parseWithZod(form({ ...filled, ticker: " brk.b " }), { schema: AddUserStockSchema });
    expect(result.status === "success" && result.value.ticker).toBe("BRKB");
  });

  it("counts an empty value field as 0", () => {
    const result = parseWithZod(form({ ticker: "KO", base_iv: "", conservative_iv: "" }), {
      schema: AddUserStockSchema,
    });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value.base_iv).toBe(0);
    expect(result.value.buy_level_four).toBe(0);
    expect(result.value.name).toBe("");
  });

  it("requires a ticker", () => {
    const result = parseWithZod(form({ ...filled, ticker: "" }), { schema: AddUserStockSchema });
    expect(result.status).toBe("error");
    expect(errors(result).ticker).toEqual(["Ticker Symbol is required"]);
    const symbols = parseWithZod(form({ ...filled, ticker: "-.-" }), { schema: AddUserStockSchema });
    expect(errors(symbols).ticker).toEqual(["Ticker Symbol is required"]);
  });

  it.each([
    ["-5", "accepts only digits and one decimal point"],
    ["1.2.3", "accepts only digits and one decimal point"],
    ["1e3", "accepts only digits and one decimal point"],
    ["12a", "accepts only digits and one decimal point"],
    ["10000000", "must be at most 9,999,999"],
  ])("refuses %s with '%s'", (text, message) => {
    const result = parseWithZod(form({ ...filled, base_iv: text }), { schema: AddUserStockSchema });
    expect(result.status).toBe("error");
    expect(errors(result).base_iv).toEqual([`Base Value ${message}`]);
  });

  it("accepts the bounds 0 and 9,999,999 and a bare decimal point", () => {
    for (const text of ["0", "9999999", "9999999.0", ".5", "12."]) {
      const result = parseWithZod(form({ ...filled, buy_level_two: text }), { schema: AddUserStockSchema });
      expect(result.status, text).toBe("success");
    }
  });
});

describe("EditUserStockSchema", () => {
  it("names the buy levels as the edit page does", () => {
    const result = parseWithZod(form({ ...filled, buy_level_three: "x" }), { schema: EditUserStockSchema });
    expect(errors(result).buy_level_three).toEqual(["3rd buy level accepts only digits and one decimal point"]);
  });
});

describe("input helpers", () => {
  it("averageIv is the mean of base and conservative IV", () => {
    expect(averageIv(120, 100)).toBe(110);
    expect(averageIv(0, 0)).toBe(0);
  });
});
