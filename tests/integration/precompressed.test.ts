import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import compression from "compression";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress } from "../../scripts/precompress.ts";
import { precompressed } from "../../server/precompressed.ts";

/**
 * A build's assets as server.ts serves them: compressed once by scripts/precompress.ts, then
 * answered through the same middleware in the same order (compression, the precompressed copies,
 * the static files). Requests go through node:http, which leaves the bytes as they came.
 */
let dir: string;
let server: Server;
let port: number;
/** A script well over the 1 kB threshold, and one under it. */
const script = `export function rows(){return ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ ticker: `T${i}`, price: i * 1.5 })))}}\n`;
const tiny = "export const x = 1;\n";

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "putseller-assets-"));
  writeFileSync(path.join(dir, "chunk-abc123.js"), script);
  writeFileSync(path.join(dir, "tiny-abc123.js"), tiny);
  writeFileSync(path.join(dir, "picture-abc123.png"), Buffer.alloc(4096, 7));
  await precompress(dir);
  const app = express();
  app.use(compression());
  app.use(precompressed(dir, "/assets"));
  app.use("/assets", express.static(dir, { immutable: true, maxAge: "1y" }));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function get(
  url: string,
  headers: Record<string, string>,
  method = "GET",
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path: url, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("scripts compressed once by the build", () => {
  it("writes a Brotli and a gzip copy of a script over 1 kB, each smaller and decoding to the script", () => {
    const br = readFileSync(path.join(dir, "chunk-abc123.js.br"));
    const gz = readFileSync(path.join(dir, "chunk-abc123.js.gz"));
    expect(brotliDecompressSync(br).toString()).toBe(script);
    expect(gunzipSync(gz).toString()).toBe(script);
    expect(br.length).toBeLessThan(gz.length);
    expect(gz.length).toBeLessThan(script.length / 4);
  });

  it("gives a browser that takes Brotli the Brotli copy, as a script, cached for a year", async () => {
    const res = await get("/assets/chunk-abc123.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^text\/javascript/);
    expect(res.headers["vary"]).toContain("Accept-Encoding");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // The very bytes of the copy: compression did not encode them again.
    expect(res.body.equals(readFileSync(path.join(dir, "chunk-abc123.js.br")))).toBe(true);
  });

  it("gives gzip to a browser without Brotli or that rates it lower, and the script as it is to one that names or takes neither", async () => {
    const gz = await get("/assets/chunk-abc123.js", { "accept-encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toBe(script);

    const plain = await get("/assets/chunk-abc123.js", { "accept-encoding": "identity" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString()).toBe(script);

    const rated = await get("/assets/chunk-abc123.js", { "accept-encoding": "br;q=0.5, gzip" });
    expect(rated.headers["content-encoding"]).toBe("gzip");
    const any = await get("/assets/chunk-abc123.js", { "accept-encoding": "*" });
    expect(any.headers["content-encoding"]).toBe("br");

    const unnamed = await get("/assets/chunk-abc123.js", {});
    expect(unnamed.headers["content-encoding"]).toBeUndefined();
    expect(unnamed.body.toString()).toBe(script);

    const refused = await get("/assets/chunk-abc123.js", { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.toString()).toBe(script);
  });

  it("answers HEAD like GET, without the body", async () => {
    const res = await get("/assets/chunk-abc123.js", { "accept-encoding": "br" }, "HEAD");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(Number(res.headers["content-length"])).toBe(readFileSync(path.join(dir, "chunk-abc123.js.br")).length);
    expect(res.body.length).toBe(0);
  });

  it("leaves a script under 1 kB and a picture without copies, served as they are", async () => {
    const small = await get("/assets/tiny-abc123.js", { "accept-encoding": "br, gzip" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString()).toBe(tiny);
    const picture = await get("/assets/picture-abc123.png", { "accept-encoding": "br, gzip" });
    expect(picture.headers["content-encoding"]).toBeUndefined();
    expect(picture.body.length).toBe(4096);
  });

  it("does not answer a request for a copy's own name as anything but that file", async () => {
    const res = await get("/assets/chunk-abc123.js.br", { "accept-encoding": "br" });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.equals(readFileSync(path.join(dir, "chunk-abc123.js.br")))).toBe(true);
  });
});
