import type { Page } from "@playwright/test";

/**
 * Waits until the page's scripts have run. They start after the first paint (ADR 0044), so a
 * press before then takes the path without JavaScript: a test of the enhanced behaviour
 * (client validation focusing a field, a link that scrolls and focuses, a popup) waits first.
 */
export async function waitForHydration(page: Page) {
  await page.waitForLoadState("networkidle");
  await interact(page);
  // React hydrates in a transition after the modules load, then renders what only the browser
  // has (enhanced fields, swipe reveals) in a second one, which marks <html data-hydrated>.
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

/**
 * Holds the page's scripts until `release()` is called, as a slow phone gets them seconds after the
 * first paint (ADR 0044), to test what a user does before they run. The page's context must block
 * service workers (`serviceWorkers: "block"`): a worker would answer them from its cache. Navigate
 * with `waitUntil: "domcontentloaded"`: a script asked for before the window's load event holds that
 * event too, so waiting for it would wait for `release()` (a CI run timed out so).
 */
export async function holdScripts(page: Page): Promise<() => void> {
  return holdRequests(page, (url) => url.pathname.startsWith("/assets/") && url.pathname.endsWith(".js"));
}

/**
 * Holds one form's schema module, which loads after the page (ADR 0051): `schema` is its file's
 * name ("auth-schemas"). Resolves once the page has asked for it (so the page has hydrated), with
 * the function that lets it through. The same service-worker rule as holdScripts applies.
 */
export async function holdFormSchema(page: Page, schema: string, url: string): Promise<() => void> {
  const pattern = new RegExp(`/assets/${schema}-[\\w-]+\\.js$`);
  const release = await holdRequests(page, pattern);
  const asked = page.waitForRequest(pattern);
  await page.goto(url);
  await interact(page);
  await asked;
  return release;
}

/**
 * The landing page's scripts wait for the visitor's first interaction (ADR 0061): a press of
 * Shift, which types nothing and moves nothing, is one. Elsewhere it changes nothing.
 */
async function interact(page: Page) {
  await page.keyboard.press("Shift");
}

async function holdRequests(page: Page, url: RegExp | ((url: URL) => boolean)): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
