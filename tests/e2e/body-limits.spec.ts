import { connect } from "node:net";
import { expect, test } from "./support/test.ts";
import { chunkedUpload } from "../support/chunked-upload.ts";
import { embeddedProviderUrl } from "./support/ports.ts";

/**
 * A client streams 3 MB without Content-Length and without ending the body, to the web app's
 * login form and to the embedded provider: each answers 413 once the body passes 1 MB, though it
 * never ended (one that read bodies whole would never answer), and goes on serving. Run without
 * a browser (plain HTTP).
 */
test("the app refuses a chunked form post past 1 MB while it streams in", async ({ baseURL, request }) => {
  const outcome = await chunkedUpload(`${baseURL}/login`, {
    bytes: 3_000_000,
    contentType: "application/x-www-form-urlencoded",
  });
  expect(outcome).toEqual({ status: 413, body: "The request body is too large: at most 1 MB is accepted here" });

  // A sign-in of ordinary size still goes through.
  const login = await request.post("/login", {
    form: { intent: "login", username: "demo", password: "demo1234" },
    maxRedirects: 0,
  });
  expect(login.status()).toBe(302);
  expect(login.headers()["location"]).toBe("/user-stocks");
});

test("the embedded provider refuses a chunked JSON body past 1 MB while it streams in", async ({ request }) => {
  const outcome = await chunkedUpload(`${embeddedProviderUrl()}/auth/register`, {
    bytes: 3_000_000,
    contentType: "application/json",
  });
  expect(outcome).toEqual({
    status: 413,
    body: JSON.stringify({ detail: "The request body is too large: at most 1 MB is accepted here" }),
  });
  expect((await request.get(`${embeddedProviderUrl()}/healthz`)).status()).toBe(200);
});

/** Sends a raw request on a socket; resolves with the status line once the server answered or hung up. */
function rawStatusLine(url: string, head: string[], body = ""): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = connect(Number(port), hostname, () =>
      socket.write(`${[...head, `Host: ${hostname}:${port}`, "Connection: close"].join("\r\n")}\r\n\r\n${body}`),
    );
    socket.setTimeout(20_000, () => socket.destroy(new Error(`no answer from ${url}: ${JSON.stringify(answer)}`)));
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer.split("\r\n")[0]!));
    socket.on("error", reject);
  });
}

// Issue 40 findings 3 and 6: an empty post was never answered, and a post that is not a form answered 500.
test("the app answers empty and non-form posts to a form page with a 4xx", async ({ baseURL }) => {
  const empty = await rawStatusLine(baseURL!, ["POST /login HTTP/1.1", "Content-Length: 0"]);
  expect(empty).toBe("HTTP/1.1 400 Bad Request");
  const emptyForm = await rawStatusLine(baseURL!, [
    "POST /login HTTP/1.1",
    "Content-Type: application/x-www-form-urlencoded",
    "Content-Length: 0",
  ]);
  expect(emptyForm).toBe("HTTP/1.1 400 Bad Request");
  const emptyChunked = await rawStatusLine(
    baseURL!,
    ["POST /login HTTP/1.1", "Transfer-Encoding: chunked"],
    "0\r\n\r\n",
  );
  expect(emptyChunked).toBe("HTTP/1.1 400 Bad Request");
  const text = await rawStatusLine(
    baseURL!,
    ["POST /login HTTP/1.1", "Content-Type: text/plain", "Content-Length: 5"],
    "hello",
  );
  expect(text).toBe("HTTP/1.1 415 Unsupported Media Type");
  const json = await rawStatusLine(
    baseURL!,
    ["POST /login HTTP/1.1", "Content-Type: application/json", "Content-Length: 2"],
    "{}",
  );
  expect(json).toBe("HTTP/1.1 415 Unsupported Media Type");
});

test("the app answers 408 to a post whose body stops arriving", async ({ baseURL }) => {
  test.setTimeout(40_000);
  const stalled = await rawStatusLine(
    baseURL!,
    ["POST /login HTTP/1.1", "Content-Type: application/x-www-form-urlencoded", "Content-Length: 100"],
    "intent=login",
  );
  expect(stalled).toBe("HTTP/1.1 408 Request Timeout");
});
