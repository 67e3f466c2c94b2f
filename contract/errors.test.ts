import { describe, expect, it } from "vitest";
import { detailText } from "./errors.ts";

describe("detailText: a refusal in words, without field paths (issue 46)", () => {
  it("reads a sentence that names its field alone", () => {
    expect(detailText({ detail: "query.dte_max: 'Days to expiry to' must be a whole number from 1 to 90." })).toBe(
      "'Days to expiry to' must be a whole number from 1 to 90.",
    );
    expect(detailText({ detail: "body.csv: The file is empty" })).toBe("The file is empty");
  });

  it("names the field in words for a bare validation message", () => {
    expect(detailText({ detail: "body.buy_level_one: Too big: expected number to be <=9999999" })).toBe(
      "1st buy level: Too big: expected number to be <=9999999",
    );
    expect(detailText({ detail: "body.stock.ticker: Invalid input: expected string, received undefined" })).toBe(
      "Ticker: Invalid input: expected string, received undefined",
    );
    expect(
      detailText({
        detail: [{ loc: ["body", "min_bid"], msg: "Input should be a valid number", type: "float_parsing" }],
      }),
    ).toBe("Min bid: Input should be a valid number");
  });

  it("leaves a detail without a field path as it is", () => {
    expect(detailText({ detail: "Not authorized to edit UIP stock" })).toBe("Not authorized to edit UIP stock");
    expect(detailText({ detail: "a; b" })).toBe("a; b");
  });
});
