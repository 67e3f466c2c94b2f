import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { staleReason } from "../../scripts/build-if-stale.ts";

/** `npm start` builds only when the build is missing or older than what it is built from. */
let dir: string;
const at = (file: string, seconds: number) => utimesSync(path.join(dir, file), seconds, seconds);

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "putseller-stale-"));
  mkdirSync(path.join(dir, "app/routes"), { recursive: true });
  writeFileSync(path.join(dir, "app/routes/home.tsx"), "export default 1;");
  writeFileSync(path.join(dir, "package.json"), "{}");
  at("app/routes/home.tsx", 1_000);
  at("app/routes", 1_000);
  at("app", 1_000);
  at("package.json", 1_000);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function build(seconds: number) {
  mkdirSync(path.join(dir, "build/server"), { recursive: true });
  writeFileSync(path.join(dir, "build/server/index.js"), "");
  at("build/server/index.js", seconds);
}

it("builds when there is no build", () => {
  expect(staleReason(dir, path.join(dir, "build"))).toBe("no build in build");
});

it("does not build when the build is newer than every source", () => {
  build(2_000);
  expect(staleReason(dir, path.join(dir, "build"))).toBeNull();
});

it("builds when a source file changed after the build", () => {
  build(2_000);
  at("app/routes/home.tsx", 3_000);
  expect(staleReason(dir, path.join(dir, "build"))).toBe("app changed since the last build");
});

it("builds when the dependencies changed after the build", () => {
  build(2_000);
  at("package.json", 3_000);
  expect(staleReason(dir, path.join(dir, "build"))).toBe("package.json changed since the last build");
});
