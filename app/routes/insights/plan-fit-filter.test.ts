import { describe, expect, it } from "vitest";
import type { PutFit } from "#contract/plan.ts";
import { fitFilterOn, fittingOnly } from "./plan-fit-filter.ts";

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

describe("the fit filter", () => {
  it("is on by the trader's setting once capital is set, and the address overrides it", () => {
    expect(fitFilterOn(null, { capital: 60_000, only_fitting: true })).toBe(true);
    expect(fitFilterOn("all", { capital: 60_000, only_fitting: true })).toBe(false);
    expect(fitFilterOn("only", { capital: 60_000, only_fitting: false })).toBe(true);
    expect(fitFilterOn("only", { capital: null, only_fitting: true })).toBe(false);
  });

  it("drops the puts known not to fit and keeps the ones not asked about", () => {
    const fits = { 1: fit({ id: 1, fits: false }), 2: fit({ id: 2, fits: true, contracts_allowed: 1 }) };
    expect(fittingOnly([{ id: 1 }, { id: 2 }, { id: 3 }], fits).map((o) => o.id)).toEqual([2, 3]);
  });
});
