import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { holdScripts } from "./support/hydration.ts";
import { signIn } from "./support/sign-in.ts";
import { createTrader, expectToast, listReady, recordToasts, row, signInAs } from "./support/watchlist.ts";

/**
 * What a slow phone needs for its first paint (ADRs 0019 and 0044): the server's HTML asks for one
 * stylesheet and for no script before the page has painted — no modulepreload links, no module
 * script; a nonced classic script starts the scripts once a frame is on screen (on the landing
 * page, at the visitor's first interaction: ADR 0061) — and that stylesheet styles every screen.
 */

const card = (page: Page) => page.locator("#auth");

async function htmlOf(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return response.text();
}

function linkOrder(head: string): string[] {
  return [...head.matchAll(/<link\b[^>]*\brel="([^"]+)"/g)].map((m) => m[1]!);
}

test("the landing page and the main screens ask for their one stylesheet and for no script before painting", async ({
  page,
  request,
}) => {
  await signIn(page);
  const pages: [string, APIRequestContext][] = [
    ["/login", request], // not signed in: the landing page itself
    ["/user-stocks", page.request],
    ["/insights", page.request],
    ["/profile", page.request],
  ];
  for (const [path, client] of pages) {
    const html = await htmlOf(client, path);
    const rels = linkOrder(html.slice(0, html.indexOf("</head>")));
    expect(
      rels.filter((rel) => rel === "stylesheet"),
      path,
    ).toHaveLength(1);
    expect(html, `${path} preloads no script`).not.toMatch(/<link\b[^>]*\brel="modulepreload"/);
    expect(html, `${path} has no script the parser would fetch`).not.toMatch(/<script\b[^>]*\b(src=|type="module")/);
    // The module code is still in the page, for after the first paint.
    expect(html, path).toMatch(/import\(\\"\/assets\/entry\.client-[\w-]+\.js\\"\)/);
  }
});

test("the scripts are requested after the first paint, and the page then runs them", async ({ page }) => {
  await signIn(page);
  for (const path of ["/user-stocks", "/insights"]) {
    await page.goto(path);
    // Hydrated: the root marks the document once React has taken it over.
    await expect(page.locator("html[data-hydrated]"), path).toBeAttached();
    const timing = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      scripts: performance
        .getEntriesByType("resource")
        .filter((entry) => new URL(entry.name).pathname.endsWith(".js"))
        .map((entry) => entry.startTime),
    }));
    expect(timing.scripts.length, path).toBeGreaterThan(0);
    expect(Math.min(...timing.scripts), `${path}: first script against first paint`).toBeGreaterThanOrEqual(
      timing.firstPaint,
    );
  }
});

test("the landing page asks for no script until the visitor interacts; the first key press runs them", async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.endsWith(".js")) scripts.push(new URL(request.url()).pathname);
  });
  await page.goto("/login");
  await page.waitForLoadState("networkidle");
  // Read, the page needs no script (ADR 0061): only the worker, registered once the page loaded.
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration("/")) != null))
    .toBe(true);
  expect(scripts.filter((path) => path.startsWith("/assets/"))).toEqual([]);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(0);

  // A key (Shift types nothing) is the first interaction: the scripts load and the page hydrates.
  await page.keyboard.press("Shift");
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  expect(scripts.some((path) => /^\/assets\/entry\.client-[\w-]+\.js$/.test(path))).toBe(true);
  // Hydrated, the password field has its show/hide button.
  await expect(card(page).getByRole("button", { name: "Show" })).toBeVisible();
});

test("what is typed on the landing page while its scripts load is kept when they run, and signs in", async ({
  browser,
}) => {
  // No service worker: it would answer the scripts from its cache, past holdScripts.
  const context = await browser.newContext({ serviceWorkers: "block" });
  const page = await context.newPage();
  const release = await holdScripts(page);
  await page.goto("/login", { waitUntil: "domcontentloaded" });
  // The first focus starts the scripts (ADR 0061); a slow network holds them while the visitor types.
  await page.getByLabel("Username").fill("demo");
  await page.getByLabel("Password", { exact: true }).fill("demo1234");
  release();
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await expect(page.getByLabel("Username")).toHaveValue("demo");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("demo1234");
  // Hydrated, the card sends it with its own code.
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/user-stocks$/);
  await context.close();
});

test("opened on the demo dialog, the landing page runs its scripts at once, so the dialog is a true modal", async ({
  page,
}) => {
  await page.goto("/login?demo=1");
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await expect(page.locator("dialog.demo-modal")).toHaveJSProperty("open", true);
  expect(await page.locator("dialog.demo-modal").evaluate((dialog) => dialog.matches(":modal"))).toBe(true);
});

test("moving between screens keeps the same single stylesheet, and each screen is styled", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["UIP", "Insights", "Trades", "Profile", "Watchlist"]) {
    await nav.getByRole("link", { name }).click();
    await expect(nav.getByRole("link", { name })).toHaveAttribute("aria-current", "page");
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1);
    // The bottom navigation is fixed to the bottom of the screen by the stylesheet.
    expect(await nav.evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
  }
});

test("the toast library and its styles come with the page's first toast, not with the page", async ({ page }) => {
  // Its stylesheet, added after the first paint, restyled the whole list (ADR 0056).
  const toastStyles = () =>
    page.evaluate(
      () => [...document.querySelectorAll("style")].filter((s) => s.textContent?.includes(".Toastify")).length,
    );
  const trader = await createTrader(["MSFT", "KO"]);
  await recordToasts(page);
  await signInAs(page, trader);
  await listReady(page);
  await expect(page.locator(".Toastify")).toHaveCount(0);
  expect(await toastStyles()).toBe(0);

  await row(page, "KO").getByRole("switch", { name: "Recommendations for KO" }).click();
  await expectToast(page, "Recommendation setting updated.");
  expect(await toastStyles()).toBe(1);
});

test.describe("on a network that drops the toast library", () => {
  // The service worker would answer from its copy, out of the route's reach.
  test.use({ serviceWorkers: "block" });

  test("a toast is still shown, as the plain box of a page without scripts, and fades after its time", async ({
    page,
  }) => {
    const trader = await createTrader(["MSFT", "KO"]);
    await signInAs(page, trader);
    await listReady(page);
    await page.route(/\/assets\/toast-container-root-[\w-]+\.js$/, (route) => route.abort("connectionreset"));

    await row(page, "KO").getByRole("switch", { name: "Recommendations for KO" }).click();
    const shown = page.locator(".static-toast--success");
    await expect(shown).toHaveText("Recommendation setting updated.");
    await expect(shown).toHaveAttribute("role", "status");
    await expect(page.locator(".Toastify")).toHaveCount(0);
    // It goes by itself (after the list's 2 s and the fade), never blocking a tap meanwhile.
    await expect(shown).toHaveCSS("pointer-events", "none");
    await expect(shown).toHaveCount(0, { timeout: 5_000 });
  });
});
