import { describe, expect, it } from "vitest";
import {
  filtersSearch,
  filterTrades,
  formatSignedMoney,
  INSTRUMENTS,
  monthsBefore,
  periodStart,
  PERIODS,
  readFilters,
} from "./trade-journal.ts";
import { sampleTrades, tradePnl } from "./trade-samples.ts";

const NOW = new Date("2026-11-21T12:00:00Z");
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe("journal filters in the URL", () => {
  it("defaults to Stocks and Options over the Last 7 Days (SPEC.md §2)", () => {
    expect(readFilters(new URLSearchParams())).toEqual({ instrument: "all", period: "7d" });
  });

  it("reads known values and falls back on unknown ones", () => {
    expect(readFilters(new URLSearchParams("instrument=options&period=3m"))).toEqual({
      instrument: "options",
      period: "3m",
    });
    expect(readFilters(new URLSearchParams("instrument=futures&period=1y"))).toEqual({
      instrument: "all",
      period: "7d",
    });
  });

  it("writes filters back to a query string that reads the same", () => {
    for (const { value: instrument } of INSTRUMENTS) {
      for (const { value: period } of PERIODS) {
        const search = filtersSearch({ instrument, period });
        expect(readFilters(new URLSearchParams(search))).toEqual({ instrument, period });
      }
    }
  });

  it("offers the six periods and three instruments with SPEC.md's labels", () => {
    expect(PERIODS.map((p) => p.label)).toEqual([
      "All Time",
      "Last 6 Months",
      "Last 3 Months",
      "Last 2 Months",
      "Last 30 Days",
      "Last 7 Days",
    ]);
    expect(INSTRUMENTS.map((i) => i.label)).toEqual(["Stocks and Options", "Stocks", "Options"]);
  });
});

describe("period start", () => {
  it("counts days for 7 and 30 days and calendar months for 2, 3 and 6 months", () => {
    expect(periodStart("all", NOW)).toBeNull();
    expect(periodStart("7d", NOW)?.toISOString()).toBe("2026-11-14T12:00:00.000Z");
    expect(periodStart("30d", NOW)?.toISOString()).toBe("2026-10-22T12:00:00.000Z");
    expect(periodStart("2m", NOW)?.toISOString()).toBe("2026-09-21T12:00:00.000Z");
    expect(periodStart("3m", NOW)?.toISOString()).toBe("2026-08-21T12:00:00.000Z");
    expect(periodStart("6m", NOW)?.toISOString()).toBe("2026-05-21T12:00:00.000Z");
  });

  it("clamps to the shorter month's last day and crosses years", () => {
    expect(monthsBefore(new Date("2026-05-31T08:00:00Z"), 3).toISOString()).toBe("2026-02-28T08:00:00.000Z");
    expect(monthsBefore(new Date("2028-05-31T08:00:00Z"), 3).toISOString()).toBe("2028-02-29T08:00:00.000Z");
    expect(monthsBefore(new Date("2027-01-15T00:00:00Z"), 2).toISOString()).toBe("2026-11-15T00:00:00.000Z");
  });
});

describe("filtering the sample rows", () => {
  const rows = sampleTrades(NOW);
  const run = (instrument: "all" | "stocks" | "options", period: (typeof PERIODS)[number]["value"]) =>
    filterTrades(rows, { instrument, period }, NOW);

  it("every instrument and period shows something, and each longer period adds rows", () => {
    const order = ["7d", "30d", "2m", "3m", "6m", "all"] as const;
    for (const instrument of ["all", "stocks", "options"] as const) {
      let previous = 0;
      for (const period of order) {
        const count = run(instrument, period).length;
        expect(count, `${instrument} ${period}`).toBeGreaterThan(previous);
        previous = count;
      }
    }
  });

  it("keeps only the chosen instrument and period, newest first", () => {
    expect(ids(run("all", "7d"))).toEqual(["o1", "o2", "s1", "s2"]);
    expect(ids(run("stocks", "30d"))).toEqual(["s1", "s2", "s3"]);
    expect(ids(run("options", "2m"))).toEqual(["o1", "o2", "o3", "o4"]);
    expect(run("all", "all")).toHaveLength(rows.length);
    const dates = run("all", "all").map((r) => Date.parse(r.openedAt));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it("includes a row exactly at a period's start and leaves out one a moment before or in the future", () => {
    const at = (iso: string, id: string) => ({ id, instrument: "stocks" as const, openedAt: iso });
    const edge = [
      at("2026-11-14T12:00:00.000Z", "edge"),
      at("2026-11-14T11:59:59.999Z", "before"),
      at("2026-11-21T12:00:00.001Z", "future"),
    ];
    expect(ids(filterTrades(edge, { instrument: "all", period: "7d" }, NOW))).toEqual(["edge"]);
  });

  it("dates the rows relative to now, so the filters keep working on any day", () => {
    const later = new Date("2031-03-31T23:59:00Z");
    const moved = sampleTrades(later);
    expect(ids(filterTrades(moved, { instrument: "all", period: "7d" }, later))).toEqual(["o1", "o2", "s1", "s2"]);
  });
});

describe("profit and loss", () => {
  it("gains on a sale when the price falls and on a purchase when it rises, net of fees", () => {
    const base = { instrument: "stocks" as const, quantity: 10, fees: 2 };
    expect(tradePnl({ ...base, type: "buy", entryPrice: 100, exitPrice: 110 })).toBe(98);
    expect(tradePnl({ ...base, type: "sell", entryPrice: 100, exitPrice: 110 })).toBe(-102);
    expect(tradePnl({ ...base, type: "buy", entryPrice: 100, exitPrice: null })).toBeNull();
  });

  it("counts an option contract as 100 shares", () => {
    expect(
      tradePnl({ instrument: "options", type: "sell", quantity: 1, entryPrice: 2.45, exitPrice: 0.6, fees: 1.3 }),
    ).toBe(183.7);
  });

  it("writes a signed amount", () => {
    expect(formatSignedMoney(1234.5)).toBe("+$1,234.50");
    expect(formatSignedMoney(-56)).toBe("\u2212$56.00");
    expect(formatSignedMoney(0)).toBe("$0.00");
    expect(formatSignedMoney(-0.001)).toBe("$0.00");
  });
});
