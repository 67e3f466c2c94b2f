/**
 * Two origins in front of the running app for the lighthouse bench (issue 22), one process:
 *
 * - REAL_PORT passes every request and websocket on to the app unchanged: the real page;
 * - FREE_PORT does the same, except that a page (an HTML answer) comes back without its scripts
 *   (./strip-scripts.ts), compressed again as the app compresses it: the script-free copy.
 *
 * Both pages take the same path through the same proxy, so the ratio real ÷ script-free measures
 * the scripts and nothing else. The copy's stylesheet, icons and manifest come from the same
 * origin as the copy itself.
 *
 *   APP_URL=http://localhost:3000 REAL_PORT=3172 FREE_PORT=3173 npx node bench/script-free/serve.ts
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { appHeaders, appTarget, proxyUpgrades } from "../support/app-proxy.ts";
import { stripScripts } from "./strip-scripts.ts";

const target = appTarget();
const host = process.env.HOST ?? "127.0.0.1";

function proxy(req: IncomingMessage, res: ServerResponse, scriptFree: boolean) {
  const headers = appHeaders(target, req);
  const acceptsGzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  // The copy is edited as text, so the app sends it uncompressed and the proxy compresses it.
  if (scriptFree) delete headers["accept-encoding"];
  const upstream = httpRequest({ ...target.address, method: req.method, path: req.url, headers }, (answer) => {
    const html = /^text\/html\b/.test(String(answer.headers["content-type"] ?? ""));
    if (!scriptFree || !html) {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      return;
    }
    const chunks: Buffer[] = [];
    answer.on("data", (chunk: Buffer) => chunks.push(chunk));
    answer.on("end", () => {
      const text = Buffer.from(stripScripts(Buffer.concat(chunks).toString("utf8")), "utf8");
      const body = acceptsGzip ? gzipSync(text) : text;
      const out = { ...answer.headers };
      delete out["content-length"];
      delete out["transfer-encoding"];
      if (acceptsGzip) out["content-encoding"] = "gzip";
      res.writeHead(answer.statusCode ?? 502, { ...out, "content-length": String(body.length) });
      res.end(body);
    });
  });
  upstream.on("error", () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
}

function listen(port: number, scriptFree: boolean) {
  const server = createServer((req, res) => proxy(req, res, scriptFree));
  // Live prices on the real page (the copy opens no socket).
  proxyUpgrades(server, target);
  server.listen(port, host);
}

listen(Number(process.env.REAL_PORT ?? 3172), false);
listen(Number(process.env.FREE_PORT ?? 3173), true);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
