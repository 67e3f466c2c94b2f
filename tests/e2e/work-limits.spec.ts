import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { recordToasts, row } from "./support/watchlist.ts";
import { signIn } from "./support/sign-in.ts";

/**
 * Issue 19 item 6 through the real build: a trader past their generations or AI texts for the
 * minute (README "Security and limits") reads the provider's wait, as a toast or in the AI modal,
 * never a crash; the generate form keeps the ticker typed. An app of its own with limits of one a
 * minute (the shared app lifts them so other specs are not throttled).
 */
const ports = ownPorts();
const appPort = ports.app[0]!;
const appUrl = `http://localhost:${appPort}`;
const WAIT = (what: string) => new RegExp(`^Too many ${what}\\. Please wait \\d+ seconds? and try again\\.$`);
let app: Started;
// Sign-in, a generation and an AI text each: slow on a busy 2-core machine.
test.describe.configure({ timeout: 90_000 });

test.beforeAll(async () => {
  // Starting a server (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_PORT: String(ports.provider[0]!),
      DATA_DIR: tempDir("putseller-limits-"),
      SEED_DEMO: "true",
      SESSION_SECRET: "work-limits-session-secret-work-limits-0123456",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      GENERATIONS_PER_MINUTE: "1",
      AI_TEXTS_PER_MINUTE: "1",
    },
    appUrl,
  );
});

test.afterAll(async () => {
  await app?.stop();
});

async function signInAsDemo(page: Page) {
  await recordToasts(page);
  await signIn(page, "demo", "demo1234", appUrl);
}

const toasts = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __toasts?: { text: string }[] }).__toasts ?? []).map((t) => t.text));

test("a second generation in the minute says how long to wait, and keeps the ticker typed", async ({ page }) => {
  await signInAsDemo(page);
  await page.goto(`${appUrl}/insights`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  const input = page.getByLabel("Generate for a ticker");
  const generate = page.getByRole("button", { name: "Generate" });

  await input.fill("AAPL");
  await generate.click();
  // The first generation runs. Whether a put passes the demo trader's filters depends on where the
  // simulated market stands at that hour, so either answer of a generation that ran will do.
  await expect
    .poll(() => toasts(page))
    .toContainEqual(
      expect.stringMatching(/^(Generated \d+ recommendations? for AAPL|No put of AAPL passed your filters\b.*)$/),
    );

  await input.fill("MSFT");
  await generate.click();
  await expect.poll(() => toasts(page)).toContainEqual(expect.stringMatching(WAIT("recommendation generations")));
  await expect(input).toHaveValue("MSFT");
  await expect(page.getByRole("heading", { name: "Recommendations", level: 1 })).toBeVisible();
});

test("a second AI text in the minute says how long to wait in the modal", async ({ page }) => {
  await signInAsDemo(page);
  await page.goto(`${appUrl}/uip-stocks`);
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
  await row(page, "AAPL").locator(".main").tap();
  await row(page, "AAPL").getByRole("link", { name: "AI analysis" }).click();
  const modal = page.getByRole("dialog", { name: "AI analysis: AAPL" });
  await expect(modal.locator(".ai-text__body")).toContainText("AAPL", { timeout: 20_000 });

  await modal.getByRole("link", { name: "Close" }).last().click();
  await expect(modal).toHaveCount(0);
  await row(page, "AAPL").getByRole("link", { name: "AI analysis" }).click();
  await expect(modal.getByRole("alert")).toHaveText(WAIT("AI texts"));

  // The same when the server renders the modal (a link opened afresh, or no JavaScript).
  await page.goto(`${appUrl}/uip-stocks?ai=AAPL`);
  await expect(page.getByRole("dialog", { name: "AI analysis: AAPL" }).getByRole("alert")).toHaveText(WAIT("AI texts"));
});
