import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "#app/routes.ts";
import type { RouteOffline } from "#app/offline/index.ts";

/**
 * Each route's offline policy (`<route>.offline.ts`, or `route.offline.ts` in a screen's folder; ADR 0041)
 * must name the route's real path, and the intents its forms post, its action handles and the outbox
 * knows must be one set.
 */
const APP = join(dirname(fileURLToPath(import.meta.url)), "..");
const policies = import.meta.glob<RouteOffline>("./**/*.offline.ts", { eager: true, import: "offline" });

/** Route file (relative to app/, without extension) → its full path, from app/routes.ts. */
function routePaths(entries: readonly RouteConfigEntry[], parent = ""): Map<string, string> {
  const paths = new Map<string, string>();
  for (const entry of entries) {
    const path = entry.index ? parent : entry.path ? `${parent}/${entry.path}` : parent;
    paths.set(entry.file.replace(/\.tsx?$/, ""), path || "/");
    for (const [file, childPath] of routePaths(entry.children ?? [], path)) paths.set(file, childPath);
  }
  return paths;
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");

/**
 * A module's source and the sources of the app's components it imports, and of those they import
 * in turn (forms often live there, a list's reorder forms two levels down).
 */
function withComponents(file: string): string {
  const seen = new Set([file]);
  const sources: string[] = [];
  for (const next of seen) {
    const source = read(next);
    sources.push(source);
    for (const m of source.matchAll(/from "(#app\/components\/|#app\/routes\/[^"]+\/components\/|\.\/)([^"]+)"/g)) {
      // A route's own siblings (its server and offline modules) are not forms; its components/ are.
      if (m[1] === "./" && !next.includes("/components/") && !m[2]!.startsWith("components/")) continue;
      const base = m[1] === "./" ? dirname(next) : join(APP, m[1]!.slice("#app/".length));
      seen.add(join(base, m[2]!));
    }
  }
  return sources.join("\n");
}

/** Intent values written in forms: hidden inputs, submit buttons, RowToggle's prop, ConfirmDialog's fields, a kind → intent map. */
function formIntents(source: string): Set<string> {
  const found = new Set<string>();
  const patterns = [
    /name="intent"\s+value="([^"]+)"/g,
    /name="intent"\s+value=\{"([^"]+)"/g,
    /\bintent="([^"]+)"/g,
    /\bintent=\{"([^"]+)"/g,
    // A prop that names the intent a component's forms post (`toggleIntent={"toggle" …}`, the rows' switch).
    /\b[a-z]+Intent=\{"([^"]+)"/g,
    /\bintent: "([^"]+)"/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.add(m[1]!);
  // A form whose intent is picked from a map (`value={INTENT_OF[kind]}`, the trade form).
  for (const map of source.matchAll(/const INTENT_OF\b[^=]*= \{([^}]*)\}/g)) {
    for (const m of map[1]!.matchAll(/"([^"]+)"/g)) found.add(m[1]!);
  }
  return found;
}

/** Intents an action handles: its switch's cases. */
function actionIntents(source: string): Set<string> {
  return new Set([...source.matchAll(/case "([^"]+)":/g)].map((m) => m[1]!));
}

const paths = routePaths(routes);
const policyOfPath = new Map<string, RouteOffline>(Object.values(policies).map((policy) => [policy.path, policy]));

describe.each(Object.entries(policies))("%s", (policyFile, policy) => {
  const routeFile = join("routes", policyFile.replace(/^\.\//, "").replace(/\.offline\.ts$/, ""));
  const moduleFile = [".tsx", ".ts"].map((ext) => join(APP, routeFile + ext)).find(existsSync);

  it("belongs to a route, and names that route's path", () => {
    expect(moduleFile, `no route module next to ${policyFile}`).toBeDefined();
    expect(policy.path).toBe(paths.get(relative(APP, join(APP, routeFile))));
  });

  it.runIf(policy.queued)("knows exactly the intents the route's forms post and its action handles", () => {
    const known = new Set(policy.queued!.intents);
    const page = withComponents(moduleFile!);
    // A form posting to another route (deleting from an edit screen posts to the list) is that route's.
    const elsewhere = new Set(
      // action="/x" or, typed (ADR 0100), action={"/x" satisfies Href}.
      [...page.matchAll(/action=\{?"(\/[^"?]*)/g)].flatMap((m) => policyOfPath.get(m[1]!)?.queued?.intents ?? []),
    );
    const posted = [...formIntents(page)].filter((intent) => !(elsewhere.has(intent) && !known.has(intent)));
    expect(new Set(posted)).toEqual(known);

    // A folder screen's handlers are its server.ts (docs/contributing.md#a-folder-per-screen).
    const server = read(
      moduleFile!.endsWith("/route.tsx")
        ? join(dirname(moduleFile!), "server.ts")
        : moduleFile!.replace(/\.tsx?$/, ".server.ts"),
    );
    if (server) expect(actionIntents(server)).toEqual(known);
  });
});
