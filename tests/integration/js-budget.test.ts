import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstLoadSizes } from "../../bench/js-budget.ts";

/** The first-load JavaScript check of `npm run build`, on a made-up build. */
const root = path.resolve(import.meta.dirname, "../..");

function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "js-budget-"));
  const assets = path.join(dir, "client/assets");
  mkdirSync(assets, { recursive: true });
  // Random text, so gzip cannot shrink a chunk to nothing.
  const file = (name: string, size: number) =>
    writeFileSync(path.join(assets, name), randomBytes(size).toString("base64").slice(0, size));
  file("entry.js", 1000);
  file("react.js", 2000);
  file("root.js", 300);
  file("layout.js", 200);
  file("page.js", 100);
  file("big.js", 50_000);
  file("lazy-chart.js", 90_000);
  const manifest = {
    entry: { module: "/assets/entry.js", imports: ["/assets/react.js"] },
    routes: {
      root: { id: "root", path: "", hasDefaultExport: true, module: "/assets/root.js", imports: ["/assets/react.js"] },
      "routes/layout": { id: "routes/layout", parentId: "root", hasDefaultExport: true, module: "/assets/layout.js" },
      "routes/page": {
        id: "routes/page",
        parentId: "routes/layout",
        path: "page",
        hasDefaultExport: true,
        module: "/assets/page.js",
        imports: ["/assets/react.js"],
      },
      "routes/heavy": {
        id: "routes/heavy",
        parentId: "root",
        path: "heavy/:id",
        hasDefaultExport: true,
        module: "/assets/big.js",
      },
      "routes/resource": {
        id: "routes/resource",
        parentId: "root",
        path: "api",
        hasDefaultExport: false,
        module: "/assets/page.js",
      },
    },
  };
  writeFileSync(path.join(assets, "manifest-abc123.js"), `window.__reactRouterManifest=${JSON.stringify(manifest)};`);
  // The server build's route modules: the heavy page asks for its scripts at the first
  // interaction, except on one address (ADR 0061).
  mkdirSync(path.join(dir, "server"));
  writeFileSync(
    path.join(dir, "server/index.js"),
    `export const routes = {
      root: { module: {} },
      "routes/page": { module: { handle: { hydrateOnInteraction: () => false } } },
      "routes/heavy": { module: { handle: { hydrateOnInteraction: (url) => url.pathname === "/heavy/:id" } } },
    };`,
  );
  return dir;
}

describe("first-load JavaScript budget", () => {
  it("counts the entry, the manifest and each route of the match once, not lazy chunks or resource routes", async () => {
    const dir = fakeBuild();
    const sizes = await firstLoadSizes(dir);
    expect(sizes.map((s) => s.path)).toEqual(["/heavy/:id", "/page"]);
    const page = sizes.find((s) => s.path === "/page")!;
    expect(page.files).toBe(6); // manifest, entry, react (once), root, layout, page
    expect(page.rawBytes).toBeGreaterThan(1000 + 2000 + 300 + 200 + 100);
    expect(page.gzipBytes).toBeGreaterThan(2500);
    expect(page.gzipBytes).toBeLessThan(page.rawBytes);
    expect(page.onInteraction).toBe(false);
    expect(page.firstLoadGzipBytes).toBe(page.gzipBytes);
    // The heavy page carries its big module; nobody carries the lazy chart.
    const heavy = sizes.find((s) => s.path === "/heavy/:id")!;
    expect(heavy.gzipBytes).toBeGreaterThan(35_000);
    expect(heavy.gzipBytes).toBeLessThan(60_000);
    // …but only at the first interaction: nothing before.
    expect(heavy.onInteraction).toBe(true);
    expect(heavy.firstLoadGzipBytes).toBe(0);
  });

  it("fails the build step (exit 1, naming the route) when a route is over its budget", () => {
    const dir = fakeBuild();
    const budget = path.join(dir, "budget.json");
    const node = path.join(root, "node_modules/.bin/node");
    const run = (routes: Record<string, number>, defaultGzipBytes = 100_000) => {
      writeFileSync(budget, JSON.stringify({ defaultGzipBytes, routes }));
      try {
        execFileSync(node, [path.join(root, "bench/js-budget.ts")], {
          env: { ...process.env, BUILD_DIR: dir, JS_BUDGET_FILE: budget },
          stdio: "pipe",
        });
        return { code: 0, stderr: "" };
      } catch (error) {
        const e = error as { status: number; stderr: Buffer };
        return { code: e.status, stderr: e.stderr.toString() };
      }
    };
    expect(run({}).code).toBe(0);
    const over = run({ "routes/page": 100 });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("/page");
    expect(over.stderr).not.toContain("/heavy/:id");
    // A page whose scripts wait for an interaction loads nothing first: any budget holds it…
    expect(run({ "routes/heavy": 100 }).code).toBe(0);
    // …but what it loads then must still fit the default budget.
    const later = run({ "routes/page": 100_000 }, 20_000);
    expect(later.code).toBe(1);
    expect(later.stderr).toContain("/heavy/:id");
  });
});
