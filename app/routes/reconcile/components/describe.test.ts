import { describe, expect, it } from "vitest";
import { cashText } from "./describe.ts";

describe("cashText", () => {
  it("says in words whether the broker's cash covers the puts' collateral, and by how much", () => {
    expect(cashText({ committed: 12_500, broker: 13_250.4, short: 0 }, "Schwab")).toEqual({
      covered: true,
      text: "$12,500.00 committed, Schwab holds $13,250.40 cash: covered, $750.40 to spare.",
    });
    expect(cashText({ committed: 6_250, broker: 3_835.07, short: 2_414.93 }, "Tradier")).toEqual({
      covered: false,
      text: "$6,250.00 committed, Tradier holds $3,835.07 cash: $2,414.93 short.",
    });
    expect(cashText({ committed: 5_000, broker: null, short: null }, "tastytrade")).toEqual({
      covered: null,
      text: "tastytrade did not state the account's cash with these positions, so the $5,000.00 your puts commit is not checked against it.",
    });
  });
});
