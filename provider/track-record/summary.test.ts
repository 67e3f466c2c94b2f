import { describe, expect, it } from "vitest";
import { bucketOf, daysHeld, onCollateral, summarize, wilsonInterval, type ScoredPick } from "./summary.ts";

const pick = (p: Partial<ScoredPick> & Pick<ScoredPick, "probabilityOfProfit" | "pnlPerShare">): ScoredPick => ({
  ticker: "AAA",
  shownDay: "2026-01-05",
  expiration: "2026-01-16",
  strike: 100,
  premium: 2,
  outcome: p.pnlPerShare >= 2 ? "expired_worthless" : "assigned",
  source: "live",
  rate: 0.045,
  ...p,
});

describe("bucketOf", () => {
  it("puts a chance of profit in its 10-point bucket, 1 in the last", () => {
    expect([0, 0.05, 0.1, 0.649, 0.65, 0.7, 0.999, 1].map(bucketOf)).toEqual([0, 0, 1, 6, 6, 7, 9, 9]);
  });
});

describe("wilsonInterval", () => {
  it("gives the textbook interval: 8 of 10 → 49.0% to 94.3%", () => {
    // p = 0.8, z = 1.96: centre (0.8 + 0.19208) / 1.38416 = 0.7168, half 0.2262.
    const { low, high } = wilsonInterval(8, 10);
    expect(low).toBeCloseTo(0.4902, 3);
    expect(high).toBeCloseTo(0.9433, 3);
  });

  it("stays inside 0–1 for all or nothing", () => {
    expect(wilsonInterval(5, 5).high).toBe(1);
    expect(wilsonInterval(0, 5).low).toBe(0);
  });
});

describe("summarize", () => {
  // A hand-built set: three picks predicted 60–70%, two of them profitable; two predicted 80–90%,
  // both profitable; one predicted 90–100%, assigned at a loss.
  const picks: ScoredPick[] = [
    pick({ probabilityOfProfit: 0.62, pnlPerShare: 2, ticker: "AAA", expiration: "2026-01-16" }),
    pick({ probabilityOfProfit: 0.66, pnlPerShare: 2, ticker: "BBB", expiration: "2026-01-16" }),
    pick({ probabilityOfProfit: 0.68, pnlPerShare: -3, ticker: "AAA", expiration: "2026-02-20" }),
    pick({ probabilityOfProfit: 0.8, pnlPerShare: 2, ticker: "BBB", expiration: "2026-02-20", source: "backtest" }),
    pick({
      probabilityOfProfit: 0.86,
      pnlPerShare: 1,
      strike: 50,
      premium: 1,
      ticker: "AAA",
      expiration: "2026-02-20",
      outcome: "expired_worthless",
    }),
    pick({
      probabilityOfProfit: 0.93,
      pnlPerShare: -8,
      ticker: "CCC",
      expiration: "2026-02-27",
      shownDay: "2026-01-02",
    }),
  ];
  const s = summarize(picks);

  it("has ten buckets and puts each pick in its own", () => {
    expect(s.calibration.map((b) => b.count)).toEqual([0, 0, 0, 0, 0, 0, 3, 0, 2, 1]);
    expect(s.calibration[6]).toMatchObject({ from: 0.6, to: 0.7, profitable: 2, expiredWorthless: 2, assigned: 1 });
  });

  it("compares the mean predicted chance with the share that ended profitable", () => {
    const b = s.calibration[6]!;
    expect(b.meanPredicted).toBeCloseTo((0.62 + 0.66 + 0.68) / 3, 12);
    expect(b.observedProfitRate).toBeCloseTo(2 / 3, 12);
    expect(b.low).toBeCloseTo(wilsonInterval(2, 3).low, 12);
    expect(s.calibration[8]!.observedProfitRate).toBe(1);
    expect(s.calibration[9]!.observedProfitRate).toBe(0);
    expect(s.calibration[0]!.low).toBeNull();
  });

  it("sets the realised return against the promised one", () => {
    // Promised: premium / strike = 2% for five picks, 1 / 50 = 2% for one: 2% on average.
    expect(s.totals.meanPromisedReturn).toBeCloseTo(0.02, 12);
    // Realised: P&L / strike, 2/100, 2/100, −3/100, 2/100, 1/50 and −8/100, averaged.
    expect(s.totals.meanRealisedReturn).toBeCloseTo((0.02 + 0.02 - 0.03 + 0.02 + 0.02 - 0.08) / 6, 12);
    // Per contract: 100 × (2 + 2 − 3 + 2 + 1 − 8) = −400.
    expect(s.totals.pnlPerContract).toBe(-400);
    expect(s.totals).toMatchObject({ count: 6, expiredWorthless: 4, assigned: 2, profitable: 4, live: 5, backtest: 1 });
    expect(s.totals.firstShown).toBe("2026-01-02");
    expect(s.totals.lastExpiry).toBe("2026-02-27");
  });

  it("groups by ticker and by the month of expiry", () => {
    expect(s.byTicker.map((g) => [g.ticker, g.count, g.profitable])).toEqual([
      ["AAA", 3, 2],
      ["BBB", 2, 2],
      ["CCC", 1, 0],
    ]);
    expect(s.byMonth.map((g) => [g.month, g.count, g.expiredWorthless])).toEqual([
      ["2026-01", 2, 2],
      ["2026-02", 4, 2],
    ]);
  });

  it("is empty, not wrong, with nothing scored", () => {
    const empty = summarize([]);
    expect(empty.totals).toMatchObject({ count: 0, meanPredicted: 0, observedProfitRate: 0, firstShown: null });
    expect(empty.calibration.every((b) => b.count === 0 && b.low === null)).toBe(true);
  });
});

