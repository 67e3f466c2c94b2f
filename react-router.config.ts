import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  ssr: true,
  // Separate build folders let several test runs build side by side (BUILD_DIR=build-x).
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // Every route is known from the first page (no /__manifest lookups), so screens saved for
  // offline use can be reached while offline (issue 11).
  routeDiscovery: { mode: "initial" },
} satisfies Config;
