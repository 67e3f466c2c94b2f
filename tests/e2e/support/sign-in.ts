import { expect, type Page } from "@playwright/test";
import { LOGIN_INTENT } from "#app/lib/login-intents.ts";

/**
 * Starts a session for a spec that needs one and is not about signing in: posts the login form as
 * the page would without JavaScript, with the page's own cookies (`page.request` shares them), then
 * opens the page the form lands on. The /login page itself and its form, with JavaScript on and
 * off, are auth.spec's and shell.spec's; drawing it before each of a hundred tests took 24 s of
 * the suite's 6.6 minutes (docs/decisions/0062-browser-suite-traces-on-retry-sessions-by-post.md).
 * `origin` is for specs that start an app of their own; the shared one is the base URL.
 */
export async function signIn(page: Page, username = "demo", password = "demo1234", origin = "") {
  const posted = await page.request.post(`${origin}/login`, {
    form: { intent: LOGIN_INTENT.login, username, password },
    maxRedirects: 0,
  });
  expect(posted.status(), `signing in as ${username}`).toBe(302);
  const landing = posted.headers().location ?? "";
  expect(landing).toBe("/user-stocks");
  await page.goto(`${origin}${landing}`);
  await expect(page).toHaveURL(/\/user-stocks$/);
}
