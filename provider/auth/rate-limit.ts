import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import { HttpError } from "#provider/http/errors.ts";

/**
 * Fixed-window attempt counters kept in the database, so every provider process behind a
 * load balancer counts the same attempts (a per-process counter would multiply the limit).
 */
export interface RateRule {
  /** Bucket prefix, e.g. `login-account`. */
  name: string;
  limit: number;
  windowSeconds: number;
  /** What is being limited, for the message: "sign-in attempts". */
  what: string;
}

const MINUTE = 60;
const HOUR = 3600;

/**
 * The limits on the public account calls. Sign-in counts failed attempts only, so people
 * who sign in successfully never use up their allowance; the others count every attempt.
 */
export const RATE_RULES = {
  /** Failed guesses at one account from one address: a stranger's failures never hold back the owner elsewhere. */
  loginAccountIp: { name: "login-account-ip", limit: 5, windowSeconds: 15 * MINUTE, what: "sign-in attempts" },
  /**
   * Failed guesses at one account from all addresses (guessing spread over many): a short window,
   * so it slows guessing rather than locking the account, and it is skipped for addresses that
   * signed in to the account before (loginKnown).
   */
  loginAccount: { name: "login-account", limit: 20, windowSeconds: 5 * MINUTE, what: "sign-in attempts" },
  /** Addresses that signed in to an account in the last 30 days (a mark, never refused). */
  loginKnown: { name: "login-known", limit: Number.MAX_SAFE_INTEGER, windowSeconds: 30 * 24 * HOUR, what: "sign-ins" },
  loginIp: { name: "login-ip", limit: 30, windowSeconds: 15 * MINUTE, what: "sign-in attempts" },
  googleIp: { name: "google-ip", limit: 30, windowSeconds: 15 * MINUTE, what: "sign-in attempts" },
  registerAccount: { name: "register-account", limit: 5, windowSeconds: HOUR, what: "registration attempts" },
  registerIp: { name: "register-ip", limit: 10, windowSeconds: HOUR, what: "registration attempts" },
  forgotAccount: { name: "forgot-account", limit: 3, windowSeconds: HOUR, what: "password reset requests" },
  forgotIp: { name: "forgot-ip", limit: 10, windowSeconds: HOUR, what: "password reset requests" },
  resetToken: { name: "reset-token", limit: 5, windowSeconds: HOUR, what: "password reset attempts" },
  resetIp: { name: "reset-ip", limit: 10, windowSeconds: HOUR, what: "password reset attempts" },
} as const satisfies Record<string, RateRule>;

/** Per-user limits on costly work (README "Security and limits"; docs/decisions/0031-bounded-work-per-trader.md). */
export interface WorkLimits {
  /** Recommendation generations a trader may start a minute (GENERATIONS_PER_MINUTE, 10). */
  generationsPerMinute: number;
  /** AI texts (stock analysis, recommendation summary) a trader may ask for a minute (AI_TEXTS_PER_MINUTE, 20). */
  aiTextsPerMinute: number;
  /** Broker-file previews and imports together a trader may send a minute (IMPORTS_PER_MINUTE, 12; ADR 0073). */
  importsPerMinute: number;
}

export const DEFAULT_WORK_LIMITS: WorkLimits = { generationsPerMinute: 10, aiTextsPerMinute: 20, importsPerMinute: 12 };

/** The rules of the work limits, counted per user id in the same table as the sign-in attempts. */
export function workRules(limits: WorkLimits) {
  return {
    generate: {
      name: "generate-user",
      limit: limits.generationsPerMinute,
      windowSeconds: MINUTE,
      what: "recommendation generations",
    },
    aiText: { name: "ai-text-user", limit: limits.aiTextsPerMinute, windowSeconds: MINUTE, what: "AI texts" },
    brokerFile: {
      name: "broker-file-user",
      limit: limits.importsPerMinute,
      windowSeconds: MINUTE,
      what: "broker file previews and imports",
    },
  } as const satisfies Record<string, RateRule>;
}
export type WorkRules = ReturnType<typeof workRules>;

export interface RateLimiter {
  /** Counts one attempt; throws 429 when it goes over the limit. */
  hit(rule: RateRule, key: string): Promise<void>;
  /** Throws 429 when the limit is already used up, without counting. */
  check(rule: RateRule, key: string): Promise<void>;
  /**
   * Takes one slot before the work the rule limits, in one statement (a row lock), so attempts in
   * flight at once, in one process or several, never take more than the limit; throws 429 and
   * takes nothing when none is left (docs/decisions/0071-sign-in-slots-reserved-before-the-check.md).
   */
  reserve(rule: RateRule, key: string): Promise<Reservation>;
  /** Gives a reserved slot back (the attempt turned out not to count); a no-op once its window has ended. */
  release(reservation: Reservation): Promise<void>;
  /** Forgets the bucket (a successful sign-in clears the account's failures). */
  reset(rule: RateRule, key: string): Promise<void>;
  /** Whether the bucket has a hit in its current window. */
  seen(rule: RateRule, key: string): Promise<boolean>;
}

