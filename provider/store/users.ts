import type { Db } from "#provider/db/client.ts";

/**
 * The users table as the provider's routes ask it (docs/product.md#entities-user, #calls-auth).
 * Usernames and emails match without regard to case, as the unique indexes on lower(...) do.
 */

/** Whether a user with this id exists. */
export async function userExists(db: Db, id: number): Promise<boolean> {
  const user = await db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
  return user !== undefined;
}
