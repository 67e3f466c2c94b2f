import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import type { Href, HrefWithSearch, RoutePattern } from "#app/lib/href.ts";

/**
 * Typed URLs (docs/decisions/0100-typed-urls-checked-by-satisfies.md): the type check holds a written
 * path to app/routes.ts, and lint holds every route path in app/ to the type.
 */
const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });

/** The lines the typed-URL rule refuses in `code`, linted as if it were `file`. */
async function refused(code: string, file = "app/lib/example.ts"): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === "putseller/typed-urls").map((m) => m.line);
}

// Checked by `npm run typecheck`, not at run time: each line after @ts-expect-error must fail.
const typeChecks = [
  "/user-stocks" satisfies Href,
  "/user-stock/KO" satisfies Href,
  `/portfolio/roll/${12}` satisfies Href,
  "/portfolio?period=all" satisfies HrefWithSearch,
  "/user-stock/:ticker" satisfies RoutePattern,
  // @ts-expect-error no route is /user-stok
  "/user-stok" satisfies Href,
  // @ts-expect-error /portfolio/roll needs its trade
  "/portfolio/roll" satisfies Href,
  // @ts-expect-error a query needs HrefWithSearch
  "/portfolio?period=all" satisfies Href,
  // @ts-expect-error a pattern is the route table's own spelling, not any path under it
  "/user-stock/KO" satisfies RoutePattern,
];
void typeChecks;

describe("the typed-URL lint rule", () => {
  it("refuses a route path written as a bare string or template, each on its line", async () => {
    const code = [
      'export const a = "/user-stocks";',
      "export const b = (t: string) => `/user-stock/${t}`;",
      'export const c = "/portfolio?period=all";',
      'export const d = "/resources/ai/summarize";',
    ].join("\n");
    expect(await refused(code)).toEqual([1, 2, 3, 4]);
  });

  it("takes a path that satisfies Href, HrefWithSearch or RoutePattern, or goes through href()", async () => {
    const code = [
      'import { href } from "react-router";',
      'import type { Href, HrefWithSearch, RoutePattern } from "#app/lib/href.ts";',
      'export const a = "/user-stocks" satisfies Href;',
      "export const b = (t: string) => `/user-stock/${t}` satisfies Href;",
      'export const c = "/portfolio?period=all" satisfies HrefWithSearch;',
      'export const d = "/user-stock/:ticker" satisfies RoutePattern;',
      'export const e = href("/plan");',
    ].join("\n");
    expect(await refused(code)).toEqual([]);
  });

  it("leaves other text and the tests alone", async () => {
    expect(
      await refused('export const a = "/"; export const b = "/assets/x.js"; export const c = "portfolio";'),
    ).toEqual([]);
    expect(await refused('export const a = "/user-stocks";', "app/lib/example.test.ts")).toEqual([]);
  });
});
