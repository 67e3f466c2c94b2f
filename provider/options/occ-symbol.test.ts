import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { formatOccSymbol, InvalidOccSymbolError, parseOccSymbol } from "./occ-symbol.ts";

describe("OCC symbols", () => {
  const aapl = { ticker: "AAPL", expiration: "2026-12-18", type: "put" as const, strike: 180 };

  it("builds the compact and the padded form", () => {
    expect(formatOccSymbol(aapl)).toBe("AAPL261218P00180000");
    expect(formatOccSymbol(aapl, { padded: true })).toBe("AAPL  261218P00180000");
    expect(formatOccSymbol({ ...aapl, type: "call", strike: 22.5, ticker: "sofi" })).toBe("SOFI261218C00022500");
  });

  it("parses both forms", () => {
    expect(parseOccSymbol("AAPL261218P00180000")).toEqual(aapl);
    expect(parseOccSymbol("AAPL  261218P00180000")).toEqual(aapl);
    expect(parseOccSymbol("v270115c00287500")).toEqual({
      ticker: "V",
      expiration: "2027-01-15",
      type: "call",
      strike: 287.5,
    });
  });

  it("round-trips", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z][A-Z0-9]{0,5}$/),
        fc.date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2099-12-31T00:00:00Z"), noInvalidDate: true }),
        fc.constantFrom("put" as const, "call" as const),
        fc.integer({ min: 1, max: 99_999_999 }),
        fc.boolean(),
        (ticker, date, type, thousandths, padded) => {
          const parts = { ticker, expiration: date.toISOString().slice(0, 10), type, strike: thousandths / 1000 };
          const symbol = formatOccSymbol(parts, { padded });
          if (padded) expect(symbol).toHaveLength(21);
          expect(parseOccSymbol(symbol)).toEqual(parts);
        },
      ),
    );
  });

  it("rejects malformed input with a readable error", () => {
    expect(() => parseOccSymbol("AAPL")).toThrow(InvalidOccSymbolError);
    expect(() => parseOccSymbol("AAPL261318P00180000")).toThrow(/impossible expiry date/);
    expect(() => formatOccSymbol({ ...aapl, ticker: "TOOLONG" })).toThrow(/OCC root/);
    expect(() => formatOccSymbol({ ...aapl, expiration: "2026-02-30" })).toThrow(/not a date/);
    expect(() => formatOccSymbol({ ...aapl, strike: 0 })).toThrow(/Strike/);
  });
});
