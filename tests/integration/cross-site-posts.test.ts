import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_REFUSED, refuseCrossSitePosts } from "../../server/cross-site-posts.ts";

/** The middleware of server.ts in a bare Express app: what passes and what is refused. */
let server: Server;
let base: string;
let host: string;

beforeAll(async () => {
  const app = express();
  app.use(refuseCrossSitePosts());
  app.all("/{*any}", (req, res) => {
    res.send(`reached ${req.method}`);
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  host = `127.0.0.1:${port}`;
  base = `http://${host}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(path: string, headers: Record<string, string>, method = "POST") {
  const res = await fetch(base + path, { method, headers, body: method === "GET" ? undefined : "intent=delete" });
  return { status: res.status, text: await res.text() };
}

describe("cross-site state changes are refused", () => {
  it("passes a form post from our own pages (same Origin, Sec-Fetch-Site same-origin)", async () => {
    expect(await post("/user-stocks", { origin: base, "sec-fetch-site": "same-origin" })).toEqual({
      status: 200,
      text: "reached POST",
    });
  });

  it("passes a request that names no origin (curl, scripts): the SameSite=Lax session never rides on one", async () => {
    expect((await post("/user-stocks", {})).status).toBe(200);
    expect((await post("/user-stocks", { "sec-fetch-site": "none" })).status).toBe(200);
  });

  it("refuses another site's Origin with 403 and a readable text, for every changing method", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await post("/user-stocks", { origin: "https://evil.example" }, method);
      expect(res, method).toEqual({ status: 403, text: CROSS_SITE_REFUSED });
    }
  });

  it("refuses Origin null (sandboxed frames, no-referrer pages) and garbage", async () => {
    expect((await post("/login", { origin: "null" })).status).toBe(403);
    expect((await post("/login", { origin: "not a url" })).status).toBe(403);
  });

  it("refuses Sec-Fetch-Site cross-site or same-site even without Origin", async () => {
    expect((await post("/resources/ai/stock-analysis", { "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await post("/resources/ai/stock-analysis", { "sec-fetch-site": "same-site" })).status).toBe(403);
  });

  it("refuses the same host on another port (another origin)", async () => {
    const [name, port] = host.split(":");
    expect((await post("/logout", { origin: `http://${name}:${Number(port) + 1}` })).status).toBe(403);
  });

  it("lets reads through whatever their origin (links from other sites work)", async () => {
    const res = await post("/user-stocks", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }, "GET");
    expect(res).toEqual({ status: 200, text: "reached GET" });
  });
});
