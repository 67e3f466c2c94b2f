import { z } from "zod";
import type { Endpoint } from "#contract/endpoint.ts";
import { describeZodError, errorResponse, HttpError, json, unauthorized } from "./errors.ts";
import { IDEMPOTENCY_HEADER } from "#contract/calls.ts";
import { checkKey, requestHash, type IdempotencyStore } from "./idempotency.ts";
import { BODY_LIMITS, bodyTooLarge } from "#contract/limits.ts";
import { DATABASE_UNAVAILABLE, isDatabaseUnavailable } from "#provider/db/unavailable.ts";

export interface Caller {
  id: number;
  permissions: ReadonlySet<string>;
  /** When the caller's bearer token expires (ms since the epoch); long-lived websockets close then. */
  expiresAt?: number | undefined;
}

export interface HandlerInput<E extends Endpoint> {
  params: z.output<E["params"]>;
  query: z.output<E["query"]>;
  body: z.output<E["body"]>;
  request: Request;
  /** The signed-in caller; present on every `auth: "user"` endpoint. */
  caller: E["auth"] extends "user" ? Caller : Caller | undefined;
}

/** A handler answers the response body (sent as JSON, 200) or a ready Response (streams, other statuses). */
export type Handler<E extends Endpoint> = (
  input: HandlerInput<E>,
) => Promise<(E["response"] extends z.ZodType ? z.input<E["response"]> : never) | Response>;

interface Route {
  endpoint: Endpoint;
  pattern: URLPattern;
  /** The path up to its first parameter: a path without it cannot match, and checking is cheap. */
  prefix: string;
  handler: (input: HandlerInput<Endpoint>) => Promise<unknown>;
  maxBodyBytes: number;
}

export interface RouteOptions {
  /**
   * The largest body this call takes, in bytes; BODY_LIMITS.form or .json (1 MB) when omitted.
   * An import takes BODY_LIMITS.import.
   */
  maxBodyBytes?: number;
}

export type Authenticate = (request: Request) => Promise<Caller | undefined>;

export class Router {
  private routes: Route[] = [];
  private readonly authenticate: Authenticate;
  private readonly idempotency: IdempotencyStore | undefined;

  /** With `idempotency`, a signed-in change carrying an Idempotency-Key is applied once (provider/http/idempotency.ts). */
  constructor(authenticate: Authenticate, options: { idempotency?: IdempotencyStore } = {}) {
    this.authenticate = authenticate;
    this.idempotency = options.idempotency;
  }