describe("returns on the cash set aside, a year on collateral-days (docs/decisions/0097)", () => {
  // A 100 put sold at 2.00, shown Jan 2 and expiring Feb 1 (30 days), assigned at a 95 close:
  // −3.00 a share. A 50 put sold at 0.50, shown Jan 6, expiring Jan 16 (10 days), expired: +0.50.
  // Collateral-days a share: 100 × 30 + 50 × 10 = 3,500.
  const picks: ScoredPick[] = [
    pick({
      probabilityOfProfit: 0.8,
      shownDay: "2026-01-02",
      expiration: "2026-02-01",
      strike: 100,
      premium: 2,
      pnlPerShare: -3,
    }),
    pick({
      probabilityOfProfit: 0.9,
      shownDay: "2026-01-06",
      expiration: "2026-01-16",
      strike: 50,
      premium: 0.5,
      pnlPerShare: 0.5,
      rate: 0.04,
    }),
  ];
  const r = onCollateral(picks);

  it("counts each put's calendar days from shown to expiry", () => {
    expect(picks.map(daysHeld)).toEqual([30, 10]);
    // Dollar-days of one contract of each: 3,500 × 100.
    expect(r.collateralDays).toBe(350_000);
  });

  it("promised: (2.00 + 0.50) ÷ 3,500 × 365 = +26.07 % a year", () => {
    expect(r.promised).toBeCloseTo(0.260714, 5);
  });

  it("realised: the assignment's loss counts, (−3.00 + 0.50) ÷ 3,500 × 365 = −26.07 % a year", () => {
    expect(r.realised).toBeCloseTo(-0.260714, 5);
  });

  it("T-bills on the same cash and days at each put's rate: (100 × (e^(0.045×30/365) − 1) + 50 × (e^(0.04×10/365) − 1)) ÷ 3,500 × 365 = 4.49 %", () => {
    // 100 × 0.0037055 = 0.370548; 50 × 0.0010965 = 0.054825; 0.425372 ÷ 3,500 × 365 = 0.044360
    expect(r.tbills).toBeCloseTo(0.04436, 5);
  });

  it("weighs a long put by its days, where a mean per pick would not", () => {
    // The mean per pick of realised ÷ strike is (−3 % + 1 %) ÷ 2 = −1 % over unequal lives.
    expect(summarize(picks).totals.meanRealisedReturn).toBeCloseTo(-0.01, 6);
    expect(summarize(picks).onCollateral).toEqual(r);
  });

  it("is zero with nothing scored", () => {
    expect(onCollateral([])).toEqual({ count: 0, collateralDays: 0, promised: 0, realised: 0, tbills: 0 });
  });
});
