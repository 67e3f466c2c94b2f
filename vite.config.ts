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
  server: { hmr: { port: Number(process.env.HMR_PORT ?? 24678) } },
});
