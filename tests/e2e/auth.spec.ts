import { readFileSync } from "node:fs";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { startGoogleApp, type GoogleApp } from "./support/google-app.ts";
import { holdFormSchema, waitForHydration } from "./support/hydration.ts";
import { embeddedProviderUrl } from "./support/ports.ts";
import { messages } from "#app/lib/messages.ts";

/**
 * Issue 3: the landing page at /login, the auth card's three modes, registration, password
 * reset through the mail outbox, rate limits, and Google sign-in through the Firebase Auth emulator.
 */
const PROVIDER_URL = embeddedProviderUrl();
const GAPI_STAND_IN = readFileSync(new URL("./support/gapi-stand-in.js", import.meta.url), "utf8");

let counter = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/**
 * Each test speaks from its own client address (the app trusts X-Forwarded-For from loopback),
 * so the provider's per-IP limits of one test never touch another.
 */
async function ownAddress(page: Page) {
  const ip = `198.18.${Math.floor(Math.random() * 250) + 1}.${(counter++ % 250) + 1}`;
  await page.setExtraHTTPHeaders({ "x-forwarded-for": ip });
}

const card = (page: Page) => page.locator("#auth");

/** Whether the current test's pages run their scripts (set by the JavaScript on/off loop below). */
let scripted = true;
test.beforeEach(() => {
  scripted = true;
});

/** Opens a page and, when its scripts run, waits for them: a press before takes the path without them (ADR 0044). */
async function open(page: Page, url: string) {
  await page.goto(url);
  if (scripted) await waitForHydration(page);
}

async function signUp(page: Page, user: { username: string; email: string; password: string; confirm?: string }) {
  await open(page, "/login?mode=signup");
  await page.getByLabel("First Name").fill("Pat");
  await page.getByLabel("Last Name").fill("Seller");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Confirm Password").fill(user.confirm ?? user.password);
  await page.getByRole("button", { name: "Create Account" }).click();
}

