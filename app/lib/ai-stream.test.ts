import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamAiText } from "./ai-stream.ts";
import { messages } from "./messages.ts";

/** The AI stream reader against a real local HTTP server, each path answering as a case needs. */

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>;
const handlers = new Map<string, Handler>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => void handlers.get(req.url ?? "")?.(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const textHead = { "content-type": "text/plain; charset=utf-8" };

describe("streamAiText", () => {
  it("posts the body as JSON and hands over each piece as it arrives", async () => {
    const release = deferred();
    let received: { method?: string; type?: string; body?: string } = {};
    handlers.set("/stream", async (req, res, body) => {
      received = { method: req.method, type: req.headers["content-type"], body };
      res.writeHead(200, textHead);
      res.write("First piece. ");
      await release.promise;
      res.end("Second piece.");
    });
    const pieces: string[] = [];
    const firstArrived = deferred();
    const done = streamAiText(
      `${base}/stream`,
      { ticker: "AAPL" },
      {
        onText: (p) => {
          pieces.push(p);
          firstArrived.resolve();
        },
      },
    );
    await firstArrived.promise; // the server has not finished yet
    expect(pieces).toEqual(["First piece. "]);
    release.resolve();
    expect(await done).toEqual({ kind: "done" });
    expect(pieces.join("")).toBe("First piece. Second piece.");
    expect(received).toEqual({ method: "POST", type: "application/json", body: '{"ticker":"AAPL"}' });
  });

  it("decodes characters split between chunks", async () => {
    handlers.set("/split", async (_req, res) => {
      res.writeHead(200, textHead);
      const bytes = Buffer.from("Prix: 12 € — fin");
      for (const b of bytes) {
        res.write(Buffer.from([b]));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
    let text = "";
    expect(await streamAiText(`${base}/split`, {}, { onText: (p) => (text += p) })).toEqual({ kind: "done" });
    expect(text).toBe("Prix: 12 € — fin");
  });

  it("gives 'Error fetching AI analysis.' for an error status, a refused connection and a cut stream", async () => {
    handlers.set("/fail", (_req, res) => {
      res.writeHead(502, { "content-type": "application/json" }).end('{"detail":"The AI service answered 500."}');
    });
    expect(await streamAiText(`${base}/fail`, {}, { onText: () => {} })).toEqual({
      kind: "error",
      error: messages.aiFailed,
    });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await streamAiText(`http://127.0.0.1:${port}/x`, {}, { onText: () => {} })).toEqual({
      kind: "error",
      error: "Error fetching AI analysis.",
    });

    handlers.set("/cut", (_req, res) => {
      res.writeHead(200, textHead);
      res.write("Partial ");
      setTimeout(() => res.destroy(), 20);
    });
    let text = "";
    expect(await streamAiText(`${base}/cut`, {}, { onText: (p) => (text += p) })).toEqual({
      kind: "error",
      error: messages.aiFailed,
    });
    expect(text).toBe("Partial ");
  });

  it("gives the provider's wait when the trader asked for too many AI texts (429)", async () => {
    const detail = "Too many AI texts. Please wait 42 seconds and try again.";
    handlers.set("/busy", (_req, res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "42" }).end(JSON.stringify({ detail }));
    });
    expect(await streamAiText(`${base}/busy`, {}, { onText: () => {} })).toEqual({ kind: "error", error: detail });
    // A 429 without a readable detail is still the general failure.
    handlers.set("/busy-plain", (_req, res) => void res.writeHead(429, textHead).end("slow down"));
    expect(await streamAiText(`${base}/busy-plain`, {}, { onText: () => {} })).toEqual({
      kind: "error",
      error: messages.aiFailed,
    });
  });

  it("gives 'No response body received from server.' when the answer has no body", async () => {
    handlers.set("/empty", (_req, res) => void res.writeHead(204).end());
    expect(await streamAiText(`${base}/empty`, {}, { onText: () => {} })).toEqual({
      kind: "error",
      error: "No response body received from server.",
    });
  });

  it("reports an ended session's redirect to /login for the page to follow", async () => {
    handlers.set("/ended", (_req, res) => void res.writeHead(302, { location: "/login" }).end());
    handlers.set(
      "/login",
      (_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end("<html>login</html>"),
    );
    const pieces: string[] = [];
    expect(await streamAiText(`${base}/ended`, {}, { onText: (p) => pieces.push(p) })).toEqual({
      kind: "redirect",
      url: `${base}/login`,
    });
    expect(pieces).toEqual([]);
  });

  it("aborting stops the request: the server sees the connection close", async () => {
    const closed = deferred();
    handlers.set("/slow", (_req, res) => {
      res.writeHead(200, textHead);
      res.write("Start ");
      res.on("close", () => closed.resolve());
    });
    const abort = new AbortController();
    const outcome = streamAiText(`${base}/slow`, {}, { signal: abort.signal, onText: () => abort.abort() });
    expect(await outcome).toEqual({ kind: "aborted" });
    await closed.promise;
  });
});
