/**
 * Serves the SPA-mode bench build (bench/spa) in front of the running app, as one origin would:
 * the build's static files (compressed, cached as server.ts caches the real build's), index.html
 * for every other page address, and everything the browser asks of the server (`*.data`,
 * `/resources/…`, forms, websockets) passed on to the app unchanged, session cookie included.
 * No CSP here: the SPA shell's inline scripts carry no nonce.
 *
 *   SPA_CLIENT_DIR=build-spa/client APP_URL=http://localhost:3000 PORT=3171 npx node bench/spa/serve.ts
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { join, resolve } from "node:path";
import compression from "compression";
import express from "express";
import { appHeaders, appTarget, proxyUpgrades } from "../support/app-proxy.ts";

const clientDir = resolve(process.env.SPA_CLIENT_DIR ?? "build-spa/client");
const target = appTarget();
const port = Number(process.env.PORT ?? 3171);
const host = process.env.HOST ?? "127.0.0.1";

const toApp = (req: IncomingMessage) =>
  !["GET", "HEAD"].includes(req.method ?? "GET") ||
  /\.data(\?|$)/.test(req.url ?? "") ||
  /^\/(resources|ws|healthz)(\/|\?|$)/.test(req.url ?? "");

function proxy(req: IncomingMessage, res: ServerResponse) {
  const upstream = httpRequest(
    { ...target.address, method: req.method, path: req.url, headers: appHeaders(target, req) },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}

const app = express();
app.disable("x-powered-by");
app.use((req, res, next) => (toApp(req) ? proxy(req, res) : next()));
app.use(compression());
app.use("/assets", express.static(join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
app.use(express.static(clientDir, { maxAge: "1h", index: false }));
app.use((_req, res) => {
  res.set("cache-control", "no-cache");
  res.sendFile(join(clientDir, "index.html"));
});

const server = createServer(app);
proxyUpgrades(server, target);
server.listen(port, host, () =>
  console.log(`SPA build ${clientDir} on http://localhost:${port}, data from ${target.url.origin}`),
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