  on<E extends Endpoint>(endpoint: E, handler: Handler<E>, options: RouteOptions = {}): this {
    this.routes.push({
      endpoint,
      pattern: new URLPattern({ pathname: endpoint.path }),
      prefix: endpoint.path.split(/[:*({]/, 1)[0]!,
      handler: handler as unknown as Route["handler"],
      maxBodyBytes: options.maxBodyBytes ?? (endpoint.bodyEncoding === "form" ? BODY_LIMITS.form : BODY_LIMITS.json),
    });
    return this;
  }

  /** Answers the request, or undefined when no route has its path. */
  async handle(request: Request): Promise<Response | undefined> {
    const url = new URL(request.url);
    // (URLPattern's exec on each of the 58 routes was 5 % of the provider's time on a list page)
    const matching = this.routes
      .filter((route) => url.pathname.startsWith(route.prefix))
      .map((route) => ({ route, match: route.pattern.exec({ pathname: url.pathname }) }))
      .filter((m) => m.match);
    if (matching.length === 0) return undefined;
    const found = matching.find((m) => m.route.endpoint.method === request.method);
    if (!found) {
      const allow = matching.map((m) => m.route.endpoint.method).join(", ");
      return json({ detail: "Method Not Allowed" }, 405, { allow });
    }
    try {
      return await this.run(found.route, found.match!.pathname.groups, url, request);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error);
      if (isDatabaseUnavailable(error)) {
        console.error(`[provider] ${request.method} ${url.pathname}: database unavailable:`, (error as Error).message);
        return json({ detail: DATABASE_UNAVAILABLE }, 503, { "retry-after": "5" });
      }
      console.error(`[provider] ${request.method} ${url.pathname} failed:`, error);
      return json({ detail: "Internal server error" }, 500);
    }
  }

  private async run(
    route: Route,
    groups: Record<string, string | undefined>,
    url: URL,
    request: Request,
  ): Promise<Response> {
    const { endpoint } = route;
    const caller = await this.authenticate(request);
    if (endpoint.auth === "user" && !caller) throw unauthorized();

    const decoded = Object.fromEntries(
      Object.entries(groups).map(([k, v]) => [k, v === undefined ? v : safeDecode(v)]),
    );
    const rawQuery = Object.fromEntries(url.searchParams);
    const rawBody = await readBody(request, endpoint, route.maxBodyBytes);
    refuseDeepNesting(rawBody);
    refuseNul(decoded, "path");
    refuseNul(rawQuery, "query");
    refuseNul(rawBody, "body");
    const params = parse(endpoint.params, decoded, "path");
    const query = parse(endpoint.query, rawQuery, "query");
    const body = parse(endpoint.body, rawBody, "body");

    const answer = async () => {
      const result = await route.handler({ params, query, body, request, caller } as HandlerInput<Endpoint>);
      return result instanceof Response ? result : json(result);
    };
    const key = request.headers.get(IDEMPOTENCY_HEADER);
    // Streams (AI texts) are not kept: only a change with a JSON answer is made once per key.
    if (key !== null && caller && this.idempotency && request.method !== "GET" && endpoint.response !== "text-stream") {
      return this.idempotency.once(
        {
          userId: caller.id,
          key: checkKey(key),
          requestHash: requestHash(request.method, url.pathname + url.search, rawBody),
        },
        answer,
      );
    }
    return answer();
  }
}

function parse<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError(422, describeZodError(parsed.error, where));
  return parsed.data;
}

/** Deeper than any call's body: JSON nested further is refused before anything walks it recursively. */
const MAX_BODY_DEPTH = 32;

/** Measures the nesting without recursion, so a body of 100,000 brackets cannot overflow the stack. */
function refuseDeepNesting(value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth >= MAX_BODY_DEPTH) {
      throw new HttpError(400, `Request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`);
    }
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
}

/**
 * PostgreSQL text cannot hold the NUL character: refused here, for every call at once, rather
 * than reaching the database and failing there as a 500.
 */
function refuseNul(value: unknown, where: string, name = ""): void {
  if (typeof value === "string") {
    if (value.includes("\u0000")) {
      throw new HttpError(400, `${where}${name ? `.${name}` : ""}: must not contain the NUL character (\\u0000)`);
    }
    return;
  }
  if (typeof value !== "object" || value === null) return;
  for (const [key, item] of Object.entries(value)) {
    refuseNul(key, where, name);
    refuseNul(item, where, name ? `${name}.${key}` : key);
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new HttpError(400, "The path is not valid URL encoding");
  }
}

async function readBody(request: Request, endpoint: Endpoint, limit: number): Promise<unknown> {
  // A call that takes no body ignores one sent anyway (some clients post `{}`).
  if (request.method === "GET" || request.method === "HEAD" || endpoint.body instanceof z.ZodUndefined) {
    return undefined;
  }
  const text = await readLimited(request, limit);
  if (text.trim() === "") return undefined;
  const type = request.headers.get("content-type") ?? "";
  if (endpoint.bodyEncoding === "form" || type.includes("application/x-www-form-urlencoded")) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "Request body must be valid JSON");
  }
}

/**
 * The body as text, read chunk by chunk and given up as soon as it passes `limit` bytes: a chunked
 * upload without Content-Length is refused after `limit` bytes, not after all of it arrived
 * (provider/server.ts then drops the rest and closes the connection).
 */
async function readLimited(request: Request, limit: number): Promise<string> {
  const tooLarge = () => new HttpError(413, bodyTooLarge(limit));
  if (Number(request.headers.get("content-length") ?? "0") > limit) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
