import { describe, expect, it } from "vitest";
import { sanitizeDecimalInput, sanitizeTicker } from "./input-sanitizers.ts";

/** docs/product.md#validation-stock: what a ticker or an amount field keeps of what is typed (stock and trade forms alike). */
describe("input sanitizers", () => {
  it("a ticker keeps letters and digits, in upper case", () => {
    expect(sanitizeTicker("brk.b")).toBe("BRKB");
    expect(sanitizeTicker(" a1 $")).toBe("A1");
    expect(sanitizeTicker(" a-a p$l 1 ")).toBe("AAPL1");
    expect(sanitizeTicker("Ünï")).toBe("N");
  });

  it("an amount keeps digits and the first decimal point", () => {
    expect(sanitizeDecimalInput("-1,2.5.0")).toBe("12.50");
    expect(sanitizeDecimalInput("-1,234.5.6")).toBe("1234.56");
    expect(sanitizeDecimalInput("1e5")).toBe("15");
    expect(sanitizeDecimalInput("abc")).toBe("");
    expect(sanitizeDecimalInput(".5")).toBe(".5");
    expect(sanitizeDecimalInput("12.")).toBe("12.");
  });
});
