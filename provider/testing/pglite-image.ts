import { openAsBlob } from "node:fs";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** A file holding the image of a migrated in-memory store, or undefined for stores on a server. */
    pgliteImage: string | undefined;
  }
}

/**
 * The migrated store image of this test run (tests/support/pglite-image.global.ts), for
 * `ProviderOptions.image`; undefined outside Vitest's global setup or with TEST_DATABASE=postgres,
 * where a store starts the ordinary way.
 */
export async function testPgliteImage(): Promise<Blob | undefined> {
  const path = inject("pgliteImage");
  return path ? openAsBlob(path) : undefined;
}
