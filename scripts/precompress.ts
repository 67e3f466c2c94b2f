import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each script and style of the client build's
 * `assets/`, at each format's highest level, once per build (ADR 0065). The server answers from them
 * (server/precompressed.ts) rather than compressing the same bytes again for every browser and every
 * service worker install. Only `assets/` is done: its names carry a hash of their content, so a copy
 * can never fall behind its file (the service worker and the other public files can be changed in
 * place by a deployment).
 *
 *   node scripts/precompress.ts          (BUILD_DIR, default `build`; `npm run build` runs it)
 */
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What is worth compressing: text. Below compression's own 1 kB threshold nothing is gained. */
const COMPRESSIBLE = /\.(js|css|json|svg|html|txt|webmanifest)$/;
const MIN_BYTES = 1024;

export async function precompress(assetsDir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  const totals = { files: 0, bytes: 0, brotliBytes: 0 };
  const names = readdirSync(assetsDir, { recursive: true, encoding: "utf8" }).filter((name) => COMPRESSIBLE.test(name));
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(assetsDir, name);
      const body = readFileSync(file);
      if (body.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      // A copy no smaller than the file would only cost the reader its decoding.
      if (br.length < body.length) writeFileSync(`${file}.br`, br);
      if (gz.length < body.length) writeFileSync(`${file}.gz`, gz);
      totals.files++;
      totals.bytes += body.length;
      totals.brotliBytes += Math.min(br.length, body.length);
    }),
  );
  return totals;
}

if (import.meta.main) {
  const buildDir = path.resolve(import.meta.dirname, "..", process.env.BUILD_DIR ?? "build");
  const { files, bytes, brotliBytes } = await precompress(path.join(buildDir, "client", "assets"));
  console.log(
    `Precompressed ${files} files in ${path.relative(process.cwd(), buildDir) || "."}/client/assets: ${Math.round(bytes / 1024)} kB, ${Math.round(brotliBytes / 1024)} kB as Brotli.`,
  );
}
