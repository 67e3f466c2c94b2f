import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { clientBuild, serviceWorkerPlugin } from "../../vite.client-build.ts";
import { spaRouteModules } from "./route-modules-plugin.ts";

/**
 * The SPA-mode build for the lighthouse bench (react-router.config.ts here): the repository's
 * vite.config.ts with the route-module rewrite in front, built by
 * `SPA_BUILD_DIR=build-spa npx react-router build bench/spa` (bench/lighthouse.bench.ts does it).
 */
const repo = resolve(import.meta.dirname, "../..");
const outDir = resolve(repo, process.env.SPA_BUILD_DIR ?? "build-spa", "client");

export default defineConfig(({ command }) => ({
  // React Router reads react-router.config.ts from the root. Its prerender step (index.html) starts
  // a preview server, and any server writes route types under <root>/.react-router/types/<relative
  // path to app>, which from here would be bench/spa/app: give that server a throwaway root.
  root: command === "build" ? import.meta.dirname : previewRoot(),
  publicDir: resolve(repo, "public"),
  plugins: [
    // Before reactRouter(): its SPA-mode check must see the client loaders, not the server ones.
    spaRouteModules({ appDirectory: resolve(repo, "app") }),
    reactRouter(),
    // The same service worker as the server-rendered build, so both pages do the same work after load.
    serviceWorkerPlugin({ srcDir: resolve(repo, "app"), outDir }),
  ],
  // The same chunks as the server-rendered build.
  build: clientBuild,
}));

function previewRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), "putseller-spa-root-"));
  const config = resolve(import.meta.dirname, "react-router.config.ts");
  writeFileSync(join(dir, "react-router.config.ts"), `export { default } from ${JSON.stringify(config)};\n`);
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
