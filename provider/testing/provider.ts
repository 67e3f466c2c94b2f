import { randomBytes } from "node:crypto";
import pg from "pg";
import { createProvider, type Provider, type ProviderOptions } from "#provider/app.ts";
import * as calls from "#contract/calls.ts";
import { testPgliteImage } from "./pglite-image.ts";
import { fillPath, type Endpoint } from "#contract/endpoint.ts";

/**
 * Test helpers for provider suites. By default a fresh in-memory PGlite per provider;
 * with TEST_DATABASE=postgres a fresh database on the server at DATABASE_URL
 * (default postgres://postgres@127.0.0.1:5432/test), dropped on close.
 */
export interface TestProvider extends Provider {
  /** Calls the provider in-process with a real Request, as the app would over HTTP. */
  call(
    endpoint: Endpoint,
    input?: {
      params?: Record<string, string | number>;
      query?: Record<string, string>;
      body?: unknown;
      token?: string;
      rawBody?: string;
      headers?: Record<string, string>;
    },
  ): Promise<{ status: number; body: any; headers: Headers }>;
  login(username: string, password: string): Promise<string>;
  /** Signs in and reads who that is: the token and the user's id, as most suites want both. */
  session(username: string, password: string): Promise<{ token: string; id: number }>;
}

/** A complete set of valuation and buy levels (descending, as the forms require), for list rows made in tests. */
export const SAMPLE_LEVELS = {
  base_iv: 120,
  conservative_iv: 100,
  buy_level_one: 95,
  buy_level_two: 90,
  buy_level_three: 85,
  buy_level_four: 80,
};

/**
 * scrypt's cost in the test suites' providers: 2^10 hashes in about 2 ms where 2^15 takes 80, and the
 * suites register, sign in and seed demo accounts hundreds of times a run (ADR 0064). The default
 * cost has its own test (provider/auth/password.test.ts).
 */
export const TEST_PASSWORD_COST = 2 ** 10;

export async function testProvider(
  options: Omit<ProviderOptions, "databaseUrl" | "dataDir"> = {},
): Promise<TestProvider> {
  const database = process.env.TEST_DATABASE === "postgres" ? await testPostgresDatabase() : undefined;
  const provider = await createProvider({
    seedDemo: true,
    passwordCost: TEST_PASSWORD_COST,
    secrets: ["test-secret-test-secret-test-secret!"],
    // Scheduled jobs stay off unless a test asks for them.
    jobs: false,
    // Suites that generate or ask for AI texts in bulk are not throttled unless a test sets its own limits.
    workLimits: { generationsPerMinute: 100_000, aiTextsPerMinute: 100_000, importsPerMinute: 100_000 },
    ...options,
    databaseUrl: database?.url,
    image: await testPgliteImage(),
  });
  const base = "http://provider.test";
  const call: TestProvider["call"] = async (endpoint, input = {}) => {
    const url = new URL(fillPath(endpoint.path, input.params ?? {}), base);
    for (const [k, v] of Object.entries(input.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...input.headers };
    if (input.token) headers.authorization = `Bearer ${input.token}`;
    let body: string | undefined = input.rawBody;
    if (body === undefined && input.body !== undefined) {
      if (endpoint.bodyEncoding === "form") {
        body = new URLSearchParams(input.body as Record<string, string>).toString();
        headers["content-type"] = "application/x-www-form-urlencoded";
      } else {
        body = JSON.stringify(input.body);
        headers["content-type"] = "application/json";
      }
    }
    const response = await provider.fetch(new Request(url, { method: endpoint.method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // streamed text stays text
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
  async function login(username: string, password: string): Promise<string> {
    const res = await call(calls.login, { body: { username, password } });
    if (res.status !== 200) throw new Error(`login ${username} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_token;
  }
  return {
    ...provider,
    call,
    login,
    async session(username, password) {
      const token = await login(username, password);
      const me = await call(calls.me, { token });
      return { token, id: me.body.id as number };
    },
    async close() {
      await provider.close();
      await database?.drop();
    },
  };
}

/**
 * A fresh database on the PostgreSQL server of TEST_DATABASE=postgres (DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test), for tests that start several providers on one database.
 */
export async function testPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
