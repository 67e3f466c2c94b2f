import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { signIn } from "./support/sign-in.ts";

/**
 * What a slow phone needs for its first paint (ADR 0019): the server's HTML asks for one
 * stylesheet, and asks for it before any script, so the render-blocking request is not queued
 * behind the modulepreloads; and that stylesheet styles every screen.
 */
async function headOf(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  const html = await response.text();
  return html.slice(0, html.indexOf("</head>"));
}

function linkOrder(head: string): string[] {
  return [...head.matchAll(/<link\b[^>]*\brel="([^"]+)"/g)].map((m) => m[1]!);
}

test("the landing page and the main screens ask for their one stylesheet before any script", async ({
  page,
  request,
}) => {
  await signIn(page);
  const pages: [string, APIRequestContext][] = [
    ["/login", request], // not signed in: the landing page itself
    ["/user-stocks", page.request],
    ["/insights", page.request],
    ["/profile", page.request],
  ];
  for (const [path, client] of pages) {
    const rels = linkOrder(await headOf(client, path));
    expect(
      rels.filter((rel) => rel === "stylesheet"),
      path,
    ).toHaveLength(1);
    const firstScript = rels.indexOf("modulepreload");
    expect(firstScript, `${path} preloads its scripts`).toBeGreaterThan(-1);
    expect(rels.indexOf("stylesheet"), path).toBeLessThan(firstScript);
  }
});

test("moving between screens keeps the same single stylesheet, and each screen is styled", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("heading", { name: "My Watchlist" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["UIP", "Insights", "Trades", "Profile", "Watchlist"]) {
    await nav.getByRole("link", { name }).click();
    await expect(nav.getByRole("link", { name })).toHaveAttribute("aria-current", "page");
    await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(1);
    // The bottom navigation is fixed to the bottom of the screen by the stylesheet.
    expect(await nav.evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
  }
});
