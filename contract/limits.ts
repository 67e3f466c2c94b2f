/**
 * Request body limits, in bytes, shared by the web app (server/body-limit.ts) and the provider
 * (provider/http/router.ts). A body past its limit is refused with 413 while it streams in, so
 * neither process ever holds more than the limit of one request. README "Security and limits".
 */
export const BODY_LIMITS = {
  /** HTML form posts (application/x-www-form-urlencoded, multipart). */
  form: 1_000_000,
  /** JSON bodies. */
  json: 1_000_000,
  /** File imports (a trade journal's CSV under /api/trades/import): pass it as the route's `maxBodyBytes`. */
  import: 5_000_000,
} as const;

/** "1 MB" for 1,000,000: the limit as the refusal's `detail` states it. */
function describeBytes(bytes: number): string {
  return bytes % 1_000_000 === 0 ? `${bytes / 1_000_000} MB` : `${bytes} bytes`;
}

export const bodyTooLarge = (limit: number) =>
  `The request body is too large: at most ${describeBytes(limit)} is accepted here`;

/**
 * Seconds a request body may stop arriving (no byte at all) before the web app answers 408: a post
 * that declares a body and never sends it is answered in seconds, not at Node's 5-minute timeout
 * (issue 40, finding 3). A slow phone's upload keeps going as long as bytes keep coming.
 */
export const BODY_STALL_SECONDS = 10;

export const bodyStalled = (seconds: number) =>
  `The request body stopped arriving for ${seconds} seconds. Please send it again.`;
