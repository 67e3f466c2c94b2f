import { describe, expect, it } from "vitest";
import { scorePut } from "./outcome.ts";

describe("scorePut", () => {
  it("a put at strike 100 sold for 2.00 at the bid, closing at 95 on expiry: assigned, 3.00 a share lost after the premium", () => {
    // Assigned: buys at 100 shares worth 95, a 5.00 loss, less the 2.00 kept = −3.00 a share,
    // −300 a contract; −3 / 100 = −3% of the cash set aside, against the 2 / 100 = 2% promised.
    expect(scorePut({ strike: 100, premium: 2, close: 95 })).toEqual({
      outcome: "assigned",
      pnlPerShare: -3,
      realisedReturn: -0.03,
      promisedReturn: 0.02,
      profitable: false,
    });
  });

  it("closing above the strike, the put expires worthless and the whole premium is kept", () => {
    expect(scorePut({ strike: 100, premium: 2, close: 104.5 })).toEqual({
      outcome: "expired_worthless",
      pnlPerShare: 2,
      realisedReturn: 0.02,
      promisedReturn: 0.02,
      profitable: true,
    });
  });

  it("closing exactly at the strike, the put has no intrinsic value and expires worthless", () => {
    expect(scorePut({ strike: 100, premium: 2, close: 100 }).outcome).toBe("expired_worthless");
  });

  it("assigned above the breakeven is still a profit: 100 strike, 2.00 premium, close 99.25 keeps 1.25", () => {
    const o = scorePut({ strike: 100, premium: 2, close: 99.25 });
    expect(o.outcome).toBe("assigned");
    expect(o.pnlPerShare).toBe(1.25);
    expect(o.profitable).toBe(true);
  });

  it("at the breakeven (close 98 = 100 − 2.00) the seller is flat, which is not a profit", () => {
    const o = scorePut({ strike: 100, premium: 2, close: 98 });
    expect(o.pnlPerShare).toBe(0);
    expect(o.profitable).toBe(false);
  });

  it("refuses a strike that is not positive", () => {
    expect(() => scorePut({ strike: 0, premium: 1, close: 5 })).toThrow(RangeError);
  });
});
