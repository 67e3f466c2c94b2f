import { expect, type Page } from "@playwright/test";

/**
 * Signs in through the login form (works with JavaScript on or off) and waits for the landing page.
 * `origin` is for specs that start an app of their own; the shared one is the base URL.
 */
export async function signIn(page: Page, username = "demo", password = "demo1234", origin = "") {
  await page.goto(`${origin}/login`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/user-stocks$/);
}
