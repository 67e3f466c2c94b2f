import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { holdScripts, waitForHydration } from "./support/hydration.ts";
import { card, flaggedTrader, generateAs, optionsOf } from "./support/insights.ts";
import * as calls from "#contract/calls.ts";
import {
  createTrader,
  expectToast,
  providerCall,
  recordToasts,
  shownTickers,
  signInAs,
  watchlistOf,
} from "./support/watchlist.ts";

/**
 * Issue 46, "every figure and word agrees", in the browser: text typed before the scripts ran
 * filters once they run (ADR 0084), a conservative value left empty is announced (ADR 0083), odd
 * values are warned about and can be accepted, the option detail discloses what it was priced
 * with, and at 390 px nothing on /insights with the filters open or on the option detail is cut
 * or overlapping (checked by element bounds).
 */
test.describe.configure({ timeout: 90_000 });

test.describe("typed before the scripts ran (ADR 0084)", () => {
  test("the watchlist search filters by what the box held when the scripts ran", async ({ browser }) => {
    const trader = await createTrader(["AAPL", "MSFT", "KO"]);
    // No service worker: it would answer the scripts from its cache, past holdScripts.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await signInAs(page, trader);
    const release = await holdScripts(page);
    await page.goto("/user-stocks", { waitUntil: "domcontentloaded" });
    await page.getByRole("searchbox", { name: "Search by ticker" }).fill("MS");
    release();
    await waitForHydration(page);
    await expect.poll(() => shownTickers(page)).toEqual(["MSFT"]);
    await expect(page).toHaveURL(/[?&]q=MS\b/);
    await context.close();
  });

  test("the recommendations' name search filters by what the box held when the scripts ran", async ({ browser }) => {
    const trader = await flaggedTrader(["AAPL", "MSFT"]);
    for (const ticker of ["AAPL", "MSFT"]) expect((await generateAs(trader, ticker)).status).toBe(200);
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await signInAs(page, trader);
    const release = await holdScripts(page);
    await page.goto("/insights", { waitUntil: "domcontentloaded" });
    await expect(card(page, "AAPL")).toBeVisible();
    await page.getByRole("searchbox", { name: "Search by name" }).fill("Microsoft");
    release();
    await waitForHydration(page);
    await expect(card(page, "AAPL")).toHaveCount(0);
    await expect(card(page, "MSFT")).toBeVisible();
    await context.close();
  });
});

test.describe("inputs taken as meant (ADR 0083)", () => {
  test("an empty Cons Value is announced on the card: the UIP list's value is used", async ({ page }) => {
    // Added with Cons Value left empty: stored as 0.
    const trader = await createTrader([{ ticker: "MSFT", conservative_iv: 0 }]);
    const [row] = await watchlistOf(trader);
    expect(row!.conservative_iv).toBe(0);
    const flagged = await providerCall(trader.providerUrl, calls.updateUserStock, {
      token: trader.token,
      params: { id: row!.id },
      body: { generate_recommendation: true },
    });
    expect(flagged.status).toBe(200);
    expect((await generateAs(trader, "MSFT")).status).toBe(200);
    await signInAs(page, trader);
    await page.goto("/insights");
    await expect(card(page, "MSFT").getByTestId("conservative-notice")).toContainText(
      /Your conservative value for MSFT is not set: puts are held to the UIP list’s \$\d/,
    );
  });

  test("Cons above Base is warned about, kept on the page, and saved once accepted", async ({ page }) => {
    await recordToasts(page);
    const trader = await createTrader(["KO"]);
    await signInAs(page, trader);
    await page.goto("/user-stock/KO");
    await waitForHydration(page);
    await page.getByLabel("Base Value").fill("50");
    await page.getByLabel("Cons Value").fill("60");
    await page.getByRole("button", { name: "Save Changes" }).click();
    const warnings = page.getByTestId("level-warnings");
    await expect(warnings).toContainText("Cons Value ($60.00) is above Base Value ($50.00)");
    await expect(page.getByLabel("Cons Value")).toHaveValue("60");
    await warnings.getByLabel("Save them as they are").check();
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "KO updated successfully!");
  });
});

