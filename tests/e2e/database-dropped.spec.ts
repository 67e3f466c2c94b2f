import { randomBytes } from "node:crypto";
import { expect, test } from "./support/test.ts";
import pg from "pg";
import { ownPorts } from "./support/ports.ts";
import { startNode, type Started } from "./support/processes.ts";

/**
 * The web app with its embedded provider on PostgreSQL: the database drops every connection
 * while pages are being loaded. The app process stays up, each page is answered (served, or the
 * screen's load-failed text), and pages load again once the database takes connections.
 * Runs where a PostgreSQL server answers at DATABASE_URL (CI starts one).
 */
const adminUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const appPort = ownPorts().app[0]!;
const providerPort = ownPorts().provider[0]!;
const app = `http://localhost:${appPort}`;
const name = `e2e_${randomBytes(6).toString("hex")}`;
let web: Started | undefined;
let available = true;

test.beforeAll(async () => {
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch {
    available = false;
    return;
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  web = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_PORT: String(providerPort),
      DATABASE_URL: url.toString(),
      SEED_DEMO: "true",
      SESSION_SECRET: "dropped-db-session-secret-dropped-db-0123456",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    },
    app,
  );
});

test.afterAll(async () => {
  await web?.stop();
  if (!available) return;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

test("connections dropped under load: the app process lives and serves again", async ({ request }) => {
  test.skip(!available, `no PostgreSQL server at ${adminUrl}`);
  test.setTimeout(90_000);
  // Signed in through the login form's plain POST (no browser needed): the context keeps the cookie.
  const login = await request.post(`${app}/login`, {
    form: { intent: "login", username: "demo", password: "demo1234" },
    maxRedirects: 0,
  });
  expect(login.headers()["location"]).toBe("/user-stocks");

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const terminateAll = () =>
    admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
      [name],
    );

  const statuses: number[] = [];
  let loading = true;
  const readers = Array.from({ length: 6 }, async () => {
    while (loading) {
      const response = await request.get(`${app}/user-stocks`, { maxRedirects: 0 }).then(
        (r) => r.status(),
        () => 0, // the connection was dropped: the process died
      );
      statuses.push(response);
    }
  });
  for (let round = 0; round < 8; round++) {
    const target = (round + 1) * 6;
    while (statuses.length < target && web!.process.exitCode === null) await new Promise((r) => setTimeout(r, 20));
    await terminateAll();
  }
  loading = false;
  await Promise.all(readers);
  await admin.end();

  expect(web!.process.exitCode, web!.output.join("").slice(-2000)).toBe(null);
  expect(statuses).not.toContain(0);
  // Still signed in, and the watchlist loads from the database again.
  const after = await request.get(`${app}/user-stocks`, { maxRedirects: 0 });
  expect(after.status()).toBe(200);
  expect(await after.text()).toContain("AAPL");
});
