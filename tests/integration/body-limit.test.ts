import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { createReadableStreamFromReadable } from "@react-router/node";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMITS } from "#contract/limits.ts";
import { limitRequestBodies } from "../../server/body-limit.ts";
import { arrivalOrder } from "../../server/arrival-order.ts";
import { chunkedUpload } from "../support/chunked-upload.ts";

/**
 * The body limit of server.ts in a bare Express app whose handler reads the body the way React
 * Router's adapter does (a web stream over the Node request, read whole).
 */
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(limitRequestBodies({ byPathPrefix: { "/import": BODY_LIMITS.import }, stallMs: 500 }));
  // As in server.ts: the reader starts a turn of the event loop after the limit saw the request.
  app.use(arrivalOrder());
  app.post("/{*any}", async (req, res, next) => {
    try {
      const body = createReadableStreamFromReadable(req);
      const text = await new Response(body).text();
      res.send(`read ${text.length}`);
    } catch (error) {
      if (!res.headersSent) next(error);
    }
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("request body limit", () => {
  it("refuses a chunked body past 1 MB with 413 before the body has ended", async () => {
    const outcome = await chunkedUpload(`${base}/login`, {
      bytes: 3_000_000,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(outcome).toEqual({ status: 413, body: "The request body is too large: at most 1 MB is accepted here" });
  });

  it("refuses a declared Content-Length past the limit at once", async () => {
    const response = await fetch(`${base}/login`, { method: "POST", body: "x".repeat(BODY_LIMITS.form + 1) });
    expect(response.status).toBe(413);
  });

  it("passes a body under the limit whole to the reader", async () => {
    const outcome = await chunkedUpload(`${base}/login`, { bytes: 900_000, contentType: "text/plain", end: true });
    expect(outcome).toEqual({ status: 200, body: "read 900000" });
  });

  it("gives a path its own larger limit (imports)", async () => {
    const taken = await chunkedUpload(`${base}/import/trades`, {
      bytes: 3_000_000,
      contentType: "text/csv",
      end: true,
    });
    expect(taken).toEqual({ status: 200, body: "read 3000000" });
    const refused = await chunkedUpload(`${base}/import/trades`, { bytes: 7_000_000, contentType: "text/csv" });
    expect(refused).toEqual({ status: 413, body: "The request body is too large: at most 5 MB is accepted here" });
  });
});

/** Sends `head` (and `body`) on a raw socket and resolves with what came back once the server answered or hung up. */
function rawPost(head: string[], body = ""): Promise<string> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(Number(port), "127.0.0.1", () =>
      socket.write(
        `${["POST /login HTTP/1.1", "Host: app.test", "Connection: close", ...head].join("\r\n")}\r\n\r\n${body}`,
      ),
    );
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("bodies that are empty or never arrive (issue 40, finding 3)", () => {
  it("answers a post with Content-Length: 0", async () => {
    const answer = await rawPost(["Content-Type: application/x-www-form-urlencoded", "Content-Length: 0"]);
    expect(answer).toMatch(/^HTTP\/1\.1 200 [^]*read 0$/);
  });

  it("answers an empty chunked post", async () => {
    const answer = await rawPost(["Transfer-Encoding: chunked"], "0\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 200 [^]*read 0$/);
  });

  it("answers 408 when a declared body stops arriving, and closes the connection", async () => {
    const answer = await rawPost(["Content-Type: application/x-www-form-urlencoded", "Content-Length: 100"], "a=1");
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain("The request body stopped arriving for 0.5 seconds. Please send it again.");
  });
});
