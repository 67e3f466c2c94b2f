import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express from "express";
import { RouterContextProvider, type RouterContext, type ServerBuild } from "react-router";
import { provideAppEnv, readAppEnv, type AppEnv, type RunningAppEnv } from "./app/server/env.server.ts";
import { securityHeaders } from "./server/security-headers.ts";
import { refuseCrossSitePosts } from "./server/cross-site-posts.ts";
import { limitRequestBodies } from "./server/body-limit.ts";
import { privateResponses } from "./server/private-responses.ts";
import { precompressed } from "./server/precompressed.ts";
import { arrivalOrder } from "./server/arrival-order.ts";
import { googleWebConfig } from "./app/server/firebase.server.ts";
import { provideProviderFetch } from "./app/server/provider.server.ts";
import { SERVICE_WORKER_URL } from "./app/offline/index.ts";
import { createLiveRelay } from "./server/live-relay.ts";
import { liveSessionOf, providerAccepts } from "./server/live-session.ts";
import { WS_STOCK_UPDATES, WS_TRADE_UPDATES } from "./contract/ws.ts";

/**
 * One process serves the web app (Vite middleware in development, the built output in
 * production) and, unless PROVIDER_URL points elsewhere, the embedded provider API.
 */
let env: AppEnv;
try {
  env = readAppEnv();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const production = env.NODE_ENV === "production";

let closeProvider = async () => {};
let embeddedProviderUrl: string | undefined;
/** The embedded provider's handler: the app's provider calls reach it in-process (ADR 0045). */
let embeddedProviderFetch: ((request: Request) => Promise<Response>) | undefined;
if (!env.PROVIDER_URL) {
  const { readProviderEnv, providerStartOptions } = await import("./provider/env.ts");
  const { startProviderServer } = await import("./provider/server.ts");
  const { DataDirInUse } = await import("./provider/db/data-dir-lock.ts");
  let providerEnv;
  try {
    providerEnv = readProviderEnv();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  if (!providerEnv.DATABASE_URL) mkdirSync(providerEnv.DATA_DIR, { recursive: true });
  let provider;
  try {
    provider = await startProviderServer(providerStartOptions(providerEnv));
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  embeddedProviderUrl = provider.url;
  // An in-process call is trusted like a loopback peer: the provider believes its X-Forwarded-For.
  embeddedProviderFetch = (request) => provider.provider.fetch(request);
  closeProvider = provider.close;
  console.log(`Embedded provider API on ${provider.url}`);
}
// The settings with the provider's address and the session secret filled in, passed explicitly to
// this process's modules (the live relay's session check) and to every server build (requestHandler).
const runningEnv: RunningAppEnv = {
  ...env,
  PROVIDER_URL: env.PROVIDER_URL ?? embeddedProviderUrl!,
  SESSION_SECRET: env.SESSION_SECRET ?? sessionSecret(env.DATA_DIR),
};
provideAppEnv(runningEnv);
// This process's own copy of the provider calls (the live relay's session check) reaches an
// embedded provider in-process too, as the build's copy does (requestHandler).
provideProviderFetch(embeddedProviderFetch);
const providerUrl = runningEnv.PROVIDER_URL;

const app = express();
app.disable("x-powered-by");
app.set("trust proxy", trustProxy(env.TRUST_PROXY));
app.use(securityHeaders({ production, google: googleWebConfig(env) }));
app.use(refuseCrossSitePosts());
app.use(limitRequestBodies());
app.use(compression());

app.get("/healthz", async (_req, res) => {
  const provider = await fetch(`${providerUrl}/healthz`, { signal: AbortSignal.timeout(3000) }).then(
    (r) => (r.ok ? "ok" : "down"),
    () => "down",
  );
  res
    .status(provider === "ok" ? 200 : 503)
    .set("cache-control", "no-store")
    .json({ app: "ok", provider });
});

let getBuild: () => Promise<ServerBuild>;
if (production) {
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const assetsDir = path.join(buildDir, "client/assets");
  // Scripts and styles as compressed once by the build (scripts/precompress.ts), not per request.
  app.use(precompressed(assetsDir, "/assets"));
  app.use("/assets", express.static(assetsDir, { immutable: true, maxAge: "1y" }));
  app.get(SERVICE_WORKER_URL, (_req, res, next) => {
    res.set("cache-control", "no-cache");
    next();
  });
  const publicFiles = express.static(path.join(buildDir, "client"), { maxAge: "1h", index: false });
  // Every public file's name has an extension; a page's path (/user-stocks) skips the disk, where
  // looking for a file of its name was 1 % of a list page's CPU time (docs/benchmarks.md).
  app.use((req, res, next) => (/\.[^/]*$/.test(req.path) ? publicFiles(req, res, next) : next()));
  const build = (await import(pathToUrl(path.join(buildDir, "server/index.js")))) as ServerBuild;
  getBuild = async () => build;
} else {
  const vite = await import("vite");
  const devServer = await vite.createServer({ server: { middlewareMode: true } });
  app.use(devServer.middlewares);
  getBuild = () => devServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;
}

// One request handler per build: once in production; in development again only when Vite
// hands back a new build after an edit.
let handlerFor: { build: ServerBuild; handle: ReturnType<typeof createRequestHandler> } | undefined;
function requestHandler(build: ServerBuild) {
  if (handlerFor?.build === build) return handlerFor.handle;
  const { nonceContext, clientAddressContext, provideAppEnv, provideProviderFetch } = build.entry.module as unknown as {
    nonceContext: RouterContext<string>;
    clientAddressContext: RouterContext<string>;
    provideAppEnv: (env: RunningAppEnv) => void;
    provideProviderFetch: (handler: typeof embeddedProviderFetch) => void;
  };
  provideAppEnv(runningEnv);
  provideProviderFetch(embeddedProviderFetch);
  const handle = createRequestHandler({
    build,
    mode: production ? "production" : "development",
    getLoadContext: (request, response) => {
      const context = new RouterContextProvider();
      context.set(nonceContext, String(response.locals.cspNonce ?? ""));
      context.set(clientAddressContext, request.ip ?? "");
      return context;
    },
  });
  handlerFor = { build, handle };
  return handle;
}

// Pages start in the order their requests arrived (ADR 0069); static files and /healthz are above.
app.use(arrivalOrder());
app.use(privateResponses());
app.use(async (req, res, next) => {
  try {
    await requestHandler(await getBuild())(req, res, next);
  } catch (error) {
    next(error);
  }
});

const server = createServer(app);

// Live updates: same-origin websockets for signed-in browsers, one provider connection per path.
const liveRelay = createLiveRelay({
  providerUrl,
  paths: [WS_STOCK_UPDATES, WS_TRADE_UPDATES],
  authenticate: liveSessionOf,
  // A session ended by sign-out or a password reset opens no socket and loses the ones it has.
  verify: providerAccepts,
});
server.on("upgrade", (req, socket, head) => {
  if (liveRelay.handleUpgrade(req, socket, head)) return;
  // Nobody else takes upgrades on this server (Vite's HMR has its own port).
  if (server.listenerCount("upgrade") === 1) socket.destroy();
});
server.listen(env.PORT, env.HOST, () => {
  console.log(`App listening on http://localhost:${env.PORT} (${production ? "production" : "development"})`);
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing open requests, then stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void liveRelay.close();
    server.close(async () => {
      await closeProvider();
      process.exit(0);
    });
    server.closeIdleConnections();
  });
}

/** A session secret kept in the data folder, so sessions survive a restart without configuration. */
function sessionSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  console.log(`Generated a session secret in ${file} (set SESSION_SECRET to choose your own)`);
  return secret;
}

/** TRUST_PROXY as Express takes it: a boolean, a hop count, or names and addresses. */
function trustProxy(value: string): boolean | number | string {
  if (value === "true" || value === "false") return value === "true";
  return /^\d+$/.test(value) ? Number(value) : value;
}

function pathToUrl(file: string): string {
  return new URL(`file://${file}`).href;
}
