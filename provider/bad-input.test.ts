import { sql } from "kysely";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathParamNames, type Endpoint } from "#contract/endpoint.ts";
import { allEndpoints, createWorld, validRequests, type Input, type World } from "./testing/world.ts";

/**
 * Property-based bad input for every provider call: its body, query and path are replaced or
 * bent (wrong types, missing and extra fields, broken JSON and URL encoding, huge and odd
 * values). Whatever arrives: never a 5xx, a readable `detail` on every 4xx, and a 4xx leaves
 * the database as it was (rate-limit counters aside: counting refused attempts is their job).
 * Runs stay bounded (RUNS per call) so the suite takes seconds; FUZZ_RUNS raises them.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 36);

/** A call whose service is off in tests answers this for any input it accepts (not a crash). */
const SERVICE_OFF: Record<string, number> = { googleLogin: 503 };

let w: World;
let checksum: () => Promise<string>;

beforeAll(async () => {
  w = await createWorld();
  const db = w.provider.context.db;
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
      AND table_name NOT IN ('rate_limits', 'kysely_migration', 'kysely_migration_lock')
    ORDER BY table_name`.execute(db);
  // One statement: per table the row count and the newest row version's transaction id. Every
  // insert and update writes a row version stamped with a newer transaction (xmin) and every delete
  // lowers the count, so a change to any row changes one of the two, without turning every row into text.
  const query = tables.rows
    .map(
      (t) => `SELECT '${t.name}' AS t, count(*) AS n, coalesce(max(x.xmin::text::bigint), 0) AS h FROM "${t.name}" x`,
    )
    .join(" UNION ALL ");
  checksum = async () => {
    const result = await sql.raw<{ t: string; n: number; h: string }>(query).execute(db);
    return result.rows.map((r) => `${r.t}:${r.n}:${r.h}`).join(",");
  };
});
afterAll(() => w?.provider.close());

function changedTables(before: string, after: string): string[] {
  const was = new Set(before.split(","));
  return after
    .split(",")
    .filter((entry) => !was.has(entry))
    .map((entry) => entry.split(":")[0]!);
}

// ── What is sent ──────────────────────────────────────────────────────────────

const oddStrings = [
  "",
  " ",
  "0",
  "-1",
  "1e309",
  "NaN",
  "null",
  "true",
  "%",
  "%ZZ",
  "%E0%A4%A",
  "../../etc/passwd",
  "\u0000",
  "😀",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "9".repeat(400),
  "x".repeat(5000),
];
const oddValues: unknown[] = [
  null,
  true,
  0,
  -1,
  -0,
  0.1,
  1e308,
  -1e308,
  2 ** 53 + 2,
  [],
  {},
  [null],
  { __proto__: { admin: true } },
  { constructor: { prototype: {} } },
];
const junkString = fc.oneof(
  fc.constantFrom(...oddStrings),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
);
const junk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 2, arbitrary: junkString },
  { weight: 2, arbitrary: fc.constantFrom(...oddValues) },
);

type Bent =
  | { part: "body"; kind: "replace"; value: unknown }
  | { part: "body"; kind: "set"; key: string; value: unknown }
  | { part: "body"; kind: "drop"; key: string }
  | { part: "body"; kind: "raw"; text: string }
  | { part: "query"; key: string; value: string }
  | { part: "path"; key: string; value: string; encode: boolean };

/** Dotted key paths of a valid body's fields (one level into objects, the first array item). */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return value.length ? [`${prefix}0`, ...keyPaths(value[0], `${prefix}0.`)] : [];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) => [`${prefix}${k}`, ...(prefix ? [] : keyPaths(v, `${k}.`))]);
}

function bentArbitrary(endpoint: Endpoint, valid: Input): fc.Arbitrary<Bent> {
  const options: fc.Arbitrary<Bent>[] = [];
  const bodyKeys = keyPaths(valid.body);
  options.push(junk.map((value) => ({ part: "body", kind: "replace", value }) as Bent));
  options.push(fc.string({ maxLength: 60 }).map((text) => ({ part: "body", kind: "raw", text }) as Bent));
  if (bodyKeys.length) {
    const key = fc.constantFrom(...bodyKeys);
    options.push(fc.tuple(key, junk).map(([k, value]) => ({ part: "body", kind: "set", key: k, value }) as Bent));
    options.push(key.map((k) => ({ part: "body", kind: "drop", key: k }) as Bent));
    // A field the schema does not know.
    options.push(junk.map((value) => ({ part: "body", kind: "set", key: "unexpected_field", value }) as Bent));
  }
  const queryKeys = [...Object.keys(valid.query ?? {}), "unexpected"];
  options.push(
    fc.tuple(fc.constantFrom(...queryKeys), junkString).map(([key, value]) => ({ part: "query", key, value }) as Bent),
  );
  const pathKeys = pathParamNames(endpoint.path);
  if (pathKeys.length) {
    options.push(
      fc
        .tuple(fc.constantFrom(...pathKeys), junkString, fc.boolean())
        .map(([key, value, encode]) => ({ part: "path", key, value, encode }) as Bent),
    );
  }
  return fc.oneof(...options);
}

function setPath(target: unknown, dotted: string, value: unknown, drop: boolean): unknown {
  const copy = structuredClone(target) as Record<string, unknown>;
  const keys = dotted.split(".");
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  if (drop) delete node[last];
  else node[last] = value;
  return copy;
}

/** A form field's text for any value, even one `String` cannot convert (such as `{ toString: false }`). */
function formValue(value: unknown): string {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value) ?? "";
  }
}

/** Sends the valid request with one part bent, straight to the provider's fetch. */
async function send(endpoint: Endpoint, valid: Input, bent: Bent, token: string) {
  const params: Record<string, string> = Object.fromEntries(
    Object.entries(valid.params ?? {}).map(([k, v]) => [k, encodeURIComponent(String(v))]),
  );
  const query = { ...valid.query };
  let body: string | undefined;
  let contentType = endpoint.bodyEncoding === "form" ? "application/x-www-form-urlencoded" : "application/json";
  const encode = (value: unknown): string => {
    if (endpoint.bodyEncoding === "form" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      return new URLSearchParams(Object.entries(value).map(([k, v]) => [k, formValue(v)])).toString();
    }
    return JSON.stringify(value) ?? "";
  };
  if (valid.body !== undefined) body = encode(valid.body);
  if (bent.part === "body") {
    if (bent.kind === "replace") body = encode(bent.value);
    if (bent.kind === "set") body = encode(setPath(valid.body ?? {}, bent.key, bent.value, false));
    if (bent.kind === "drop") body = encode(setPath(valid.body, bent.key, undefined, true));
    if (bent.kind === "raw") {
      body = bent.text;
      contentType = "application/json";
    }
  }
  if (bent.part === "query") query[bent.key] = bent.value;
  if (bent.part === "path") params[bent.key] = bent.encode ? encodeURIComponent(bent.value) : bent.value;

  const path = endpoint.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => params[name] ?? "");
  const url = new URL(`http://provider.test${path.startsWith("/") ? "" : "/"}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, ...valid.headers };
  if (body !== undefined) headers["content-type"] = contentType;
  const hasBody = body !== undefined && endpoint.method !== "GET";
  const response = await w.provider.fetch(
    new Request(url, { method: endpoint.method, headers, body: hasBody ? body : undefined }),
  );
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // a streamed text answer
  }
  return { status: response.status, body: parsed as { detail?: unknown } | string };
}

