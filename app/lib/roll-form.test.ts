import { describe, expect, it } from "vitest";
import { rollDefaults, RollFormSchema } from "./roll-form.ts";
import { recordRollHref } from "./roll-link.ts";

describe("Record this roll", () => {
  it("starts from the candidate at its bid and the open put at its ask, one commission per contract on each trade", () => {
    const values = rollDefaults({
      contracts: 2,
      closeAsk: 4.1,
      commission: 0.65,
      strike: 47.5,
      expiry: "2026-04-24",
      bid: 4.4,
      now: new Date("2026-02-02T15:04:00Z"),
    });
    // 0.65 × 2 contracts = 1.30 on the buy-back and 1.30 on the new put.
    expect(values).toEqual({
      contracts: "2",
      closePrice: "4.1",
      closeFees: "1.3",
      strike: "47.5",
      expiry: "2026-04-24",
      openPrice: "4.4",
      openFees: "1.3",
      tradedAt: "2026-02-02T15:04",
    });
  });

  it("links to the roll screen with the candidate's strike, expiry and bid", () => {
    expect(recordRollHref(12, { strike: 47.5, expiry: "2026-04-24", bid: 4.4 })).toBe(
      "/portfolio/roll/12?strike=47.5&expiry=2026-04-24&bid=4.4",
    );
  });

  it("refuses part of a contract and a date in the future, with readable messages", () => {
    const result = RollFormSchema.safeParse({
      contracts: 1.5,
      closePrice: 4.1,
      closeFees: 0.65,
      strike: 47.5,
      expiry: "2026-04-24",
      openPrice: 4.4,
      openFees: 0.65,
      tradedAt: "2999-01-01T10:00",
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.message).sort()).toEqual([
      "A trade cannot be dated in the future",
      "Contracts must be a whole number",
    ]);
  });
});
