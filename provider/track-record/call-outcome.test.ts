import { describe, expect, it } from "vitest";
import { scoreCall } from "./call-outcome.ts";

describe("scoreCall", () => {
  it("a 65 call sold for 0.80 on KO held at an adjusted basis of 63.22, closing at 66.10: called away", () => {
    // Sold at 65 shares that cost 63.22 net of the cycle's premiums: 65 − 63.22 = 1.78, plus the
    // 0.80 call premium = 2.58 a share, 258 a contract; 2.58 / 63.22 = 4.081% on the basis,
    // against 0.80 / 63.22 = 1.265% promised by the premium alone.
    const o = scoreCall({ strike: 65, premium: 0.8, adjustedBasis: 63.22, close: 66.1 });
    expect(o.outcome).toBe("called_away");
    expect(o.pnlPerShare).toBe(2.58);
    expect(o.realisedReturn).toBeCloseTo(0.04081, 5);
    expect(o.promisedReturn).toBeCloseTo(0.012654, 6);
  });

  it("the same call with KO closing at 64.00: the call expires, the 0.80 is kept and so are the shares", () => {
    // Below the strike nobody exercises; the premium is the call's whole result, and the shares'
    // fall from 66 or rise from 63 is not realised, so it is not counted: 0.80 / 63.22 = 1.265%.
    const o = scoreCall({ strike: 65, premium: 0.8, adjustedBasis: 63.22, close: 64 });
    expect(o).toEqual({
      outcome: "kept",
      pnlPerShare: 0.8,
      realisedReturn: 0.8 / 63.22,
      promisedReturn: 0.8 / 63.22,
    });
  });

  it("closing exactly at the strike the call has no intrinsic value: kept, as the journal resolves it", () => {
    expect(scoreCall({ strike: 65, premium: 0.8, adjustedBasis: 63.22, close: 65 }).outcome).toBe("kept");
  });

  it("a call struck below the basis and called away loses what the premium does not cover", () => {
    // 60 strike on shares at a 63.22 basis, 1.50 premium: 1.50 + 60 − 63.22 = −1.72 a share.
    const o = scoreCall({ strike: 60, premium: 1.5, adjustedBasis: 63.22, close: 70 });
    expect(o.outcome).toBe("called_away");
    expect(o.pnlPerShare).toBe(-1.72);
  });

  it("refuses a basis that is not positive", () => {
    expect(() => scoreCall({ strike: 65, premium: 0.8, adjustedBasis: 0, close: 64 })).toThrow(RangeError);
  });
});
