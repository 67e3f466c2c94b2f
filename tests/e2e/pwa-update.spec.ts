import { appendFileSync, cpSync, rmSync, symlinkSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";

/**
 * docs/product.md#screens-app-wide, #states-sw-update: a new service-worker version is offered with 'New version available! Refresh
 * now?'; on consent it takes over and the page reloads, the consent is kept (hasAgreedToRefresh)
 * and later versions are taken silently. The app runs here from a copy of the build whose worker
 * file the test changes, as a deployment would.
 */
const ports = ownPorts();
const appPort = ports.app[0]!;
const providerPort = ports.provider[0]!;
const origin = `http://localhost:${appPort}`;
let buildCopy: string;
let app: Started;

test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  const build = path.resolve(process.env.BUILD_DIR ?? "build");
  buildCopy = tempDir("putseller-build-");
  cpSync(path.join(build, "client"), path.join(buildCopy, "client"), { recursive: true });
  // The server bundle stays where its packages resolve from.
  symlinkSync(path.join(build, "server"), path.join(buildCopy, "server"), "dir");
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: tempDir("putseller-update-"),
      SEED_DEMO: "true",
      SESSION_SECRET: "pwa-update-session-secret-0123456789abcdef",
      BUILD_DIR: buildCopy,
    },
    origin,
  );
});

test.afterAll(async () => {
  await app?.stop();
  if (buildCopy) rmSync(buildCopy, { recursive: true, force: true });
});

/** A new deployment: the worker file changes (the browser compares it byte by byte). */
function deployNewWorker(version: number): void {
  appendFileSync(path.join(buildCopy, "client/service-worker.js"), `\n// deployment ${version}\n`);
}

/** The browser looks for a new worker (as it does on a page load or when the app comes back). */
async function lookForUpdate(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration("/");
    await registration?.update();
  });
}

/** Page loads and prompts counted so far in this tab, and the stored consent (null while the page reloads). */
const state = (page: Page) =>
  page
    .evaluate(() => ({
      loads: Number(sessionStorage.getItem("__loads")),
      prompts: Number(sessionStorage.getItem("__prompts")),
      agreed: localStorage.getItem("hasAgreedToRefresh"),
    }))
    .catch(() => null);

test("a new version is offered once; after consent it takes over with a reload, and later versions update silently", async ({
  page,
}) => {
  // Counts page loads and prompts shown, across reloads of this tab.
  await page.addInitScript(() => {
    sessionStorage.setItem("__loads", String(Number(sessionStorage.getItem("__loads")) + 1));
    new MutationObserver(() => {
      const prompt = document.querySelector('[role="alertdialog"]');
      if (prompt && !(prompt as HTMLElement).dataset.counted) {
        (prompt as HTMLElement).dataset.counted = "1";
        sessionStorage.setItem("__prompts", String(Number(sessionStorage.getItem("__prompts")) + 1));
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const cdp = await page.context().newCDPSession(page);
  const activated = new Set<string>();
  cdp.on("ServiceWorker.workerVersionUpdated", ({ versions }) => {
    for (const v of versions)
      if (v.status === "activated" && v.scriptURL.startsWith(origin)) activated.add(v.versionId);
  });
  await cdp.send("ServiceWorker.enable");

  // A public page whose scripts run after its first paint: the landing page's wait for an
  // interaction (ADR 0061), and the prompt with them.
  await page.goto(`${origin}/track-record`);
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 30_000 });
  await expect.poll(() => activated.size).toBe(1);
  const prompt = page.getByRole("alertdialog");
  // The first worker of a visit replaces nothing: no question.
  await expect(prompt).toHaveCount(0);
  expect(await state(page)).toEqual({ loads: 1, prompts: 0, agreed: null });

  // Version 2 waits; 'Later' leaves it waiting, and it is offered again on the next visit.
  deployNewWorker(2);
  await lookForUpdate(page);
  await expect(prompt).toHaveText(/New version available! Refresh now\?/);
  await prompt.getByRole("button", { name: "Later" }).click();
  await expect(prompt).toHaveCount(0);
  expect(await state(page)).toEqual({ loads: 1, prompts: 1, agreed: null });
  await page.reload();
  await expect(prompt).toBeVisible();
  expect(activated.size).toBe(1);

  // Consent: it takes over and the page reloads once.
  await prompt.getByRole("button", { name: "Refresh" }).click();
  await expect.poll(async () => (await state(page))?.loads).toBe(3);
  await expect.poll(() => activated.size).toBe(2);
  expect(await state(page)).toEqual({ loads: 3, prompts: 2, agreed: "true" });
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null);

  // Version 3: no question any more; it takes over and the page reloads by itself. Here it is
  // found while a page's scripts have not run yet (they start after the first paint, ADR 0044):
  // its install (the worker fetching the build's files) is held until that page has started.
  let release = () => {};
  const installHeld = new Promise<void>((resolve) => (release = resolve));
  await page.context().route(/\/assets\/[^/]+\.js$/, async (route) => {
    if (route.request().serviceWorker()) await installHeld;
    await route.continue();
  });
  deployNewWorker(3);
  await lookForUpdate(page);
  const installing = () =>
    page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration("/"))?.installing));
  await expect.poll(installing).toBe(true);
  await page.reload();
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
  expect(await installing()).toBe(true);
  release();
  await expect.poll(async () => (await state(page))?.loads).toBe(5);
  await expect.poll(() => activated.size).toBe(3);
  await expect(prompt).toHaveCount(0);
  expect(await state(page)).toEqual({ loads: 5, prompts: 2, agreed: "true" });
  const registration = await page.evaluate(async () => {
    const r = await navigator.serviceWorker.getRegistration("/");
    return { waiting: Boolean(r?.waiting), installing: Boolean(r?.installing), active: r?.active?.state };
  });
  expect(registration).toEqual({ waiting: false, installing: false, active: "activated" });
});
