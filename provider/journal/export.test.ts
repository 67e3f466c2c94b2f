import { describe, expect, it } from "vitest";
import { csvCell } from "./export.ts";

/** The CSV export's cell guard (issue 40, finding 7): each way a spreadsheet could still run a cell. */
describe("csvCell", () => {
  it("writes plain text, numbers and empties as they are", () => {
    expect(csvCell("Wheel")).toBe("Wheel");
    expect(csvCell(-12.5)).toBe("-12.5");
    expect(csvCell(null)).toBe("");
    expect(csvCell(undefined)).toBe("");
    expect(csvCell("a - b + c = d @ e")).toBe("a - b + c = d @ e");
  });

  it.each([
    ["a formula", "=1+1", "'=1+1"],
    ["a plus", "+1+1", "'+1+1"],
    ["a minus", "-1+1", "'-1+1"],
    ["an at", "@SUM(A1)", "'@SUM(A1)"],
    ["a leading space", " =1+1", "' =1+1"],
    ["a leading no-break space", "\u00A0=1+1", "'\u00A0=1+1"],
    ["a leading ideographic space", "\u3000=1+1", "'\u3000=1+1"],
    ["a leading zero-width space", "\u200B=1+1", "'\u200B=1+1"],
    ["a leading tab (a separator too: quoted)", "\t=1+1", "\"'\t'=1+1\""],
    ["a leading tab alone", "\tnote", '"\'\tnote"'],
    ["a leading newline", "\n=1+1", "\"'\n'=1+1\""],
    ["a leading carriage return", "\r\n=1+1", "\"'\r\n'=1+1\""],
    ["a fullwidth equals", "\uFF1D1+1", "'\uFF1D1+1"],
    ["a fullwidth plus", "\uFF0B1", "'\uFF0B1"],
    ["a fullwidth minus", "\uFF0D1", "'\uFF0D1"],
    ["a fullwidth at", "\uFF20SUM(A1)", "'\uFF20SUM(A1)"],
    ["a small equals", "\uFE661+1", "'\uFE661+1"],
  ])("neutralises %s", (_name, cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });

  it.each([
    ["semicolons (European locales)", "x;=1+1;y", '"x;\'=1+1;y"'],
    ["semicolons with a space", "x; =1+1", '"x; \'=1+1"'],
    ["a tab", "x\t@SUM(A1)", '"x\t\'@SUM(A1)"'],
    ["a comma", "x,+1", '"x,\'+1"'],
    ["a pipe", "x|-1", '"x|\'-1"'],
    ["a line break", "note\n=1+1", '"note\n\'=1+1"'],
    ["a fullwidth sign after a semicolon", "x;\uFF1D1", '"x;\'\uFF1D1"'],
  ])("quotes a cell holding a separator and neutralises the formula after %s", (_name, cell, written) => {
    expect(csvCell(cell)).toBe(written);
  });

  it("quotes a cell holding a separator even with no formula in it, doubling its quotes", () => {
    expect(csvCell("buy; hold")).toBe('"buy; hold"');
    expect(csvCell('said "hi", then left')).toBe('"said ""hi"", then left"');
  });
});
