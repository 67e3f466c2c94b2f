import type { APIResponse } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { CROSS_SITE_REFUSED } from "../../server/cross-site-posts.ts";
import { createTrader, signInAs, watchlistOf } from "./support/watchlist.ts";

/**
 * Security headers and cookies of the production build, on every kind of response, and
 * cross-site form posts refused in a real browser. (errors.spec.ts checks the CSP nonce changes
 * per request; shell.spec.ts that the session cookie hides the token.)
 */

function cspNonce(csp: string): string {
  const match = /script-src 'self' 'nonce-([^']+)' 'strict-dynamic'/.exec(csp);
  expect(match, csp).not.toBeNull();
  return match![1]!;
}

function expectCommonHeaders(res: APIResponse, what: string) {
  const h = res.headers();
  expect(h["x-content-type-options"], what).toBe("nosniff");
  // Production: browsers keep to HTTPS for a year, subdomains included.
  expect(h["strict-transport-security"], what).toMatch(/max-age=(\d{8,}); includeSubDomains/);
  expect(Number(/max-age=(\d+)/.exec(h["strict-transport-security"]!)![1])).toBeGreaterThanOrEqual(31_536_000);
}

function expectPageHeaders(res: APIResponse, what: string) {
  expectCommonHeaders(res, what);
  const h = res.headers();
  const csp = h["content-security-policy"] ?? "";
  cspNonce(csp);
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(csp, what).toContain("base-uri 'self'");
  expect(csp, what).toContain("form-action 'self'");
  expect(h["x-frame-options"], what).toBe("DENY");
  expect(effectiveReferrerPolicy(res), what).toMatch(/^(strict-origin-when-cross-origin|same-origin|no-referrer)$/);
}

/** Browsers apply the last policy they know of a comma-separated Referrer-Policy. */
function effectiveReferrerPolicy(res: APIResponse): string {
  return (res.headers()["referrer-policy"] ?? "").split(",").at(-1)!.trim();
}

/** Every <script> of a page carries the response's nonce, and no inline event handler is rendered. */
async function expectScriptsNonced(res: APIResponse, what: string) {
  const nonce = cspNonce(res.headers()["content-security-policy"] ?? "");
  const html = await res.text();
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length, what).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag, what).toContain(`nonce="${nonce}"`);
  expect(html, what).not.toMatch(/<[a-z][^>]*\son[a-z]+=/i);
}

test("pages, the error page, assets and health all carry the security headers", async ({ page }) => {
  const anonymous = page.request;
  for (const path of ["/login", "/reset-password?token=abc", "/no-such-page"]) {
    const res = await anonymous.get(path);
    expectPageHeaders(res, path);
    await expectScriptsNonced(res, path);
  }
  // The reset link's token must not leave in a Referer.
  expect(effectiveReferrerPolicy(await anonymous.get("/reset-password?token=abc"))).toBe("same-origin");

  const login = await anonymous.get("/login");
  // The module code names its files inside a classic script (ADR 0044).
  const asset = /(\/assets\/[\w.-]+\.js)/.exec(await login.text())![1]!;
  for (const path of [asset, "/service-worker.js", "/healthz"]) {
    expectCommonHeaders(await anonymous.get(path), path);
  }

  const trader = await createTrader(["KO"]);
  await signInAs(page, trader);
  for (const path of ["/user-stocks", "/profile", "/portfolio"]) {
    const res = await page.request.get(path);
    expect(res.status(), path).toBe(200);
    expectPageHeaders(res, path);
    await expectScriptsNonced(res, path);
  }
});

test("the session and toast cookies are httpOnly, Secure in production, SameSite=Lax, for the whole site", async ({
  request,
}) => {
  const trader = await createTrader([]);
  const login = await request.post("/login", {
    form: { username: trader.username, password: trader.password },
    maxRedirects: 0,
  });
  const cookies = login.headersArray().filter((h) => h.name.toLowerCase() === "set-cookie");
  const session = cookies.find((c) => c.value.startsWith("__session="))?.value;
  expect(session, JSON.stringify(cookies)).toBeDefined();
  const logout = await request.post("/logout", { maxRedirects: 0 });
  const toast = logout
    .headersArray()
    .find((h) => h.name.toLowerCase() === "set-cookie" && h.value.startsWith("__toast="))?.value;
  expect(toast, "logging out sets a flash toast").toBeDefined();
  for (const cookie of [session!, toast!]) {
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\/(;|$)/i);
    expect(cookie).not.toMatch(/;\s*Domain=/i);
  }
});

test("a form on another site cannot change a signed-in user's data, and the session lives on", async ({ page }) => {
  const trader = await createTrader(["KO", "PEP"]);
  const [ko] = await watchlistOf(trader);
  await signInAs(page, trader);
  const app = new URL(page.url()).origin;

  // Another site's page that posts the watchlist's delete form to the app as soon as it loads.
  const evil = "http://evil.example";
  await page.route(`${evil}/prize`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><form id="f" method="post" action="${app}/user-stocks">
        <input name="intent" value="delete"><input name="id" value="${ko!.id}"><input name="ticker" value="KO">
        </form><script>document.getElementById("f").submit()</script>`,
    }),
  );
  const refused = page.waitForResponse(
    (r) => r.url().startsWith(`${app}/user-stocks`) && r.request().method() === "POST",
  );
  await page.goto(`${evil}/prize`);
  const response = await refused;
  expect(response.status()).toBe(403);
  await expect(page.getByText(CROSS_SITE_REFUSED)).toBeVisible();
  expect((await watchlistOf(trader)).map((s) => s.stock.ticker)).toEqual(["KO", "PEP"]);

  // The same for a resource route (React Router's own origin check covers only route actions).
  await page.route(`${evil}/again`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><form id="f" method="post" action="${app}/resources/ai/stock-analysis">
        <input name="ticker" value="KO"></form><script>document.getElementById("f").submit()</script>`,
    }),
  );
  const again = page.waitForResponse((r) => r.url().endsWith("/resources/ai/stock-analysis"));
  await page.goto(`${evil}/again`);
  expect((await again).status()).toBe(403);
  expect((await watchlistOf(trader)).map((s) => s.stock.ticker)).toEqual(["KO", "PEP"]);

  await page.goto(`${app}/user-stocks`);
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
});
