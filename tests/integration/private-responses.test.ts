import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { privateResponses } from "../../server/private-responses.ts";

/**
 * The middleware of server.ts in a bare Express app whose routes set headers the way React
 * Router's adapter does (appended as the answer is sent).
 */
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(privateResponses());
  app.get("/cached", (_req, res) => {
    res.append("cache-control", "public, max-age=3600");
    res.send("page");
  });
  app.post("/stream", (_req, res) => {
    res.append("cache-control", "no-store, no-transform");
    res.send("words");
  });
  app.post("/login", (_req, res) => {
    res.append("set-cookie", "__session=abc; Path=/; HttpOnly");
    res.redirect(302, "/user-stocks");
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("responses to signed-in requests", () => {
  it("are private, no-store whatever the route set (pages, .data, resource routes alike)", async () => {
    for (const path of ["/cached", "/cached.data"]) {
      const res = await fetch(base + path, { headers: { cookie: "theme=dark; __session=sealed" } });
      expect(res.headers.get("cache-control"), path).toBe("private, no-store");
    }
  });

  it("include the answer that starts a session", async () => {
    const res = await fetch(base + "/login", { method: "POST", redirect: "manual" });
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("keep a stream's no-transform, which keeps compression from holding its text back", async () => {
    const res = await fetch(base + "/stream", { method: "POST", headers: { cookie: "__session=sealed" } });
    expect(res.headers.get("cache-control")).toBe("private, no-store, no-transform");
  });

  it("leave signed-out pages as the route set them", async () => {
    const res = await fetch(base + "/cached", { headers: { cookie: "theme=dark" } });
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
  });
});
