import type { Page } from "@playwright/test";

/**
 * Waits until the page's scripts have run. They start after the first paint (ADR 0044), so a
 * press before then takes the path without JavaScript: a test of the enhanced behaviour
 * (client validation focusing a field, a link that scrolls and focuses, a popup) waits first.
 */
export async function waitForHydration(page: Page) {
  await page.waitForLoadState("networkidle");
  // React hydrates in a transition after the modules load, then renders what only the browser
  // has (enhanced fields, swipe reveals) in a second one, which marks <html data-hydrated>.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Holds the page's scripts until `release()` is called, as a slow phone gets them seconds after the
 * first paint (ADR 0044), to test what a user does before they run. The page's context must block
 * service workers (`serviceWorkers: "block"`): a worker would answer them from its cache.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  await page.route(
    (url) => url.pathname.startsWith("/assets/") && url.pathname.endsWith(".js"),
    async (route) => {
      await held;
      await route.continue();
    },
  );
  return release;
}
