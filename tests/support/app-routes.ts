import { afterAll, beforeAll } from "vitest";
import { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { startProviderServer, type RunningProvider } from "#provider/server.ts";
import { testPgliteImage } from "#provider/testing/pglite-image.ts";
import { TEST_PASSWORD_COST } from "#provider/testing/provider.ts";

/**
 * Route loaders and actions called the way React Router calls them on the server, with a real
 * Request, against the embedded provider served over HTTP (a fresh demo store per harness). The
 * app's server modules read PROVIDER_URL and SESSION_SECRET once, so a test file starts one
 * harness before anything reads them.
 */
export interface RouteHarness {
  provider: RunningProvider;
  /** A loader/action context signed in as this user (what the session middleware sets). */
  signIn(username: string, password: string): Promise<RouterContextProvider>;
  close(): Promise<void>;
}

export async function startRouteHarness(
  options: { firebaseProjectId?: string; tradierBrokerageUrl?: string } = {},
): Promise<RouteHarness> {
  const provider = await startProviderServer({
    ...options,
    port: 0,
    host: "127.0.0.1",
    seedDemo: true,
    passwordCost: TEST_PASSWORD_COST,
    secrets: ["test-secret-test-secret-test-secret!"],
    jobs: false,
    workLimits: { generationsPerMinute: 100_000, aiTextsPerMinute: 100_000, importsPerMinute: 100_000 },
    image: await testPgliteImage(),
  });
  process.env.PROVIDER_URL = provider.url;
  process.env.SESSION_SECRET ??= "route-tests-session-secret-0123456789";
  const { loadSessionUser } = await import("#app/server/auth.server.ts");
  const { callProvider } = await import("#app/server/provider.server.ts");
  const { sessionContext } = await import("#app/server/context.server.ts");
  return {
    provider,
    async signIn(username, password) {
      const { access_token } = await callProvider(calls.login, { body: { username, password } });
      const context = new RouterContextProvider();
      context.set(sessionContext, { token: access_token!, user: await loadSessionUser(access_token!) });
      return context;
    },
    close: () => provider.close(),
  };
}

/** A file's harness with the demo trader and the admin signed in (provider/db/demo-data.ts). */
export interface FileHarness extends RouteHarness {
  trader: RouterContextProvider;
  admin: RouterContextProvider;
}

/**
 * One harness for a test file: started before its tests, the demo trader and the admin signed in,
 * closed after them. Its fields are there once the file's first `beforeAll` has run (a later
 * `beforeAll` of the file may use them).
 */
export function routeHarnessForFile(): FileHarness {
  const app = {} as FileHarness;
  beforeAll(async () => {
    const harness = await startRouteHarness();
    Object.assign(app, harness, {
      trader: await harness.signIn("demo", "demo1234"),
      admin: await harness.signIn("admin", "admin1234"),
    });
  });
  afterAll(() => app.close?.());
  return app;
}

/** A form's fields by name; a list posts the name once per value. */
export type Fields = Record<string, string | string[]>;

/** A JSON body, as the app's own scripts post to its resource routes. */
export class Json {
  readonly value: unknown;
  constructor(value: unknown) {
    this.value = value;
  }
}

/**
 * A post to the app: a form as a browser without JavaScript sends it, a multipart form (a file
 * upload) when given FormData, or JSON; `headers` adds what the browser sends besides (a cookie).
 */
export function post(url: string, body: Fields | FormData | Json, headers?: HeadersInit): Request {
  const target = new URL(url, "http://app.test");
  const sent = new Headers(headers);
  if (body instanceof FormData) return new Request(target, { method: "POST", headers: sent, body });
  if (body instanceof Json) {
    sent.set("content-type", "application/json");
    return new Request(target, { method: "POST", headers: sent, body: JSON.stringify(body.value) });
  }
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) for (const v of [value].flat()) form.append(name, v);
  return new Request(target, { method: "POST", headers: sent, body: form });
}

export const get = (url: string, headers?: HeadersInit) => new Request(new URL(url, "http://app.test"), { headers });

