import type { Db } from "#provider/db/client.ts";

/**
 * Signed-out tokens, by hash, refused until they would have expired anyway
 * (provider/auth/callers.ts reads them).
 */

export async function revokeToken(db: Db, tokenHash: string, expiresAt: Date): Promise<void> {
  await db
    .insertInto("revoked_tokens")
    .values({ token_hash: tokenHash, expires_at: expiresAt })
    .onConflict((oc) => oc.column("token_hash").doNothing())
    .execute();
}

/** Rows are needed only until their token would have expired anyway. */
export async function dropExpiredRevocations(db: Db): Promise<void> {
  await db.deleteFrom("revoked_tokens").where("expires_at", "<", new Date()).execute();
}
