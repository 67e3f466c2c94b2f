import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { migratedImage } from "#provider/db/client.ts";

/**
 * Vitest's global setup: one image of a freshly migrated PGlite store per run, which every suite's
 * in-memory store starts from instead of running initdb (about 0.7 s of CPU each, dozens of times
 * a run). Not with TEST_DATABASE=postgres, whose stores are databases on the server.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE === "postgres") {
    project.provide("pgliteImage", undefined);
    return;
  }
  const path = join(tmpdir(), `putseller-pglite-image-${process.pid}-${project.name}.tar`);
  writeFileSync(path, Buffer.from(await (await migratedImage()).arrayBuffer()));
  project.provide("pgliteImage", path);
  return () => rmSync(path, { force: true });
}
