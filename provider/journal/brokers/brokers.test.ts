import { describe, expect, it } from "vitest";
import { readCsv } from "./csv.ts";
import { zonedToIso } from "./zone.ts";

describe("broker clocks", () => {
  it("reads US Eastern wall-clock times across the daylight-saving changes", () => {
    // EST is UTC−5 in January, EDT UTC−4 in July; 2026's change is Sunday 8 March at 02:00 local.
    expect(zonedToIso("2026-01-05", "10:31:12")).toBe("2026-01-05T15:31:12.000Z");
    expect(zonedToIso("2026-07-17", "16:20")).toBe("2026-07-17T20:20:00.000Z");
    expect(zonedToIso("2026-03-06", "16:00:00")).toBe("2026-03-06T21:00:00.000Z");
    expect(zonedToIso("2026-03-09", "16:00:00")).toBe("2026-03-09T20:00:00.000Z");
  });
});

describe("reading CSV", () => {
  it("numbers records by the line they start on, keeps quoted commas and line breaks, skips blank rows", async () => {
    const { records, unreadable } = await readCsv('\uFEFFa,b\r\n"x, y","two\nlines"\n\n , \nlast,1');
    expect(unreadable).toBeNull();
    expect(records.map((r) => [r.line, r.cells])).toEqual([
      [1, ["a", "b"]],
      [2, ["x, y", "two\nlines"]],
      [6, ["last", "1"]],
    ]);
    expect(records[1]!.text).toBe('"x, y","two\nlines"');
  });

  it("a file cut short inside a quote keeps the lines before and refuses the line the quote opens on", async () => {
    const { records, unreadable } = await readCsv('a,b\n1,2\n3,"never closed\n4,5\n');
    expect(records.map((r) => r.line)).toEqual([1, 2]);
    expect(unreadable).toMatchObject({
      line: 3,
      refused: "A quote opened here is never closed, so the file cannot be read from this line on (is it cut short?)",
    });
  });
});