/** A slot taken by `reserve`: its bucket and the window it was taken in (microseconds since 1970, exact). */
export interface Reservation {
  bucket: string;
  window: string;
}

/** A window's start as exact microseconds: a JavaScript Date would round now()'s microseconds away. */
const windowId = sql<string>`(extract(epoch FROM window_start) * 1000000)::bigint::text`;

export function createRateLimiter(db: Db): RateLimiter {
  let calls = 0;
  return {
    async hit(rule, key) {
      const bucket = bucketOf(rule, key);
      const window = sql`make_interval(secs => ${rule.windowSeconds})`;
      const row = await sql<{ hits: number; retry_after: number }>`
        INSERT INTO rate_limits (bucket, window_start, hits) VALUES (${bucket}, now(), 1)
        ON CONFLICT (bucket) DO UPDATE SET
          hits = CASE WHEN rate_limits.window_start + ${window} <= now() THEN 1 ELSE rate_limits.hits + 1 END,
          window_start = CASE WHEN rate_limits.window_start + ${window} <= now() THEN now() ELSE rate_limits.window_start END
        RETURNING hits, extract(epoch FROM (window_start + ${window} - now()))::float8 AS retry_after
      `.execute(db);
      const { hits, retry_after } = row.rows[0]!;
      // Now and then, drop buckets whose window ended long ago so the table stays small.
      if (++calls % 200 === 0) void sweep(db).catch((error) => console.error("[rate-limit] sweep failed:", error));
      if (hits > rule.limit) throw tooMany(rule, retry_after);
    },
    async check(rule, key) {
      const row = await db
        .selectFrom("rate_limits")
        .select([
          "hits",
          sql<number>`extract(epoch FROM (window_start + make_interval(secs => ${rule.windowSeconds}) - now()))::float8`.as(
            "retry_after",
          ),
        ])
        .where("bucket", "=", bucketOf(rule, key))
        .executeTakeFirst();
      if (row && row.retry_after > 0 && row.hits >= rule.limit) throw tooMany(rule, row.retry_after);
    },
    async reserve(rule, key) {
      const bucket = bucketOf(rule, key);
      const window = sql`make_interval(secs => ${rule.windowSeconds})`;
      // The WHERE of ON CONFLICT is read on the locked, latest row: a full bucket is left as it is.
      const taken = await sql<{ window: string }>`
        INSERT INTO rate_limits (bucket, window_start, hits) VALUES (${bucket}, now(), 1)
        ON CONFLICT (bucket) DO UPDATE SET
          hits = CASE WHEN rate_limits.window_start + ${window} <= now() THEN 1 ELSE rate_limits.hits + 1 END,
          window_start = CASE WHEN rate_limits.window_start + ${window} <= now() THEN now() ELSE rate_limits.window_start END
        WHERE rate_limits.window_start + ${window} <= now() OR rate_limits.hits < ${rule.limit}
        RETURNING ${windowId} AS window
      `.execute(db);
      if (++calls % 200 === 0) void sweep(db).catch((error) => console.error("[rate-limit] sweep failed:", error));
      const row = taken.rows[0];
      if (row) return { bucket, window: row.window };
      const full = await db
        .selectFrom("rate_limits")
        .select(
          sql<number>`extract(epoch FROM (window_start + make_interval(secs => ${rule.windowSeconds}) - now()))::float8`.as(
            "retry_after",
          ),
        )
        .where("bucket", "=", bucket)
        .executeTakeFirst();
      throw tooMany(rule, full?.retry_after ?? rule.windowSeconds);
    },
    async release({ bucket, window }) {
      await db
        .updateTable("rate_limits")
        .set({ hits: sql<number>`hits - 1` })
        .where("bucket", "=", bucket)
        .where("hits", ">", 0)
        .where(windowId, "=", window)
        .execute();
    },
    async reset(rule, key) {
      await db.deleteFrom("rate_limits").where("bucket", "=", bucketOf(rule, key)).execute();
    },
    async seen(rule, key) {
      const row = await db
        .selectFrom("rate_limits")
        .select("hits")
        .where("bucket", "=", bucketOf(rule, key))
        .where("window_start", ">", sql<Date>`now() - make_interval(secs => ${rule.windowSeconds})`)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}

function bucketOf(rule: RateRule, key: string): string {
  return `${rule.name}:${key.trim().toLowerCase()}`;
}

async function sweep(db: Db): Promise<void> {
  await db
    .deleteFrom("rate_limits")
    .where("window_start", "<", sql<Date>`now() - interval '1 day'`)
    .execute();
}

/**
 * 429 with a sentence a person can act on, and Retry-After for programs. Limits counted by the
 * minute say the wait in seconds; the longer sign-in windows in minutes.
 */
export function tooMany(rule: RateRule, retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  const minutes = Math.ceil(seconds / 60);
  const wait =
    rule.windowSeconds <= MINUTE
      ? `${seconds} ${seconds === 1 ? "second" : "seconds"}`
      : minutes <= 1
        ? "a minute"
        : `${minutes} minutes`;
  return new HttpError(429, `Too many ${rule.what}. Please wait ${wait} and try again.`, {
    "Retry-After": String(seconds),
  });
}
