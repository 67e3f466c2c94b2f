import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { chromiumArgs } from "../../playwright.config.ts";
import type { BenchApp } from "./bench-app.ts";

/** The test Chromium (`/usr/bin/chromium`, or CHROMIUM_PATH) with the browser tests' flags. */
export function launchBenchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: chromiumArgs });
}

/**
 * A fresh phone-sized context signed in as the bench trader, without the service worker (a
 * measured load is the page's own, never a copy the worker kept).
 */
export async function signedInContext(browser: Browser, app: BenchApp): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, serviceWorkers: "block" });
  const [name, value] = app.cookie.split(";")[0]!.split("=");
  await context.addCookies([{ name: name!, value: value!, url: app.url }]);
  return context;
}