/** Elements of `scope` whose box leaves the viewport's width, whose text is cut, or that overlap a sibling. */
async function layoutProblems(scope: Locator, selector: string): Promise<string[]> {
  return scope.evaluate((root, sel) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    const items = [...root.querySelectorAll<HTMLElement>(sel)].filter((el) => el.getClientRects().length > 0);
    const name = (el: HTMLElement) => `${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    for (const el of items) {
      const box = el.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5) problems.push(`${name(el)} leaves the screen`);
      const style = getComputedStyle(el);
      if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== "visible") problems.push(`${name(el)} is cut`);
    }
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i]!;
        const b = items[j]!;
        if (a.contains(b) || b.contains(a)) continue;
        const p = a.getBoundingClientRect();
        const q = b.getBoundingClientRect();
        const overlap =
          Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1 &&
          Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1;
        if (overlap) problems.push(`${name(a)} overlaps ${name(b)}`);
      }
    }
    return problems;
  }, selector);
}

async function clearOfNavigation(page: Page, field: Locator) {
  await field.focus();
  const nav = await page.getByRole("navigation", { name: /main/i }).first().boundingBox();
  const box = await field.boundingBox();
  if (nav && box) expect(box.y + box.height).toBeLessThanOrEqual(nav.y + 1);
}

test.describe("at 390 px (issue 46)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("/insights with the filters open: fields and checkboxes apart, nothing cut, clear of the navigation", async ({
    page,
  }) => {
    const trader = await flaggedTrader(["AAPL"]);
    expect((await generateAs(trader, "AAPL")).status).toBe(200);
    await signInAs(page, trader);
    await page.goto("/insights?open=AAPL");
    await waitForHydration(page);
    await page.locator("summary", { hasText: "Your filters" }).click();
    const panel = page.locator(".ins-trader-filters");
    await expect(panel.getByLabel("Commission per contract ($)")).toBeVisible();
    expect(await layoutProblems(panel, ".ins-check, .ins-field, .ins-trader-filters__actions .button")).toEqual([]);
    expect(await layoutProblems(panel, ".ins-field label, .ins-check")).toEqual([]);
    await clearOfNavigation(page, panel.getByLabel("Commission per contract ($)"));
    const cards = page.locator(".ins-option");
    await expect(cards.first()).toBeVisible();
    expect(await layoutProblems(cards.first(), ".ins-figure dt, .ins-figure dd")).toEqual([]);
  });

  test("the option detail: nothing cut or overlapping, and the dividend yield and rate it was priced with", async ({
    page,
  }) => {
    const trader = await flaggedTrader(["AAPL"]);
    expect((await generateAs(trader, "AAPL")).status).toBe(200);
    const [first] = await optionsOf(trader, "AAPL");
    await signInAs(page, trader);
    await page.goto(`/recommendation/${first!.id}`);
    const dialog = page.getByRole("dialog", { name: "Sell Put Options" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("detail-dividend-yield")).toHaveText(
      `Dividend yield ${((first!.dividend_yield ?? 0) * 100).toFixed(2)}%`,
    );
    await expect(dialog.getByTestId("detail-pricing-source")).toContainText(
      `T-bill rate ${(first!.rate * 100).toFixed(2)}%`,
    );
    expect(await layoutProblems(dialog, ".ins-stat, .ins-stat h3, .ins-stat__value")).toEqual([]);
  });

  test("every strike that passes the filters is reachable: 'Show all n puts'", async ({ page }) => {
    const trader = await flaggedTrader(["MSFT"]);
    expect((await generateAs(trader, "MSFT")).status).toBe(200);
    await signInAs(page, trader);
    // A wide |delta| range admits more than three strikes an expiry.
    await page.goto(
      "/insights?open=MSFT&delta_min=0&delta_max=0.6&min_open_interest=0&at_or_below_conservative=0&skip_earnings=0",
    );
    const stock = card(page, "MSFT");
    await expect(stock.getByTestId("option-card")).toHaveCount(3);
    const showAll = stock.getByTestId("show-all");
    const total = Number(/Show all (\d+) puts/.exec((await showAll.textContent()) ?? "")![1]);
    expect(total).toBeGreaterThan(3);
    await showAll.click();
    await expect(stock.getByTestId("option-card")).toHaveCount(total);
  });
});
