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
