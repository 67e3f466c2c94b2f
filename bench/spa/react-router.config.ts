import { fileURLToPath } from "node:url";
import type { Config } from "@react-router/dev/config";

const repo = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The lighthouse bench's SPA-mode build of the app (`ssr: false`): the same app/ routes and
 * components, built with bench/spa/vite.config.ts, which turns every server loader into a client
 * loader (route-modules-plugin.ts). Never part of `npm run build`. Absolute paths: the prerender
 * step reads this file from another root (see vite.config.ts).
 */
export default {
  appDirectory: `${repo}app`,
  ssr: false,
  // Beside the server-rendered build (/build-* is gitignored): SPA_BUILD_DIR, relative to the repository.
  buildDirectory: `${repo}${process.env.SPA_BUILD_DIR ?? "build-spa"}`,
  routeDiscovery: { mode: "initial" },
  // Route-module splitting would put each added client loader in a chunk of its own; its chunk
  // detection does not see the rewritten modules. Unsplit, the loader sits in its route module;
  // the page's one data request still starts with the root's loader (server-data.ts).
  splitRouteModules: false,
} satisfies Config;
