import { readdirSync } from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";
import Negotiator from "negotiator";

/** Content-Encoding names, best first, and the suffix of the copy scripts/precompress.ts writes. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;
const PREFERRED = ENCODINGS.map((e) => e.name);
/** Negotiator's `encoding` with the preference list compression passes too (its types predate the argument). */
const negotiateEncoding = Negotiator.prototype.encoding as unknown as (
  this: Negotiator,
  available: string[],
  preferred: readonly string[],
) => string | undefined;

/**
 * Answers a request for a file of `dir` (mounted at `urlPrefix`) from its Brotli or gzip copy
 * when the browser takes that encoding (ADR 0065): the request goes on to the static handler for
 * the copy, with the file's own Content-Type and Content-Encoding set, and the compression
 * middleware leaves an encoded answer alone. The copies are listed once, at start: a build's
 * `assets/` never changes while the server runs.
 */
export function precompressed(dir: string, urlPrefix: string): RequestHandler {
  const copies = new Map<string, Set<string>>();
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const encoding = ENCODINGS.find((e) => name.endsWith(e.suffix));
    if (!encoding) continue;
    const url = `${urlPrefix}/${name.slice(0, -encoding.suffix.length).split(path.sep).join("/")}`;
    copies.set(url, (copies.get(url) ?? new Set()).add(encoding.name));
  }
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const have = copies.get(req.path);
    if (!have) return next();
    // Caches keep one answer per encoding, whichever this one is.
    res.vary("Accept-Encoding");
    // Negotiated as the compression middleware does (the same negotiator, Brotli preferred on a
    // tie): Chrome asks for "gzip, deflate, br, zstd", all rated alike, and gets the smaller copy.
    const offered = ENCODINGS.filter((e) => have.has(e.name));
    const chosen = negotiateEncoding.call(new Negotiator(req), [...offered.map((e) => e.name), "identity"], PREFERRED);
    const encoding = offered.find((e) => e.name === chosen);
    if (!encoding) return next();
    res.type(path.extname(req.path));
    res.setHeader("Content-Encoding", encoding.name);
    req.url = req.path + encoding.suffix + req.url.slice(req.path.length);
    next();
  };
}
