import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { precompress } from "./precompress.ts";

/**
 * `npm start` runs this first: it builds only when the build is missing or older than a file it
 * is built from, so a second start with nothing changed skips the 20–30 s build.
 */
const root = path.resolve(import.meta.dirname, "..");
const buildDir = path.resolve(root, process.env.BUILD_DIR ?? "build");
/** What `react-router build` reads: the app, the contract it imports, static files and the configs. */
export const BUILD_INPUTS = [
  "app",
  "contract",
  "public",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "vite.client-build.ts",
  "react-router.config.ts",
  "tsconfig.json",
];
/** The files a finished build always has; the server entry is written last. */
const BUILD_MARKER = path.join("server", "index.js");

/** The newest modification time under `entry` (a file or a folder), in ms. */
function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/** Why a build is needed, or null when the build is newer than every input. */
export function staleReason(rootDir: string, build: string): string | null {
  const marker = path.join(build, BUILD_MARKER);
  if (!existsSync(marker)) return `no build in ${path.relative(rootDir, build) || build}`;
  const built = statSync(marker).mtimeMs;
  for (const input of BUILD_INPUTS) {
    if (newestMtime(path.join(rootDir, input)) > built) return `${input} changed since the last build`;
  }
  return null;
}

if (import.meta.main) {
  const reason = staleReason(root, buildDir);
  if (reason === null) {
    console.log(`Build in ${path.relative(root, buildDir)} is up to date; not rebuilding.`);
  } else {
    console.log(`Building (${reason}).`);
    execFileSync(process.execPath, [path.join(root, "node_modules/@react-router/dev/bin.cjs"), "build"], {
      cwd: root,
      stdio: "inherit",
    });
    // As `npm run build` does: the assets compressed once, for the server to answer from.
    await precompress(path.join(buildDir, "client", "assets"));
  }
}
