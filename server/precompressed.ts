import { readdirSync } from "node:fs";
import path from "node:path";
import type { RequestHandler } from "express";

/** Content-Encoding names, best first, and the suffix of the copy scripts/precompress.ts writes. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

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
    const encoding = bestEncoding(
      req.get("accept-encoding") ?? "",
      ENCODINGS.filter((e) => have.has(e.name)),
    );
    if (!encoding) return next();
    res.type(path.extname(req.path));
    res.setHeader("Content-Encoding", encoding.name);
    req.url = req.path + encoding.suffix + req.url.slice(req.path.length);
    next();
  };
}

/**
 * The encoding the browser rates highest, ours breaking a tie (Brotli first): Chrome asks for
 * "gzip, deflate, br, zstd", all rated alike, and should get the smaller copy. None when the
 * browser rates every copy 0 or names none (no header: the file as it is).
 */
function bestEncoding<E extends { name: string }>(header: string, offered: readonly E[]): E | undefined {
  const rated = new Map<string, number>();
  for (const part of header.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";");
    if (!coding) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    rated.set(coding, q === undefined ? 1 : Number(q));
  }
  let best: E | undefined;
  let bestQ = 0;
  for (const encoding of offered) {
    const q = rated.get(encoding.name) ?? rated.get("*") ?? 0;
    if (q > bestQ) [best, bestQ] = [encoding, q];
  }
  return best;
}
