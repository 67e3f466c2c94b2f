import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import { setPasswordEndingSessions } from "./users.ts";

/** Password reset links (docs/product.md#additions-calls), stored by the hash of their token. */

/** Stores a link of this user that works until `ttlSeconds` from now (the database's clock). */
export async function createPasswordReset(db: Db, tokenHash: string, userId: number, ttlSeconds: number) {
  await db
    .insertInto("password_resets")
    .values({
      token_hash: tokenHash,
      user_id: userId,
      expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
    })
    .execute();
}

/**
 * Uses the link once, in one transaction: sets the new password (ending older sessions) and stops
 * the account's other links. Undefined when the link is unknown, used or expired.
 */
export function usePasswordReset(
  db: Db,
  tokenHash: string,
  passwordHash: string,
): Promise<{ userId: number; username: string } | undefined> {
  return db.transaction().execute(async (tx) => {
    // Marking the link used and reading it is one statement, so it works exactly once.
    const used = await tx
      .updateTable("password_resets")
      .set({ used_at: sql<Date>`now()` })
      .where("token_hash", "=", tokenHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", sql<Date>`now()`)
      .returning("user_id")
      .executeTakeFirst();
    if (!used) return undefined;
    // Sessions signed in with the old password end (provider/auth/callers.ts).
    const user = await setPasswordEndingSessions(tx, used.user_id, passwordHash);
    // Older links of the same account stop working too.
    await tx
      .updateTable("password_resets")
      .set({ used_at: sql<Date>`now()` })
      .where("user_id", "=", used.user_id)
      .where("used_at", "is", null)
      .execute();
    return { userId: used.user_id, username: user.username };
  });
}
