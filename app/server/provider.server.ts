import { STATUS_CODES } from "node:http";
import { fillPath, type Endpoint, type ResponseOf } from "#contract/endpoint.ts";
import { detailText } from "#contract/errors.ts";
import { providerUrl } from "./env.server.ts";

/** A provider call that failed: HTTP status (0 when the provider could not be reached) and its detail. */
export class ProviderError extends Error {
  readonly status: number;
  readonly statusText: string;
  readonly detail: string | undefined;
  constructor(status: number, statusText: string, detail?: string) {
    super(detail ?? (status ? `Error: ${status} - ${statusText}` : statusText));
    this.status = status;
    this.statusText = statusText;
    this.detail = detail;
  }
}

export interface CallInput {
  token?: string | undefined;
  params?: Record<string, string | number>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** The embedded provider's own request handler, when it runs in this process. */
type ProviderFetch = (request: Request) => Promise<Response>;
let inProcess: ProviderFetch | undefined;

/**
 * server.ts hands over the embedded provider's handler: calls then go to it directly, not through
 * a loopback socket and a second HTTP parse on each side (docs/decisions/0045-lean-list-pages-and-one-call-path.md).
 * The provider sees the same Request either way; an external provider (PROVIDER_URL) is fetched.
 */
export function provideProviderFetch(handler: ProviderFetch | undefined): void {
  inProcess = handler;
}

const TIMEOUT_MS = 15_000;
/**
 * A streamed answer (AI text) starts once the provider has its first piece, which a model may take
 * a while to write (the provider itself gives up after AI_TIMEOUT_MS, 30 s by default); after
 * that the stream runs as long as pieces keep coming (the provider ends a stalled one).
 */
const STREAM_START_TIMEOUT_MS = 60_000;

/**
 * Calls the provider API with the contract's schemas on both sides: the request body is
 * checked before it leaves, the response is checked before the app uses it.
 */
export async function callProvider<E extends Endpoint>(endpoint: E, input: CallInput = {}): Promise<ResponseOf<E>> {
  const url = new URL(providerUrl() + fillPath(endpoint.path, input.params ?? {}));
  for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));

  const headers = new Headers(input.headers);
  headers.set("accept", endpoint.response === "text-stream" ? "text/plain" : "application/json");
  if (input.token) headers.set("authorization", `Bearer ${input.token}`);
  let body: string | undefined;
  if (input.body !== undefined) {
    const checked = endpoint.body.safeParse(input.body);
    if (!checked.success) {
      throw new ProviderError(422, "Unprocessable Entity", checked.error.issues.map((i) => i.message).join("; "));
    }
    if (endpoint.bodyEncoding === "form") {
      headers.set("content-type", "application/x-www-form-urlencoded");
      body = new URLSearchParams(checked.data as Record<string, string>).toString();
    } else {
      headers.set("content-type", "application/json");
      body = JSON.stringify(checked.data);
    }
  }

  const stream = endpoint.response === "text-stream";
  // A stream's timeout covers only its start: AbortSignal.timeout would cut a long answer mid-way.
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException("The provider did not answer in time", "TimeoutError")),
    stream ? STREAM_START_TIMEOUT_MS : TIMEOUT_MS,
  );
  timer.unref?.();
  const signal = input.signal ? AbortSignal.any([input.signal, timeout.signal]) : timeout.signal;
  let response: Response;
  try {
    const init = { method: endpoint.method, headers, body, signal };
    response = inProcess ? await inProcess(new Request(url, init)) : await fetch(url, init);
  } catch (error) {
    if (input.signal?.aborted) throw error;
    throw new ProviderError(0, "Network error. Please check your connection.");
  } finally {
    if (stream) clearTimeout(timer);
  }

  if (!response.ok) {
    const text = await response.text().catch(() => "");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    // A Response made in this process has no status text; HTTP would have carried the standard one.
    const statusText = response.statusText || STATUS_CODES[response.status] || "";
    throw new ProviderError(response.status, statusText, detailText(parsed));
  }

  if (endpoint.response === "text-stream") {
    if (!response.body) throw new ProviderError(502, "Bad Gateway", "No response body received from server.");
    return response.body as ResponseOf<E>;
  }
  const json: unknown = await response.json().catch(() => undefined);
  const parsed = endpoint.response.safeParse(json);
  if (!parsed.success) {
    console.error(`[provider] ${endpoint.method} ${endpoint.path} answered an unexpected shape`, parsed.error.issues);
    throw new ProviderError(502, "Bad Gateway", "The provider answered in an unexpected shape");
  }
  return parsed.data as ResponseOf<E>;
}
