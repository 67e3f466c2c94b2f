import { describe, expect, it } from "vitest";
import { escapeHtml } from "./html.ts";
import { levelsHtml, nameLineHtml, priceLineHtml } from "./stock-row-html.ts";

/** What a screen reader or a reader of the page gets: the markup's text, character references read. */
function textOf(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

describe("a list row's fixed text as HTML", () => {
  it("writes the ticker and the price, green and said so when the average IV is above it", () => {
    // AMZN at 228.71 with an average IV of 234.4: below IV, so green.
    const green = priceLineHtml("AMZN", 228.71, 234.4).__html;
    expect(green).toContain('class="price price--green">228.71<');
    expect(textOf(green)).toBe("AMZN228.71, below intrinsic value");
    // At 250 the price is above the IV: grey, and no note.
    const grey = priceLineHtml("AMZN", 250, 234.4).__html;
    expect(grey).toContain("price--grey");
    expect(textOf(grey)).toBe("AMZN250.00");
  });

  it("cuts a long name at 45 characters and keeps the whole one for hover", () => {
    const name = "The Extraordinarily Long Named Holding Company of America Inc.";
    const html = nameLineHtml(name, 1234.56).__html;
    expect(textOf(html)).toBe(`${name.slice(0, 45)}...Intrinsic value 1,234.6`);
    expect(html).toContain(`title="${name}"`);
    // A short name has no title: it would only repeat itself.
    expect(nameLineHtml("Apple Inc.", 180).__html).not.toContain("title=");
  });

  it("names each buy level and says which ones the price has reached", () => {
    // Price 200: levels at or above it are reached (green), those below are not (grey).
    const html = levelsHtml([210, 200, 178, 160], 200).__html;
    expect(textOf(html)).toBe(
      "1st buy level (reached) 2102nd buy level (reached) 2003rd buy level 1784th buy level 160",
    );
    // Grey is a level's own colour; a reached one adds green (app/styles/app.css).
    expect([...html.matchAll(/class="([^"]*)"/g)].map((m) => m[1]).filter((c) => c!.startsWith("level"))).toEqual([
      "level level--green",
      "level level--green",
      "level",
      "level",
    ]);
  });

  it("writes a name with markup in it as text, never as markup", () => {
    // Names come from market data and from admins: one that looks like HTML stays words on the page.
    const name = `<img src=x onerror="alert(1)"> & 'Sons' <script>alert(2)</script> Corporation of the Long Name`;
    const html = nameLineHtml(name, 10).__html;
    expect(html).not.toMatch(/<img|<script/);
    expect(textOf(html)).toBe(`${name.slice(0, 45)}...Intrinsic value 10.0`);
    // The title attribute cannot be closed early by a quote in the name.
    const title = /title="([^"]*)"/.exec(html)?.[1];
    expect(title).toBe(escapeHtml(name));
    expect(textOf(priceLineHtml("<B>", 1, 2).__html)).toBe("<B>1.00, below intrinsic value");
  });
});

describe("escapeHtml", () => {
  it("replaces the five characters HTML gives a meaning to, and only those", () => {
    expect(escapeHtml(`a<b>&"c'`)).toBe("a&#60;b&#62;&#38;&#34;c&#39;");
    expect(escapeHtml("Johnson · Johnson 1,234.5")).toBe("Johnson · Johnson 1,234.5");
  });
});