describe("bad input to every provider call", () => {
  it("covers every call of contract/calls.ts", () => {
    expect(allEndpoints.filter(([name]) => !(name in validRequests)).map(([n]) => n)).toEqual([]);
  });

  it("refuses an oversized body with 413 before reading it as JSON, for every call that takes one", async () => {
    const huge = JSON.stringify({ padding: "x".repeat(1_100_000) });
    for (const [name, endpoint] of allEndpoints.filter(([, e]) => e.method !== "GET")) {
      const valid = await validRequests[name]!(w);
      const before = await checksum();
      const res = await send(endpoint, valid, { part: "body", kind: "raw", text: huge }, w.admin.token);
      expect([413, ...(endpoint.body.safeParse(undefined).success ? [200, 404, 403] : [])], name).toContain(res.status);
      if (res.status === 413) expect(changedTables(before, await checksum()), name).toEqual([]);
    }
  });

  it("refuses the NUL character in any path, query or body string with 400, for every call", async () => {
    const nul = "a\u0000b";
    for (const [name, endpoint] of allEndpoints) {
      const valid = await validRequests[name]!(w);
      const bents: Bent[] = [
        ...pathParamNames(endpoint.path).map((key) => ({ part: "path", key, value: nul, encode: true }) as const),
        { part: "query", key: Object.keys(valid.query ?? {})[0] ?? "unexpected", value: nul },
        ...keyPaths(valid.body)
          .filter((key) => !key.includes("."))
          .map((key) => ({ part: "body", kind: "set", key, value: nul }) as const),
      ];
      for (const bent of bents) {
        const before = await checksum();
        const res = await send(endpoint, valid, bent, w.admin.token);
        const label = `${name} ${JSON.stringify(bent)}`;
        expect(res.status, label).toBe(400);
        expect(typeof res.body === "object" && res.body.detail, label).toMatch(/must not contain the NUL character/);
        expect(changedTables(before, await checksum()), label).toEqual([]);
      }
    }
  });

  for (const [name, endpoint] of allEndpoints.filter(([n]) => n in validRequests)) {
    // fast-check keeps going after a timeout, so the limit leaves room for slow accepted calls.
    it(`${endpoint.method} ${endpoint.path} (${name})`, { timeout: 30_000 + RUNS * 1_000 }, async () => {
      // The admin reaches every call, so what is refused is refused for its input.
      const token = w.admin.token;
      const valid = await validRequests[name]!(w);
      let before = await checksum();
      await fc.assert(
        fc.asyncProperty(bentArbitrary(endpoint, valid), async (bent) => {
          const res = await send(endpoint, valid, bent, token);
          const label = `${JSON.stringify(bent).slice(0, 300)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
          if (res.status !== SERVICE_OFF[name]) expect(res.status, label).toBeLessThan(500);
          const after = await checksum();
          if (res.status >= 400) {
            const detail = typeof res.body === "object" && res.body !== null ? res.body.detail : undefined;
            expect(typeof detail === "string" && detail.trim().length > 0, `readable detail: ${label}`).toBe(true);
            expect(changedTables(before, after), `tables changed by a refused request: ${label}`).toEqual([]);
          }
          before = after;
        }),
        { numRuns: RUNS },
      );
    });
  }
});
