import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { endpoint } from "#contract/endpoint.ts";
import { BODY_LIMITS } from "#contract/limits.ts";
import { chunkedUpload } from "../../tests/support/chunked-upload.ts";
import { startProviderServer, type RunningProvider } from "#provider/server.ts";
import { Router } from "./router.ts";

/**
 * Request bodies past their limit (1 MB for forms and JSON, 5 MB for a call that takes an import)
 * are refused with 413 while they stream in: the provider answers a body it has not received
 * whole, so it never holds more than the limit.
 */
let running: RunningProvider;

beforeAll(async () => {
  running = await startProviderServer({
    port: 0,
    host: "127.0.0.1",
    seedDemo: false,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
  });
});
afterAll(() => running.close());

describe("request body limits over HTTP", () => {
  it("refuses a chunked form post past 1 MB with 413 before the body has ended", async () => {
    const outcome = await chunkedUpload(`${running.url}/auth/token`, {
      bytes: 3_000_000,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.body)).toEqual({
      detail: "The request body is too large: at most 1 MB is accepted here",
    });
  });

  it("refuses a chunked JSON body past 1 MB the same way", async () => {
    const outcome = await chunkedUpload(`${running.url}/auth/register`, {
      bytes: 3_000_000,
      contentType: "application/json",
    });
    expect(outcome.status).toBe(413);
  });

  it("refuses a declared Content-Length past the limit without reading the body", async () => {
    const response = await fetch(`${running.url}/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "x".repeat(BODY_LIMITS.json) }),
    });
    expect(response.status).toBe(413);
  });

  it("still takes a body under the limit", async () => {
    const response = await fetch(`${running.url}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "nobody", password: "x".repeat(500_000) }),
    });
    // Read and validated (the password is longer than any password may be), not refused for its size.
    expect(response.status).toBe(422);
  });
});

describe("a route's own limit (imports)", () => {
  const importCall = endpoint({
    method: "POST",
    path: "/api/test-import",
    auth: "public",
    body: z.object({ csv: z.string() }),
    response: z.object({ bytes: z.number() }),
  });
  const router = new Router(async () => undefined).on(importCall, async ({ body }) => ({ bytes: body.csv.length }), {
    maxBodyBytes: BODY_LIMITS.import,
  });
  /** A body streamed in 100 kB parts, counting how many parts the router asked for. */
  function streamed(bytes: number) {
    const part = new TextEncoder().encode("x".repeat(100_000));
    const parts = Math.ceil(bytes / part.length);
    const state = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"csv":"'));
      },
      pull(controller) {
        if (state.pulled === parts) {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
          return;
        }
        state.pulled++;
        controller.enqueue(part);
      },
    });
    const request = new Request("http://provider.test/api/test-import", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    return { request, state, parts };
  }

  it("takes 3 MB on a route whose limit is BODY_LIMITS.import (5 MB)", async () => {
    const { request } = streamed(3_000_000);
    const response = await router.handle(request);
    expect(response!.status).toBe(200);
    expect(await response!.json()).toEqual({ bytes: 3_000_000 });
  });

  it("refuses 50 MB there with 413 after reading little more than 5 MB of it", async () => {
    const { request, state, parts } = streamed(50_000_000);
    const response = await router.handle(request);
    expect(response!.status).toBe(413);
    expect(await response!.json()).toEqual({
      detail: "The request body is too large: at most 5 MB is accepted here",
    });
    expect(state.pulled).toBeLessThan(parts / 5);
  });
});

describe("a body that stops arriving (issue 40's stalled bodies, on the provider too)", () => {
  let stalling: RunningProvider;
  beforeAll(async () => {
    stalling = await startProviderServer({
      port: 0,
      host: "127.0.0.1",
      seedDemo: false,
      secrets: ["test-secret-test-secret-test-secret!"],
      jobs: false,
      bodyStallMs: 300,
    });
  });
  afterAll(() => stalling.close());

  it("answers 408 with a detail and closes the connection, where it waited five minutes before", async () => {
    const { port } = new URL(stalling.url);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = "";
      const socket = connect(Number(port), "127.0.0.1", () =>
        socket.write(
          "POST /auth/register HTTP/1.1\r\nHost: provider.test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        ),
      );
      socket.on("data", (chunk) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"detail":"The request body stopped arriving for 0.3 seconds. Please send it again."}');
  });
});
