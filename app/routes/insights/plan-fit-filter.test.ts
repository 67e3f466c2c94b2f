import { describe, expect, it } from "vitest";
import { fitFilterOn, fittingOnly } from "./plan-fit-filter.ts";

describe("the fit filter", () => {
  it("is on by the trader's setting once capital is set, and the address overrides it", () => {
    expect(fitFilterOn(null, { capital: 60_000, only_fitting: true })).toBe(true);
    expect(fitFilterOn("all", { capital: 60_000, only_fitting: true })).toBe(false);
    expect(fitFilterOn("only", { capital: 60_000, only_fitting: false })).toBe(true);
    expect(fitFilterOn("only", { capital: null, only_fitting: true })).toBe(false);
  });

  it("drops the puts known not to fit and keeps the ones not asked about", () => {
    const marks = { 1: { fits: false }, 2: { fits: true } };
    expect(fittingOnly([{ id: 1 }, { id: 2 }, { id: 3 }], marks).map((o) => o.id)).toEqual([2, 3]);
  });
});
