import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { chromiumArgs, playwrightDisabledFeatures } from "../../playwright.config.ts";

/**
 * The browser suite passes its own `--disable-features`, and Chromium keeps only the last one, so
 * it must repeat every feature Playwright turns off (a Playwright upgrade can change that list).
 */
describe("the browser suite's Chromium flags", () => {
  it("keep every feature the installed Playwright turns off", () => {
    const bundle = readFileSync(createRequire(import.meta.url).resolve("playwright-core/lib/coreBundle"), "utf8");
    const list = /disabledFeatures = \[([\s\S]*?)\]/.exec(bundle)?.[1];
    expect(list, "Playwright's list of disabled features was not found in playwright-core").toBeDefined();
    const theirs = [...list!.matchAll(/^\s*"(\w+)"/gm)].map((m) => m[1]);
    expect(theirs.length).toBeGreaterThan(5);
    expect([...playwrightDisabledFeatures].sort()).toEqual([...theirs].sort());
  });

  it("pass one --disable-features holding Playwright's list and the address bar's popups", () => {
    const flags = chromiumArgs.filter((a) => a.startsWith("--disable-features="));
    expect(flags).toHaveLength(1);
    const features = flags[0]!.slice("--disable-features=".length).split(",");
    expect(features).toEqual(expect.arrayContaining([...playwrightDisabledFeatures, "WebUIOmniboxPopup"]));
  });
});
