import { expect, test } from "./support/test.ts";

test("an unknown page shows the router's error screen with the text of docs/product.md#screens-routing", async ({
  page,
}) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByText("404 Not Found")).toBeVisible();
});

test("pages carry a CSP with a per-request nonce and no inline-script allowance", async ({ request }) => {
  const first = await request.get("/login");
  const second = await request.get("/login");
  const csp = first.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(second.headers()["content-security-policy"]).not.toBe(csp);
  expect(first.headers()["x-content-type-options"]).toBe("nosniff");
  expect(first.headers()["strict-transport-security"]).toContain("max-age=");
});
