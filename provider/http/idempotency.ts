import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import { errorResponse, HttpError } from "./errors.ts";

/**
 * Idempotency keys (contract `IDEMPOTENCY_HEADER`): a client that may send a change twice (the
 * app's offline queue replays a change whose answer it never saw) names it with a key. The first
 * request with a key runs and its answer is kept; the same key with the same request answers the
 * kept answer without running again; the same key with a different request is refused with 422.
 * Keys are per user and forgotten after a day.
 */
const KEY_TTL_HOURS = 24;
/** Header on an answer that was kept from an earlier request with the same key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** `status` of a key whose first request is still running. */
const IN_PROGRESS = 0;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyStore {
  /**
   * Runs `run` once per (user, key): answers the kept answer for a repeat of the same request,
   * 422 for a different request under a used key, 409 while the first is still running.
   */
  once(input: { userId: number; key: string; requestHash: string }, run: () => Promise<Response>): Promise<Response>;
}

/** What makes two requests "the same": method, path with query, and the body as parsed JSON. */
export function requestHash(method: string, pathAndQuery: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method} ${pathAndQuery}\n${JSON.stringify(body ?? null)}`)
    .digest("base64url");
}

/** Checks a key's form (visible ASCII, 1 to 255 characters); 400 otherwise. */
export function checkKey(key: string): string {
  if (!KEY_PATTERN.test(key)) {
    throw new HttpError(400, "Idempotency-Key must be 1 to 255 visible ASCII characters");
  }
  return key;
}

export function createIdempotencyStore(db: Db): IdempotencyStore {
  return {
    async once({ userId, key, requestHash: hash }, run) {
      // A key older than a day is forgotten: the request counts as new.
      await db
        .deleteFrom("idempotency_keys")
        .where("user_id", "=", userId)
        .where("key", "=", key)
        .where(sql<boolean>`created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})`)
        .execute();
      const claimed = await db
        .insertInto("idempotency_keys")
        .values({ user_id: userId, key, request_hash: hash, status: IN_PROGRESS, response_body: "" })
        .onConflict((oc) => oc.columns(["user_id", "key"]).doNothing())
        .returning("key")
        .executeTakeFirst();

      if (!claimed) {
        const kept = await db
          .selectFrom("idempotency_keys")
          .select(["request_hash", "status", "response_body"])
          .where("user_id", "=", userId)
          .where("key", "=", key)
          .executeTakeFirst();
        if (!kept) throw new HttpError(409, "A request with this Idempotency-Key is still being processed");
        if (kept.request_hash !== hash) {
          throw new HttpError(
            422,
            "This Idempotency-Key was already used for a different request; send a new key for a new change",
          );
        }
        if (kept.status === IN_PROGRESS) {
          throw new HttpError(409, "A request with this Idempotency-Key is still being processed", {
            "retry-after": "1",
          });
        }
        const body = NULL_BODY.has(kept.status) || kept.response_body === "" ? null : kept.response_body;
        return new Response(body, {
          status: kept.status,
          headers: {
            ...(body === null ? {} : { "content-type": "application/json" }),
            "cache-control": "no-store",
            [REPLAYED_HEADER]: "true",
          },
        });
      }

      let response: Response;
      try {
        response = await run();
      } catch (error) {
        // A refusal (4xx) is an answer like any other; anything else frees the key for a retry.
        if (error instanceof HttpError && error.status < 500) response = errorResponse(error);
        else {
          await forget(db, userId, key);
          throw error;
        }
      }
      const text = response.body === null ? "" : await response.text();
      // A server failure is not an answer to keep: the key is freed so the client can try again.
      if (response.status >= 500) await forget(db, userId, key);
      else await keep(db, userId, key, response.status, text);
      return new Response(NULL_BODY.has(response.status) ? null : text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    },
  };
}

const NULL_BODY = new Set([101, 204, 205, 304]);

async function keep(db: Db, userId: number, key: string, status: number, body: string): Promise<void> {
  await db
    .updateTable("idempotency_keys")
    .set({ status, response_body: body })
    .where("user_id", "=", userId)
    .where("key", "=", key)
    .execute();
  // Now and then, drop this user's expired keys so the table stays small.
  if (Math.random() < 0.05) {
    await db
      .deleteFrom("idempotency_keys")
      .where("user_id", "=", userId)
      .where(sql<boolean>`created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})`)
      .execute();
  }
}

async function forget(db: Db, userId: number, key: string): Promise<void> {
  await db.deleteFrom("idempotency_keys").where("user_id", "=", userId).where("key", "=", key).execute();
}
