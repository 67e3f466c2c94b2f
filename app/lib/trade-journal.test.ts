import { describe, expect, it } from "vitest";
import {
  filtersSearch,
  filterTrades,
  formatPercent,
  formatSignedMoney,
  INSTRUMENTS,
  monthsBefore,
  periodStart,
  PERIODS,
  readFilters,
} from "./trade-journal.ts";

const NOW = new Date("2026-11-21T12:00:00Z");
const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

describe("journal filters in the URL", () => {
  it("defaults to Stocks and Options over the Last 7 Days (docs/product.md#screens-trades)", () => {
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

  it("offers the six periods and three instruments with the labels of docs/product.md#screens-trades", () => {
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

describe("filtering journal rows", () => {
  const at = (iso: string, id: string, instrument: "stocks" | "options" = "stocks") => ({
    id,
    instrument,
    openedAt: iso,
  });
  const rows = [
    at("2026-11-20T12:00:00.000Z", "s1"),
    at("2026-11-19T12:00:00.000Z", "o1", "options"),
    at("2026-11-01T12:00:00.000Z", "s2"),
    at("2026-10-01T12:00:00.000Z", "o2", "options"),
    at("2025-01-01T12:00:00.000Z", "s3"),
  ];

  it("keeps only the chosen instrument and period, newest first", () => {
    expect(ids(filterTrades(rows, { instrument: "all", period: "7d" }, NOW))).toEqual(["o1", "s1"]);
    expect(ids(filterTrades(rows, { instrument: "stocks", period: "30d" }, NOW))).toEqual(["s1", "s2"]);
    expect(ids(filterTrades(rows, { instrument: "options", period: "2m" }, NOW))).toEqual(["o1", "o2"]);
    const all = filterTrades(rows, { instrument: "all", period: "all" }, NOW);
    expect(all.map((r) => r.id)).toEqual(["s1", "o1", "s2", "o2", "s3"]);
  });

  it("includes a row exactly at a period's start and leaves out one a moment before or in the future", () => {
    const edge = [
      at("2026-11-14T12:00:00.000Z", "edge"),
      at("2026-11-14T11:59:59.999Z", "before"),
      at("2026-11-21T12:00:00.001Z", "future"),
    ];
    expect(ids(filterTrades(edge, { instrument: "all", period: "7d" }, NOW))).toEqual(["edge"]);
  });
});

describe("amounts", () => {
  it("writes a signed amount", () => {
    expect(formatSignedMoney(1234.5)).toBe("+$1,234.50");
    expect(formatSignedMoney(-56)).toBe("\u2212$56.00");
    expect(formatSignedMoney(0)).toBe("$0.00");
    expect(formatSignedMoney(-0.001)).toBe("$0.00");
  });

  it("writes a share as a percentage with two decimals", () => {
    expect(formatPercent(0.5831)).toBe("58.31%");
    expect(formatPercent(-0.1)).toBe("\u221210.00%");
    expect(formatPercent(null)).toBe("—");
  });
});
