import { describe, expect, it } from "vitest";
import type { PutFit } from "#contract/plan.ts";
import { fitNotes, sizingText } from "./plan-fit.ts";

const book = { capital: 60_000, free_cash: 14_500, ticker_limit: 0.25, sector_limit: 0.4 };
const fit = (over: Partial<PutFit>): PutFit => ({
  id: 1,
  ticker: "AAPL",
  sector: "Information Technology",
  collateral_per_contract: 20_000,
  contracts_allowed: 0,
  by_cash: 0,
  by_ticker: 0,
  by_sector: 1,
  fits: false,
  ticker_share: 0.38,
  sector_share: 0.38,
  ...over,
});

describe("fit notes", () => {
  it("says the issue's two sentences for an AAPL 200 put against $14,500 free and a 25 % limit", () => {
    expect(fitNotes(fit({}), book)).toEqual([
      "uses $20,000 of your $14,500 free — does not fit",
      "AAPL would be 38 % of capital, over your 25 % limit",
    ]);
  });

  it("names the sector limit when that is the one broken, and no 'does not fit' when the cash holds", () => {
    const notes = fitNotes(
      fit({ collateral_per_contract: 5_000, by_cash: 2, by_ticker: 3, by_sector: 0, sector_share: 0.45 }),
      book,
    );
    expect(notes).toEqual([
      "uses $5,000 of your $14,500 free",
      "Information Technology would be 45 % of capital, over your 40 % sector limit",
    ]);
  });
});

describe("sizing", () => {
  it("gives the least of the three counts and names the one holding it", () => {
    expect(sizingText(fit({ contracts_allowed: 2, by_cash: 6, by_ticker: 2, by_sector: 4, fits: true }))).toBe(
      "Your plan allows 2 contracts (held by your ticker limit: cash 6, ticker 2, sector 4).",
    );
    expect(sizingText(fit({}))).toBe("Your plan allows no contract of this put.");
  });
});
