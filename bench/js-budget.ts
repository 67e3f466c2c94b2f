/**
 * First-load JavaScript per route, gzip: what a phone downloads before a route can run — the
 * client entry, the route manifest, and the module and static imports of every route in the
 * match (root, layouts, the page). Read from the client manifest of a build (BUILD_DIR, default
 * `build`). Lazy chunks (charts, Firebase) are not first-load and not counted. A page whose route
 * asks for its scripts at the first interaction (a `handle`, ADR 0061; read from the server build)
 * loads none first: its first load is 0, and what it loads then must still fit the default budget.
 *
 * Run after `react-router build` by `npm run build`: exits 1 when a route is over its budget in
 * bench/js-budget.json. `node bench/js-budget.ts --json` prints the sizes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  hasDefaultExport: boolean;
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: { module: string; imports: string[] };
  routes: Record<string, ManifestRoute>;
}

export interface RouteSize {
  route: string;
  /** The URL pattern, e.g. /user-stock/:ticker. */
  path: string;
  files: number;
  /** What the page's scripts are, whenever they load. */
  gzipBytes: number;
  rawBytes: number;
  /** They wait for the visitor's first interaction (ADR 0061). */
  onInteraction: boolean;
  /** What loads before the page can be used: gzipBytes, or 0 when they wait for an interaction. */
  firstLoadGzipBytes: number;
}

export interface Budget {
  /** Bytes (gzip) any route may load first, unless listed in `routes`. */
  defaultGzipBytes: number;
  routes: Record<string, number>;
}

const root = resolve(import.meta.dirname, "..");

/** The build's client manifest (the newest, should an old one linger in the folder). */
function readManifest(clientDir: string): { manifest: Manifest; file: string } {
  const assets = join(clientDir, "assets");
  const files = readdirSync(assets)
    .filter((f) => /^manifest-[\w-]+\.js$/.test(f))
    .map((f) => join(assets, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) throw new Error(`No client manifest in ${assets}: build first`);
  const sandbox: { window: { __reactRouterManifest?: Manifest } } = { window: {} };
  runInNewContext(readFileSync(files[0]!, "utf8"), sandbox);
  if (!sandbox.window.__reactRouterManifest) throw new Error(`${files[0]} holds no route manifest`);
  return { manifest: sandbox.window.__reactRouterManifest, file: `/assets/${basename(files[0]!)}` };
}

/** The URL pattern of a route from its chain of paths. */
function urlOf(chain: ManifestRoute[]): string {
  const parts = chain.map((r) => r.path ?? "").filter(Boolean);
  return `/${parts.join("/")}`;
}

/** The route ids whose handle asks, for the route's own path, to load the scripts at the first interaction. */
async function onInteractionRoutes(buildDir: string, manifest: Manifest): Promise<Set<string>> {
  const serverBuild = resolve(root, buildDir, "server/index.js");
  if (!existsSync(serverBuild)) return new Set();
  const { routes } = (await import(pathToFileURL(serverBuild).href)) as {
    routes: Record<string, { module: { handle?: { hydrateOnInteraction?: (url: URL) => boolean } } }>;
  };
  const asking = new Set<string>();
  for (const route of Object.values(manifest.routes)) {
    const chain = chainOf(manifest, route);
    const url = new URL(urlOf(chain), "http://localhost");
    if (chain.some((r) => routes[r.id]?.module.handle?.hydrateOnInteraction?.(url) === true)) asking.add(route.id);
  }
  return asking;
}

function chainOf(manifest: Manifest, route: ManifestRoute): ManifestRoute[] {
  const chain: ManifestRoute[] = [];
  for (let r: ManifestRoute | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
    chain.unshift(r);
  }
  return chain;
}

export async function firstLoadSizes(buildDir = process.env.BUILD_DIR ?? "build"): Promise<RouteSize[]> {
  const clientDir = resolve(root, buildDir, "client");
  // (an absolute BUILD_DIR is taken as it is)
  const { manifest, file } = readManifest(clientDir);
  const onInteraction = await onInteractionRoutes(buildDir, manifest);
  const gzipCache = new Map<string, { gzip: number; raw: number }>();
  const sizeOf = (url: string) => {
    let size = gzipCache.get(url);
    if (!size) {
      const bytes = readFileSync(join(clientDir, url));
      size = { gzip: gzipSync(bytes).length, raw: bytes.length };
      gzipCache.set(url, size);
    }
    return size;
  };
  const routes = Object.values(manifest.routes);
  const isParent = new Set(routes.map((r) => r.parentId).filter(Boolean));
  const sizes: RouteSize[] = [];
  for (const route of routes) {
    // Pages only: a leaf with a component (layouts are counted in their pages; resource routes load no JS).
    if (isParent.has(route.id) || !route.hasDefaultExport) continue;
    const chain = chainOf(manifest, route);
    const files = new Set<string>([file, manifest.entry.module, ...manifest.entry.imports]);
    for (const r of chain) for (const f of [r.module, ...(r.imports ?? [])]) files.add(f);
    let gzipBytes = 0;
    let rawBytes = 0;
    for (const f of files) {
      const size = sizeOf(f);
      gzipBytes += size.gzip;
      rawBytes += size.raw;
    }
    const waits = onInteraction.has(route.id);
    sizes.push({
      route: route.id,
      path: urlOf(chain),
      files: files.size,
      gzipBytes,
      rawBytes,
      onInteraction: waits,
      firstLoadGzipBytes: waits ? 0 : gzipBytes,
    });
  }
  return sizes.sort((a, b) => a.path.localeCompare(b.path));
}

/** bench/js-budget.json, or the file JS_BUDGET_FILE names (tests). */
export function readBudget(): Budget {
  const file = process.env.JS_BUDGET_FILE ?? join(root, "bench/js-budget.json");
  return JSON.parse(readFileSync(file, "utf8")) as Budget;
}

export function budgetOf(budget: Budget, route: string): number {
  return budget.routes[route] ?? budget.defaultGzipBytes;
}

/**
 * Whether a route is over: its first load over its budget, or its scripts (loaded later) over the
 * default, or over its own budget where an ADR raised that past the default (ADR 0090).
 */
export function overBudget(budget: Budget, size: RouteSize): boolean {
  const own = budgetOf(budget, size.route);
  return size.firstLoadGzipBytes > own || size.gzipBytes > Math.max(budget.defaultGzipBytes, own);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

if (import.meta.main) {
  const sizes = await firstLoadSizes();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(sizes, null, 2));
  } else {
    const budget = readBudget();
    const over = sizes.filter((s) => overBudget(budget, s));
    console.log("First-load JavaScript per route (gzip), against bench/js-budget.json:");
    for (const s of sizes) {
      const limit = budgetOf(budget, s.route);
      const flag = overBudget(budget, s) ? "  OVER BUDGET" : "";
      const later = s.onInteraction ? `   (${kb(s.gzipBytes)} at the first interaction)` : "";
      console.log(
        `  ${s.path.padEnd(28)} ${kb(s.firstLoadGzipBytes).padStart(9)} / ${kb(limit).padStart(9)}${later}${flag}`,
      );
    }
    if (over.length) {
      console.error(
        `\n${over.length} route(s) over their first-load JavaScript budget: ${over.map((s) => s.path).join(", ")}.` +
          "\nMake the extra code lazy (import() on use) or, if it must load first, raise the route's budget in bench/js-budget.json and say why in the commit.",
      );
      process.exit(1);
    }
  }
}
