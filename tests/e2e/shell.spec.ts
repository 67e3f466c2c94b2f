import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { waitForHydration } from "./support/hydration.ts";

async function signIn(page: Page, username = "demo", password = "demo1234") {
  await page.goto("/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an anonymous visit to any page lands on /login", async ({ page }) => {
      for (const path of ["/", "/user-stocks"]) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/login/);
        await expect(page.getByRole("heading", { name: "Welcome Back" })).toBeVisible();
      }
    });

    test("the demo trader signs in, sees the watchlist in the shell, and signs out", async ({ page }) => {
      await signIn(page);
      await expect(page).toHaveURL(/\/user-stocks$/);
      await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
      await expect(page.getByText("AAPL", { exact: true })).toBeVisible();
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const href of ["/uip-stocks", "/user-stocks", "/insights", "/portfolio", "/profile"]) {
        await expect(nav.locator(`a[href="${href}"]`)).toHaveCount(1);
      }
      await page.getByRole("button", { name: "Log out" }).click();
      await expect(page).toHaveURL(/\/login$/);
      if (javaScriptEnabled) await expect(page.getByText("You have been logged out successfully.")).toBeVisible();
      await page.goto("/user-stocks");
      await expect(page).toHaveURL(/\/login/);
    });

    test("a wrong password keeps the username and says 'Invalid credentials'", async ({ page }) => {
      await signIn(page, "demo", "wrong-password1");
      await expect(page.getByText("Invalid credentials")).toBeVisible();
      await expect(page.getByLabel("Username")).toHaveValue("demo");
    });
  });
}

test("empty fields are refused before anything is sent", async ({ page }) => {
  await page.goto("/login");
  await waitForHydration(page);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel("Username")).toBeFocused();
});

test("the session cookie is httpOnly and SameSite=Lax, and the token is not readable in it", async ({
  page,
  context,
}) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/user-stocks$/);
  const session = (await context.cookies()).find((c) => c.name === "__session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  const decoded = Buffer.from(decodeURIComponent(session!.value).split(".")[0]!, "base64").toString();
  expect(decoded).not.toMatch(/eyJ[\w-]+\.eyJ/); // no JWT in clear
  expect(await page.evaluate(() => document.cookie)).not.toContain("__session");
});
