import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import { clientBuild, serviceWorkerPlugin } from "./vite.client-build.ts";

export default defineConfig({
  plugins: [
    reactRouter(),
    // React Router's client build folder (BUILD_DIR, as react-router.config.ts).
    serviceWorkerPlugin({ srcDir: "app", outDir: `${process.env.BUILD_DIR ?? "build"}/client` }),
  ],
  build: clientBuild,
  // The server bundles the form schemas the pages import on demand (ADR 0051): one file, so a
  // dynamic import there splits nothing, and saying so for each schema is noise. The client
  // build keeps the warning: there it means a page loads zod first.
  environments: { ssr: { build: { rolldownOptions: { checks: { ineffectiveDynamicImport: false } } } } },
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
});