async function signIn(page: Page, username: string, password: string) {
  await open(page, "/login");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

/** The newest reset link mailed to `email`, read from the outbox through the provider's admin API. */
async function resetLinkFromOutbox(request: APIRequestContext, email: string): Promise<string> {
  const login = await request.post(`${PROVIDER_URL}/auth/token`, {
    form: { username: "admin", password: "admin1234" },
  });
  const { access_token } = (await login.json()) as { access_token: string };
  const res = await request.get(`${PROVIDER_URL}/api/admin/mail-outbox`, {
    params: { to: email },
    headers: { authorization: `Bearer ${access_token}` },
  });
  expect(res.ok()).toBe(true);
  const mails = (await res.json()) as { subject: string; body_text: string }[];
  expect(mails[0]?.subject).toBe("Reset your PutSeller password");
  const link = /https?:\/\/\S+\/reset-password\?token=\S+/.exec(mails[0]!.body_text)?.[0];
  expect(link).toBeTruthy();
  return link!;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    test.beforeEach(async ({ page }) => {
      scripted = javaScriptEnabled;
      await ownAddress(page);
    });

    test("the landing page has its hero, statistics, features, rated testimonials and trust badges", async ({
      page,
    }) => {
      await open(page, "/login");
      await expect(page.getByRole("heading", { level: 1, name: "Sell puts with a plan, not a hunch." })).toBeVisible();
      await expect(page.getByRole("link", { name: "Get Started Free" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Watch Demo" })).toBeVisible();
      const stats = page.getByRole("region", { name: "PutSeller in numbers" });
      for (const label of [
        "Realised return on the cash set aside",
        "Recommended puts that expired worthless",
        "Puts priced in the latest session",
        "Stocks followed",
      ]) {
        await expect(stats.getByText(label, { exact: true })).toBeVisible();
      }
      // Measured figures only (tests/e2e/track-record.spec.ts checks them against the provider's).
      await expect(stats).not.toContainText("12,000+");
      await expect(stats).not.toContainText("4.8/5");
      await expect(
        page.getByRole("region", { name: "Everything a put seller needs, on your phone" }).getByRole("listitem"),
      ).toHaveCount(6);
      const testimonials = page.getByRole("region", { name: "Traders who sell puts with PutSeller" });
      await expect(testimonials.locator("figure")).toHaveCount(3);
      await expect(testimonials.getByRole("img", { name: /^Rated [1-5] out of 5$/ })).toHaveCount(3);
      await expect(page.getByRole("region", { name: "Built to be trusted" }).getByRole("listitem")).toHaveCount(4);
      await expect(page.getByText("No credit card required")).toBeVisible();
    });

    test("the card's modes live in the URL and are reached by their links", async ({ page }) => {
      await open(page, "/login");
      await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
      await expect(page.getByLabel("Username")).toBeVisible();
      await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
      await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Continue with Apple" })).toBeVisible();

      await page.getByRole("link", { name: "Create Account" }).click();
      await expect(page).toHaveURL(/\/login\?mode=signup/);
      await expect(card(page).getByRole("heading", { name: "Join PutSeller" })).toBeVisible();
      for (const label of ["First Name", "Last Name", "Email", "Username", "Confirm Password"]) {
        await expect(page.getByLabel(label)).toBeVisible();
      }
      await expect(page.getByLabel("Password", { exact: true })).toBeVisible();
      await card(page).getByRole("link", { name: "Sign In" }).click();
      await expect(page).toHaveURL(/mode=login/);
      await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();

      await page.getByRole("link", { name: "Forgot Password?" }).click();
      await expect(page).toHaveURL(/mode=forgot/);
      await expect(card(page).getByRole("heading", { name: "Reset Password" })).toBeVisible();
      await expect(page.getByLabel("Email")).toBeVisible();
      await page.getByRole("link", { name: "Back to Login" }).click();
      await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();

      // Signup shows 'Back to Login' too, and a mode can be linked directly.
      await open(page, "/login?mode=signup");
      await page.getByRole("link", { name: "Back to Login" }).click();
      await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    });

    test("signing up returns to login with the success toast, and the new account signs in", async ({ page }) => {
      const username = unique("trader");
      await signUp(page, { username, email: `${username}@example.com`, password: "first-pass1" });
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("Account created successfully! Please log in.")).toBeVisible();
      await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
      await signIn(page, username, "first-pass1");
      await expect(page).toHaveURL(/\/user-stocks$/);
      await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
    });

    test("signup says 'Passwords do not match' and sends nothing when they differ", async ({ page }) => {
      const posts: string[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST") posts.push(r.url());
      });
      const username = unique("mismatch");
      await signUp(page, {
        username,
        email: `${username}@example.com`,
        password: "first-pass1",
        confirm: "first-pass2",
      });
      await expect(page.getByText("Passwords do not match")).toBeVisible();
      await expect(page.getByLabel("Confirm Password")).toHaveAttribute("aria-invalid", "true");
      // Without JavaScript the server checks the same rule; with it, the form is never sent.
      expect(posts).toHaveLength(javaScriptEnabled ? 0 : 1);
      await expect(page.getByLabel("Username")).toHaveValue(username);
      // The account was not created.
      await signIn(page, username, "first-pass1");
      await expect(page.getByText("Invalid credentials")).toBeVisible();
    });

    test("signup requires every field and states the password policy", async ({ page }) => {
      await open(page, "/login?mode=signup");
      await page.getByRole("button", { name: "Create Account" }).click();
      if (javaScriptEnabled) {
        await expect(page.getByText("First name is required")).toBeVisible();
        for (const text of [
          "Last name is required",
          "Email is required",
          "Username is required",
          "Password is required",
          "Please confirm your password",
        ]) {
          await expect(page.getByText(text)).toBeVisible();
        }
      } else {
        // The browser's own required-field check stops the empty form; the server would say the same.
        await expect(page).toHaveURL(/mode=signup$/);
        await expect(page.getByLabel("First Name")).toHaveJSProperty("validity.valueMissing", true);
      }
      const username = unique("weak");
      await signUp(page, { username, email: `${username}@example.com`, password: "weakweak" });
      await expect(
        page.getByText("Password must be 8 to 128 characters and contain a letter and a digit"),
      ).toBeVisible();
      await expect(page.getByText("At least 8 characters, with a letter and a digit.")).toBeVisible();
    });

    test("signup shows the server's detail for a taken username and keeps what was typed", async ({ page }) => {
      await signUp(page, { username: "demo", email: `${unique("someone")}@example.com`, password: "first-pass1" });
      await expect(page.getByText("The username 'demo' is already taken")).toBeVisible();
      await expect(page.getByLabel("First Name")).toHaveValue("Pat");
      await expect(page.getByLabel("Username")).toHaveValue("demo");
      // The password is never sent back in the page; with JavaScript the field simply keeps it.
      if (!javaScriptEnabled) await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    });

    test("sign-in needs both fields, and a wrong password says 'Invalid credentials'", async ({ page }) => {
      await open(page, "/login");
      if (!javaScriptEnabled) {
        // The server checks too: remove the browser's own check to reach it.
        await page.locator("#login").evaluate((form: HTMLFormElement) => (form.noValidate = true));
      }
      await page.getByRole("button", { name: "Sign In" }).click();
      await expect(page.getByText("Username is required")).toBeVisible();
      await expect(page.getByText("Password is required")).toBeVisible();
      await signIn(page, "demo", "not-the-password1");
      await expect(page.getByText("Invalid credentials")).toBeVisible();
    });

    test("after 5 failed sign-ins the card says to wait, even for the right password", async ({ page }) => {
      const username = unique("locked");
      await signUp(page, { username, email: `${username}@example.com`, password: "right-pass1" });
      // Tried again on the same page, as a trader would: no reload between the attempts.
      await open(page, "/login");
      const attempt = async (password: string) => {
        await page.getByLabel("Username").fill(username);
        await page.getByLabel("Password", { exact: true }).fill(password);
        const answered = page.waitForResponse((response) => response.request().method() === "POST");
        await page.getByRole("button", { name: "Sign In" }).click();
        await answered;
      };
      for (let i = 0; i < 5; i++) {
        await attempt(`wrong-pass${i}`);
        await expect(page.getByText("Invalid credentials")).toBeVisible();
      }
      await attempt("right-pass1");
      await expect(card(page).getByRole("alert")).toHaveText(
        "Too many sign-in attempts. Please wait 15 minutes and try again.",
      );
      await expect(page).toHaveURL(/\/login/);
    });

    test("forgot password answers with the toast for any email, and requires one", async ({ page }) => {
      await open(page, "/login?mode=forgot");
      if (!javaScriptEnabled)
        await page.locator("#forgot").evaluate((form: HTMLFormElement) => (form.noValidate = true));
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await expect(page.getByText("Email is required")).toBeVisible();
      await page.getByLabel("Email").fill(`${unique("nobody")}@example.com`);
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("Password reset instructions sent to your email")).toBeVisible();
      await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    });

    test("a full reset by mail from the outbox: new password works once, the old one no more", async ({
      page,
      request,
    }) => {
      // Nine page loads, each waiting for its scripts and their network to settle: more than the
      // default 30 s on a 2-core machine that runs two browsers.
      test.setTimeout(60_000);
      const username = unique("resetter");
      const email = `${username}@example.com`;
      await signUp(page, { username, email, password: "old-pass1" });
      await expect(page.getByText("Account created successfully! Please log in.")).toBeVisible();
      await open(page, "/login?mode=forgot");
      await page.getByLabel("Email").fill(email);
      await page.getByRole("button", { name: "Send Reset Link" }).click();
      await expect(page.getByText("Password reset instructions sent to your email")).toBeVisible();

      const link = await resetLinkFromOutbox(request, email);
      expect(new URL(link).origin).toBe(new URL(page.url()).origin);
      await open(page, link);
      await expect(page.getByRole("heading", { name: "Choose a New Password" })).toBeVisible();
      await page.getByLabel("New Password", { exact: true }).fill("new-pass22");
      await page.getByLabel("Confirm Password").fill("new-pass23");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expect(page.getByText("Passwords do not match")).toBeVisible();
      await page.getByLabel("New Password", { exact: true }).fill("new-pass22");
      await page.getByLabel("Confirm Password").fill("new-pass22");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByText("Your password has been changed. Please sign in with the new one.")).toBeVisible();

      await signIn(page, username, "old-pass1");
      await expect(page.getByText("Invalid credentials")).toBeVisible();
      await signIn(page, username, "new-pass22");
      await expect(page).toHaveURL(/\/user-stocks$/);

      // The link worked once.
      await page.context().clearCookies();
      await open(page, link);
      await page.getByLabel("New Password", { exact: true }).fill("third-pass3");
      await page.getByLabel("Confirm Password").fill("third-pass3");
      await page.getByRole("button", { name: "Change Password" }).click();
      await expect(
        page.getByText("This password reset link is invalid or has expired. Please ask for a new one."),
      ).toBeVisible();
      await page.getByRole("link", { name: "Ask for a new link" }).click();
      await expect(card(page).getByRole("heading", { name: "Reset Password" })).toBeVisible();
    });

    test("the reset page explains an incomplete link", async ({ page }) => {
      const response = await page.goto("/reset-password");
      // The token must not leak to other sites through Referer: the last policy given wins, and the page says so too.
      expect(response?.headers()["referrer-policy"]?.split(/[,\n]/).at(-1)?.trim()).toBe("same-origin");
      await expect(page.locator('meta[name="referrer"]')).toHaveAttribute("content", "same-origin");
      await expect(
        page.getByText("This reset link is incomplete. Open the whole link from the email, or ask for a new one."),
      ).toBeVisible();
      await expect(page.getByRole("link", { name: "Ask for a new link" })).toHaveAttribute("href", /mode=forgot/);
    });

    test("'Continue with Apple' only says it is coming", async ({ page }) => {
      await open(page, "/login");
      await page.getByRole("button", { name: "Continue with Apple" }).click();
      await expect(page.getByText("Apple Sign-In coming soon!")).toBeVisible();
      await expect(page).toHaveURL(/\/login/);
      await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    });

    test("'Continue with Google' says plainly when this server has no Google sign-in", async ({ page }) => {
      await open(page, "/login");
      await expect(page.getByRole("button", { name: "Continue with Google" })).toBeDisabled();
      await expect(page.getByText("Google sign-in is not configured on this server.")).toBeVisible();
    });
  });
}

