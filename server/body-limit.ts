import type { Request, RequestHandler, Response } from "express";
import { BODY_LIMITS, BODY_STALL_SECONDS, bodyStalled, bodyTooLarge } from "#contract/limits.ts";
import { watchForStall as watchStall } from "#provider/http/body-stall.ts";

/** Methods whose body nobody reads: their bodies are not counted. */
const BODILESS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface BodyLimitOptions {
  /** Bytes for any request not matched below; BODY_LIMITS.form (1 MB) when omitted. */
  defaultBytes?: number;
  /** Larger limits by path prefix, e.g. a route that takes a CSV import: `{ "/portfolio/import": BODY_LIMITS.import }`. */
  byPathPrefix?: Record<string, number>;
  /** Milliseconds a body may stop arriving before the request is answered 408 (BODY_STALL_SECONDS). */
  stallMs?: number;
}

/**
 * Refuses a request body past its limit with 413, as it streams in: a declared Content-Length
 * past it at once, a chunked upload as soon as the bytes seen pass it. React Router reads the
 * body whole (request.formData()), so without this a 300 MB post would be held in memory.
 * The bytes are counted on the Node stream that React Router's request reads; after the 413 the
 * connection is closed, so the rest of the upload is never read.
 */
export function limitRequestBodies(options: BodyLimitOptions = {}): RequestHandler {
  const fallback = options.defaultBytes ?? BODY_LIMITS.form;
  const prefixes = Object.entries(options.byPathPrefix ?? {});
  const limitOf = (path: string) => prefixes.find(([prefix]) => path.startsWith(prefix))?.[1] ?? fallback;

  const stallMs = options.stallMs ?? BODY_STALL_SECONDS * 1000;
  return (req, res, next) => {
    if (BODILESS.has(req.method)) return next();
    const limit = limitOf(req.path);
    if (Number(req.get("content-length") ?? "0") > limit) return refuse(req, res, limit);
    let seen = 0;
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= limit) return;
      req.off("data", count);
      refuse(req, res, limit);
    };
    // Paused first, so listening does not start the flow: every chunk waits for the real reader,
    // which resumes the stream when it starts reading (each 'data' reaches both listeners). The
    // other order ended an empty body ('end') before a reader that starts a turn later was
    // there to see it, and the post was never answered (issue 40, finding 3).
    req.pause();
    req.on("data", count);
    watchForStall(req, res, stallMs);
    next();
  };
}

/** Answers 408 in words when the body stops arriving for `stallMs` (provider/http/body-stall.ts). */
function watchForStall(req: Request, res: Response, stallMs: number): void {
  watchStall(req, res, stallMs, () => {
    res.status(408).set("cache-control", "no-store").set("connection", "close").type("text/plain");
    res.send(bodyStalled(stallMs / 1000));
  });
}

/** How long the rest of a refused upload is read (and dropped) so the client sees the 413. */
const LINGER_MS = 1_000;

function refuse(req: Request, res: Response, limit: number): void {
  if (!res.headersSent) {
    res.status(413).set("cache-control", "no-store").type("text/plain").send(bodyTooLarge(limit));
  }
  // The reader waiting for the rest of the body gets nothing more; what still arrives is dropped,
  // not kept. Closing at once would reset the connection and a client still sending would lose
  // the 413, so the socket goes when the client hangs up or LINGER_MS after the answer.
  req.removeAllListeners("data");
  req.on("data", () => {});
  req.resume();
  const close = () => setTimeout(() => req.destroy(), LINGER_MS).unref();
  if (res.writableFinished) close();
  else res.once("finish", close);
}
