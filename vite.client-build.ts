/**
 * What the app's client build is, shared by vite.config.ts and the SPA-mode build of the
 * lighthouse bench (bench/spa/vite.config.ts), so both measure the same chunks and worker.
 */
import type { ChunkingContext } from "rolldown";
import type { BuildEnvironmentOptions, PluginOption } from "vite";
import { VitePWA } from "vite-plugin-pwa";

/** The service worker app/service-worker.ts, built to /service-worker.js (docs/architecture.md#decisions: injectManifest). */
export function serviceWorkerPlugin(options: { srcDir: string; outDir: string }): PluginOption {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: options.srcDir,
    filename: "service-worker.ts",
    // React Router's client build folder.
    outDir: options.outDir,
    injectRegister: false,
    manifest: false,
    injectManifest: {
      rollupFormat: "iife",
      // The app shell the worker precaches (app/offline/sw/precache.ts): scripts, styles, icons, manifest.
      globPatterns: ["assets/**/*.{js,css}", "favicon.svg", "manifest.webmanifest", "icons/*.png"],
      // Firebase (Google sign-in) loads on demand from the login page only; not worth 88 KB on every device.
      globIgnores: ["assets/google-sign-in*.js"],
    },
  });
}

const ROOT_ROUTE = /[\\/]app[\\/]root\.tsx(\?|$)/;
/** Per build (each environment's chunking has its own context): module id → loaded with the root. */
const rootImports = new WeakMap<ChunkingContext, Map<string, boolean>>();

/** Whether the root route imports a module, directly or through other static imports. */
function loadedWithRoot(id: string, ctx: ChunkingContext): boolean {
  if (ROOT_ROUTE.test(id)) return false;
  let answers = rootImports.get(ctx);
  if (!answers) rootImports.set(ctx, (answers = new Map()));
  let answer = answers.get(id);
  if (answer === undefined) answers.set(id, (answer = importedByRoot(id, ctx, new Set())));
  return answer;
}

function importedByRoot(id: string, ctx: ChunkingContext, seen: Set<string>): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  const importers = ctx.getModuleInfo(id)?.importers ?? [];
  return importers.some((importer) => ROOT_ROUTE.test(importer) || importedByRoot(importer, ctx, seen));
}

export const clientBuild: BuildEnvironmentOptions = {
  target: "es2022",
  // The app's own import() calls (charts, toasts, message checks, Firebase) do not preload their
  // chunks' imports: the lists rode on every screen's first load, and those chunks import at
  // most one level more. React Router preloads route modules itself.
  modulePreload: false,
  rolldownOptions: {
    output: {
      codeSplitting: {
        groups: [
          // React and React Router change together and rarely: one file, cached across releases,
          // instead of four that every route waits for (fewer requests on a slow network).
          // Vite's helper for import() rides along: every page has one, and a chunk of its own costs a request.
          {
            name: "framework",
            test: /node_modules[\\/](react|react-dom|scheduler|react-router|@react-router|turbo-stream|cookie|set-cookie-parser)[\\/]|vite[\\/]preload-helper/,
            priority: 2,
          },
          // Every page loads the root route, and with it what the root imports; the bundler, which
          // sees each route as an entry of its own, split those modules into a chunk per set of
          // importers (nine of 69–1,091 bytes gzip, each a request and its own gzip stream). One chunk:
          // about 1 kB less on every route's first load and eight requests fewer (ADR 0057).
          { name: (id, ctx) => (loadedWithRoot(id, ctx) ? "root-imports" : null), priority: 1 },
        ],
      },
    },
  },
};