/** A loader/action context with no session (what a signed-out browser's request carries). */
export const signedOut = () => new RouterContextProvider();

/** What React Router hands a route's loader and action on the server. */
interface DataArgs<Params> {
  request: Request;
  url: URL;
  params: Params;
  pattern: string;
  context: Readonly<RouterContextProvider>;
}
type DataFunction<Params> = (args: DataArgs<Params>) => unknown;
/** A route's params, which may be left out when the route has none. */
type ParamsArg<Params> = object extends Params ? [params?: Params] : [params: Params];

/** Runs a route module's action with this request, the way React Router does on the server. */
export function runAction<Params extends object = object>(
  route: { action: DataFunction<Params> },
  context: Readonly<RouterContextProvider>,
  request: Request,
  ...[params]: ParamsArg<Params>
): Promise<Outcome> {
  return run(route.action, context, request, params);
}

/** Runs a route module's loader with this request, the way React Router does on the server. */
export function runLoader<Params extends object = object>(
  route: { loader: DataFunction<Params> },
  context: Readonly<RouterContextProvider>,
  request: Request,
  ...[params]: ParamsArg<Params>
): Promise<Outcome> {
  return run(route.loader, context, request, params);
}

/** Calls a route module's action with a post to `url` (see `post`). */
export function callAction<Params extends object = object>(
  route: { action: DataFunction<Params> },
  context: Readonly<RouterContextProvider>,
  url: string,
  body: Fields | FormData | Json,
  ...params: ParamsArg<Params>
): Promise<Outcome> {
  return runAction(route, context, post(url, body), ...params);
}

/** Calls a route module's loader with a GET of `url`. */
export function callLoader<Params extends object = object>(
  route: { loader: DataFunction<Params> },
  context: Readonly<RouterContextProvider>,
  url: string,
  ...params: ParamsArg<Params>
): Promise<Outcome> {
  return runLoader(route, context, get(url), ...params);
}

function run<Params>(
  handler: DataFunction<Params>,
  context: Readonly<RouterContextProvider>,
  request: Request,
  params: Params | undefined,
) {
  const url = new URL(request.url);
  // `pattern` only labels logs and traces; the path stands in for the route's pattern.
  return settle(async () =>
    handler({ request, url, params: params ?? ({} as Params), pattern: url.pathname, context }),
  );
}

/**
 * What the browser gets from a loader's or action's answer: status, where it is sent, the toast it
 * flashes, the data (a Response's JSON or text body), the headers.
 */
export interface Outcome {
  status: number;
  location: string | null;
  toast: { type: string; text: string } | null;
  data: unknown;
  headers: Headers;
}

/** What `data(value, init)` returns (React Router exports its class as a type only). */
interface DataWithInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}
const isDataWithInit = (value: unknown): value is DataWithInit =>
  typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";

export async function outcome(answer: unknown): Promise<Outcome> {
  const { toastFromSetCookie } = await import("#app/server/toast.server.ts");
  if (answer instanceof Response) {
    let toast: Outcome["toast"] = null;
    for (const line of answer.headers.getSetCookie()) {
      const flashed = await toastFromSetCookie(line);
      if (flashed) toast = { type: flashed.type, text: flashed.text };
    }
    const type = answer.headers.get("content-type") ?? "";
    const data = type.includes("json") ? await answer.json() : type.startsWith("text/") ? await answer.text() : null;
    return { status: answer.status, location: answer.headers.get("location"), toast, data, headers: answer.headers };
  }
  if (isDataWithInit(answer)) {
    const headers = new Headers(answer.init?.headers);
    return { status: answer.init?.status ?? 200, location: null, toast: null, data: answer.data, headers };
  }
  return { status: 200, location: null, toast: null, data: answer, headers: new Headers() };
}

/** A loader or action that throws its answer (a guard's redirect) is settled like one that returns it. */
export async function settle(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return await outcome(await run());
  } catch (thrown) {
    if (thrown instanceof Response || isDataWithInit(thrown)) return outcome(thrown);
    throw thrown;
  }
}
