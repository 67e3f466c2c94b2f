import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  fixedDecimals,
  formatAge,
  formatDateTime,
  formatIv,
  formatLevel,
  formatNotificationAge,
  formatPercent,
  formatPrice,
  levelTone,
  priceTone,
  truncateName,
} from "./format.ts";

describe("docs/product.md#constants-display", () => {
  it("cuts a company name at 45 characters and adds '...'", () => {
    const long = "A".repeat(46);
    expect(truncateName(long)).toBe(`${"A".repeat(45)}...`);
    expect(truncateName("A".repeat(45))).toBe("A".repeat(45));
    expect(truncateName("Apple Inc.")).toBe("Apple Inc.");
  });

  it("shows price with 2 decimals, IV with 1, buy levels with 0", () => {
    expect(formatPrice(228.5)).toBe("228.50");
    expect(formatPrice(1234.567)).toBe("1,234.57");
    expect(formatIv(240.26)).toBe("240.3");
    expect(formatLevel(217.5)).toBe("218");
    expect(formatLevel(9999999)).toBe("9,999,999");
  });

  it("shows a fraction as a percentage with 1 decimal", () => {
    expect(formatPercent(0.0214)).toBe("2.1%");
    expect(formatPercent(0.25)).toBe("25.0%");
  });

  it("colours the price green only when average IV is above it", () => {
    expect(priceTone(100, 100.01)).toBe("green");
    expect(priceTone(100, 100)).toBe("grey");
    expect(priceTone(100, 90)).toBe("grey");
  });

  it("colours a buy level grey below the price and green at or above it", () => {
    expect(levelTone(99.99, 100)).toBe("grey");
    expect(levelTone(100, 100)).toBe("green");
    expect(levelTone(120, 100)).toBe("green");
  });

  it("writes dates in en-GB with short month and 24-hour time", () => {
    expect(formatDateTime("2026-11-21T20:38:00Z")).toBe("21 Nov 2026, 20:38");
  });

  it("writes ages in days, hours, minutes or seconds", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(formatAge("2026-11-21T11:59:20Z", now)).toBe("40 seconds ago");
    expect(formatAge("2026-11-21T11:59:00Z", now)).toBe("1 minute ago");
    expect(formatAge("2026-11-21T07:00:00Z", now)).toBe("5 hours ago");
    expect(formatAge("2026-11-18T12:00:00Z", now)).toBe("3 days ago");
  });

  it("writes notification ages as 'Just now', then m, h, d ago", () => {
    const now = new Date("2026-11-21T12:00:00Z");
    expect(formatNotificationAge("2026-11-21T11:59:01Z", now)).toBe("Just now");
    expect(formatNotificationAge("2026-11-21T11:59:00Z", now)).toBe("1m ago");
    expect(formatNotificationAge("2026-11-21T09:00:00Z", now)).toBe("3h ago");
    expect(formatNotificationAge("2026-11-19T12:00:00Z", now)).toBe("2d ago");
  });
});

describe("fixedDecimals", () => {
  it("writes what Intl.NumberFormat('en-US') writes, on worked examples", () => {
    // Rounded half away from zero on the shortest decimal of the number: 1.005 is "1.005", so "1.01".
    expect(fixedDecimals(1.005, 2)).toBe("1.01");
    expect(fixedDecimals(2.675, 2)).toBe("2.68");
    expect(fixedDecimals(-1.005, 2)).toBe("-1.01");
    expect(fixedDecimals(9_999_999.995, 2)).toBe("10,000,000.00");
    expect(fixedDecimals(0.5, 0)).toBe("1");
    expect(fixedDecimals(-0.004, 2)).toBe("-0.00");
    expect(fixedDecimals(5e-7, 2)).toBe("0.00");
    expect(fixedDecimals(1.5e21, 0)).toBe("1,500,000,000,000,000,000,000");
    expect(fixedDecimals(Infinity, 2)).toBe("∞");
    // A list page's usual figures: a buy level in cents written whole, an average IV with a long
    // binary tail written with one decimal, and a carry through every kept figure.
    expect(fixedDecimals(205.95, 0)).toBe("206");
    expect(fixedDecimals(229.45999999999998, 1)).toBe("229.5");
    expect(fixedDecimals(1_999.96, 1)).toBe("2,000.0");
    expect(fixedDecimals(0.96, 1)).toBe("1.0");
  });

  it("matches Intl.NumberFormat('en-US') for any number and 0 to 4 decimals", () => {
    const intl = [0, 1, 2, 3, 4].map(
      (digits) => new Intl.NumberFormat("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    );
    const prices = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((cents) => cents / 1000);
    fc.assert(
      fc.property(fc.oneof(fc.double(), prices), fc.integer({ min: 0, max: 4 }), (value, digits) => {
        expect(fixedDecimals(value, digits)).toBe(intl[digits]!.format(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
