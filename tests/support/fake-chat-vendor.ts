/**
 * A local HTTP server that speaks the OpenAI chat-completions streaming protocol (server-sent
 * events: `data: {json}` lines, a blank line after each, `data: [DONE]` at the end), for tests and
 * benchmarks of the provider's OpenAI-compatible explainer. Each test scripts the answer.
 */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  stream: boolean;
  [key: string]: unknown;
}

export interface VendorReply {
  path: string;
  headers: IncomingHttpHeaders;
  body: ChatRequest;
  /** 200 with the event-stream headers (sent by the first piece when not called). */
  start(): void;
  /** One `delta.content` piece. */
  piece(content: string, finishReason?: string): void;
  /** The assistant role delta that opens real streams, with no content. */
  role(): void;
  /** A raw `data:` event. */
  event(data: string): void;
  /** `data: [DONE]` and the end of the response. */
  done(): void;
  /** An error status with a JSON body, before any streaming. */
  fail(status: number, body: unknown): void;
  /** A plain JSON completion (a server that ignores `stream: true`). */
  json(content: string): void;
  /** Drops the connection without finishing. */
  cut(): void;
  /** Resolves when the client went away before the answer finished. */
  readonly clientGone: Promise<void>;
}

export interface FakeChatVendor {
  /** Base URL as AI_BASE_URL takes it, e.g. http://127.0.0.1:41234/v1. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: ChatRequest[];
  /** How the next requests are answered; replace per test. */
  answer: (reply: VendorReply) => void | Promise<void>;
  close(): Promise<void>;
}

const chunk = (content: string, finishReason: string | null = null) =>
  JSON.stringify({
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: 0,
    model: "test-model",
    choices: [{ index: 0, delta: { content }, finish_reason: finishReason }],
  });

export async function startFakeChatVendor(port = 0): Promise<FakeChatVendor> {
  const vendor: FakeChatVendor = {
    baseUrl: "",
    requests: [],
    answer: (reply) => {
      reply.role();
      reply.piece("Hello");
      reply.done();
    },
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (d: string) => (raw += d));
    req.on("end", () => {
      let body: ChatRequest;
      try {
        body = JSON.parse(raw) as ChatRequest;
      } catch {
        res.writeHead(400, { "content-type": "application/json" }).end('{"error":{"message":"bad json"}}');
        return;
      }
      vendor.requests.push(body);
      void Promise.resolve(vendor.answer(replyFor(req.url ?? "", req.headers, body, res))).catch((error: Error) => {
        if (!res.headersSent) res.writeHead(500).end(error.message);
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  vendor.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  vendor.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return vendor;
}

function replyFor(path: string, headers: IncomingHttpHeaders, body: ChatRequest, res: ServerResponse): VendorReply {
  let finished = false;
  const clientGone = new Promise<void>((resolve) => {
    res.on("close", () => {
      if (!finished) resolve();
    });
  });
  const start = () => {
    if (res.headersSent) return;
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    res.flushHeaders();
  };
  const write = (data: string) => {
    start();
    res.write(`data: ${data}\n\n`);
  };
  return {
    path,
    headers,
    body,
    start,
    role: () => write(JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant" }, finish_reason: null }] })),
    piece: (content, finishReason) => write(chunk(content, finishReason)),
    event: write,
    done() {
      write("[DONE]");
      finished = true;
      res.end();
    },
    fail(status, errorBody) {
      finished = true;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(errorBody));
    },
    json(content) {
      finished = true;
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(
          JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] }),
        );
    },
    cut() {
      finished = true;
      res.destroy();
    },
    clientGone,
  };
}