test.describe("with JavaScript", () => {
  test.beforeEach(async ({ page }) => ownAddress(page));

  test("a sign-in pressed before the form's checks have loaded waits for them: nothing wrong is posted", async ({
    browser,
  }) => {
    // No service worker: it would answer the schema from its cache, past the hold below.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await ownAddress(page);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    // Held, to press Sign In before it arrives.
    const release = await holdFormSchema(page, "auth-schemas", "/login");
    await page.getByLabel("Username").fill("demo");
    await page.getByRole("button", { name: "Sign In" }).click();
    // Held: no error yet, and nothing sent.
    await expect(page.getByLabel("Password", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
    expect(posts).toHaveLength(0);

    release();
    await expect(page.getByText("Password is required")).toBeVisible();
    await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("aria-invalid", "true");
    expect(posts).toHaveLength(0);
    await expect(page.getByLabel("Username")).toHaveValue("demo");

    // Checked and right, the same form is sent.
    await page.getByLabel("Password", { exact: true }).fill("not-the-password1");
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page.getByText("Invalid credentials")).toBeVisible();
    expect(posts.length).toBeGreaterThan(0);
    await context.close();
  });

  test("'Get Started Free' switches to login and brings the card into view", async ({ page }) => {
    await page.goto("/login?mode=signup");
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole("link", { name: "Get Started Free" }).click();
    await expect(page).toHaveURL(/mode=login/);
    await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    await expect(card(page)).toBeInViewport();
    await expect(page.getByLabel("Username")).toBeFocused();
  });

  test("'Watch Demo' opens a modal that keeps focus, closes with Escape and its button, and gives focus back", async ({
    page,
  }) => {
    await page.goto("/login");
    const opener = page.getByRole("link", { name: "Watch Demo" });
    await opener.click();
    const dialog = page.getByRole("dialog", { name: "PutSeller in two minutes" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("Demo video would be embedded here")).toBeVisible();
    const close = dialog.getByRole("button", { name: "Close" });
    await expect(close).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(close).toBeFocused();
    await page.keyboard.press("Shift+Tab");
    await expect(close).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect(dialog).toBeHidden();

    // Its link (what the button is without JavaScript) opens it as a modal too.
    await page.goto("/login?demo=1");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  });

  test("the password show/hide button reveals and hides what was typed", async ({ page }) => {
    await page.goto("/login");
    const password = page.getByLabel("Password", { exact: true });
    await password.fill("secret-words1");
    await expect(password).toHaveAttribute("type", "password");
    const toggle = card(page).getByRole("button", { name: "Show" });
    await toggle.click();
    await expect(password).toHaveAttribute("type", "text");
    await expect(card(page).getByRole("button", { name: "Hide" })).toHaveAttribute("aria-pressed", "true");
    await card(page).getByRole("button", { name: "Hide" }).click();
    await expect(password).toHaveAttribute("type", "password");
    await expect(password).toHaveValue("secret-words1");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test.beforeEach(() => {
    scripted = false;
  });

  test("'Get Started Free' links to the login card", async ({ page }) => {
    await page.goto("/login?mode=forgot");
    await page.getByRole("link", { name: "Get Started Free" }).click();
    await expect(page).toHaveURL(/\/login\?mode=login#auth$/);
    await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
  });

  test("on the landing page, 'Get Started Free' scrolls to the login card without loading the page again", async ({
    page,
  }) => {
    await page.goto("/login");
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(request.url());
    });
    await page.getByRole("link", { name: "Get Started Free" }).click();
    await expect(page).toHaveURL(/\/login#auth$/);
    await expect(card(page)).toBeInViewport();
    await expect(card(page).getByRole("heading", { name: "Welcome Back" })).toBeVisible();
    expect(documents).toEqual([]);
  });

  test("'Watch Demo' opens the placeholder and its close link closes it", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Watch Demo" }).click();
    const dialog = page.getByRole("dialog", { name: "PutSeller in two minutes" });
    await expect(dialog.getByText("Demo video would be embedded here")).toBeVisible();
    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(dialog).toBeHidden();
  });
});

test.describe("Google sign-in through the Firebase Auth emulator", () => {
  test.use({ javaScriptEnabled: true });

  // An app of its own wired to the emulator, for these tests only. Started here rather than as a
  // worker fixture: a worker fixture gave the whole file workers of its own, so it ran last, alone.
  let googleApp: GoogleApp;
  test.beforeAll(async () => {
    test.setTimeout(180_000);
    googleApp = await startGoogleApp();
  });
  test.afterAll(async () => {
    await googleApp?.stop();
  });

  /** Stand-ins for Google's hosts, which cannot be reached offline. */
  async function offlineGoogle(page: Page) {
    await page
      .context()
      .route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) =>
        route.fulfill({ contentType: "text/javascript", body: GAPI_STAND_IN }),
      );
    await page
      .context()
      .route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
  }

  /** Completes the emulator's Google account chooser in the popup. */
  async function chooseGoogleAccount(page: Page, email: string, name: string) {
    // Before the scripts run, the button posts the form, which answers that Google sign-in needs JavaScript.
    await waitForHydration(page);
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    const popup = await popupPromise;
    await popup.getByText("Add new account").click();
    await popup.locator("#email-input").fill(email);
    await popup.locator("#display-name-input").fill(name);
    await popup.locator("#sign-in").click();
  }

  test("a new Google user lands on the watchlist; Firebase loads only when the button is pressed", async ({ page }) => {
    await offlineGoogle(page);
    // Each of the app's scripts as it arrives; read once every body has been read.
    const bodies: Promise<string>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script" && response.url().startsWith(googleApp.baseURL)) {
        bodies.push(response.text().catch(() => ""));
      }
    });
    const scripts = () => Promise.all(bodies);
    await page.goto(`${googleApp.baseURL}/login`);
    await expect(page.getByRole("button", { name: "Continue with Google" })).toBeEnabled();
    // The scripts start after the first paint (ADR 0044), which can be after the network went quiet.
    await waitForHydration(page);
    // Firebase Auth's REST host appears in its code; none of the first load's scripts has it.
    expect((await scripts()).length).toBeGreaterThan(0);
    expect((await scripts()).some((s) => s.includes("identitytoolkit"))).toBe(false);

    const email = `${unique("google")}@example.com`;
    await chooseGoogleAccount(page, email, "Gail Google");
    await expect(page).toHaveURL(`${googleApp.baseURL}/user-stocks`);
    await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
    expect((await scripts()).some((s) => s.includes("identitytoolkit"))).toBe(true);
  });

  test("pressed before the page's scripts have run, 'Continue with Google' waits for them and opens Google's popup", async ({
    page,
  }) => {
    await offlineGoogle(page);
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/login") posts.push(request.url());
    });
    await page.goto(`${googleApp.baseURL}/login`);
    await expect(page.locator("html[data-hydrated]")).toHaveCount(0);
    // The press is the page's first interaction (ADR 0061): its scripts start with it.
    const popupPromise = page.waitForEvent("popup");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    const popup = await popupPromise;
    // Nothing was posted without the scripts, so no card says that JavaScript is needed.
    expect(posts).toEqual([]);
    await expect(page.getByText(messages.googleNeedsJavaScript)).toHaveCount(0);
    await popup.getByText("Add new account").click();
    await popup.locator("#email-input").fill(`${unique("early")}@example.com`);
    await popup.locator("#display-name-input").fill("Early Bird");
    await popup.locator("#sign-in").click();
    await expect(page).toHaveURL(`${googleApp.baseURL}/user-stocks`);
  });

  test("when the page's scripts cannot load, 'Continue with Google' posts after all and the card says why nothing opened", async ({
    browser,
  }) => {
    // No service worker: it would answer the scripts from its cache.
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    await page.route(/\/assets\/[^/]+\.js$/, (route) => route.abort("connectionreset"));
    await page.goto(`${googleApp.baseURL}/login`);
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await expect(card(page).getByRole("alert")).toHaveText(messages.googleNeedsJavaScript);
    await context.close();
  });

  test("a Google account with the demo user's email signs into the demo account", async ({ page }) => {
    await offlineGoogle(page);
    await page.goto(`${googleApp.baseURL}/login`);
    await chooseGoogleAccount(page, "demo@example.com", "Dana Demo");
    await expect(page).toHaveURL(`${googleApp.baseURL}/user-stocks`);
    await expect(page.getByText("AAPL", { exact: true })).toBeVisible();
  });

  test("a failed Google sign-in shows 'Failed to sign in with Google' and stays on the page", async ({ page }) => {
    await offlineGoogle(page);
    // Firebase cannot finish the sign-in: its token exchange answers an error.
    await page.context().route(/accounts:signInWithIdp/, (route) =>
      route.fulfill({
        status: 400,
        contentType: "application/json",
        headers: { "access-control-allow-origin": "*" },
        body: JSON.stringify({ error: { code: 400, message: "INVALID_IDP_RESPONSE" } }),
      }),
    );
    await page.goto(`${googleApp.baseURL}/login`);
    await chooseGoogleAccount(page, `${unique("broken")}@example.com`, "Bo Broken");
    await expect(page.getByText("Failed to sign in with Google")).toBeVisible();
    await expect(page).toHaveURL(`${googleApp.baseURL}/login`);
  });

  test("a session the provider no longer accepts ends with 'Session expired. Please log in again.'", async ({
    page,
  }) => {
    // Signed in on the main server; the Google server shares the session secret but its
    // provider has other token keys, so it answers 401 for this session's token.
    await signIn(page, "demo", "demo1234");
    await expect(page).toHaveURL(/\/user-stocks$/);
    await page.goto(`${googleApp.baseURL}/user-stocks`);
    await expect(page).toHaveURL(`${googleApp.baseURL}/login`);
    await expect(page.getByText("Session expired. Please log in again.")).toBeVisible();
  });
});
