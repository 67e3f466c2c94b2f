import { sql } from "kysely";
import type { Db } from "#provider/db/client.ts";
import { HttpError } from "#provider/http/errors.ts";
import { isUniqueViolation } from "./unique-violation.ts";

/**
 * The users table as the provider's routes ask it (docs/product.md#entities-user, #calls-auth).
 * Usernames and emails match without regard to case, as the unique indexes on lower(...) do.
 */

/** Whether a user with this id exists. */
export async function userExists(db: Db, id: number): Promise<boolean> {
  const user = await db.selectFrom("users").select("id").where("id", "=", id).executeTakeFirst();
  return user !== undefined;
}

/** The account a sign-in names, with its password hash (null for a Google-only account). */
export function userForLogin(db: Db, username: string) {
  return db
    .selectFrom("users")
    .select(["id", "password_hash"])
    .where(sql<string>`lower(username)`, "=", username.toLowerCase())
    .executeTakeFirst();
}

/** The accounts that already use this username or this email. */
export function usersWithNameOrEmail(db: Db, username: string, email: string) {
  return db
    .selectFrom("users")
    .select(["username", "email"])
    .where((eb) =>
      eb.or([
        eb(sql<string>`lower(username)`, "=", username.toLowerCase()),
        eb(sql<string>`lower(email)`, "=", email.toLowerCase()),
      ]),
    )
    .execute();
}

/** The account that uses this email, or undefined. */
export function userByEmail(db: Db, email: string) {
  return db
    .selectFrom("users")
    .select(["id", "username", "first_name", "email"])
    .where(sql<string>`lower(email)`, "=", email.toLowerCase())
    .executeTakeFirst();
}

/** What /auth/users/me shows of a user, or undefined. */
export function userProfile(db: Db, id: number) {
  return db
    .selectFrom("users")
    .select(["id", "username", "email", "first_name", "last_name"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/**
 * Creates a trader account with a password, user and role in one transaction. A unique violation
 * (two registrations racing for the same name) reaches the caller.
 */
export async function createTrader(
  db: Db,
  values: { username: string; email: string; password_hash: string; first_name: string; last_name: string },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const user = await tx.insertInto("users").values(values).returning("id").executeTakeFirstOrThrow();
    await grantTraderRole(tx, user.id);
  });
}

/**
 * Ends a password reset: the user's new password hash, and every session signed in before now
 * ends (provider/auth/callers.ts). Runs inside the caller's transaction.
 */
export function setPasswordEndingSessions(tx: Db, userId: number, passwordHash: string) {
  return tx
    .updateTable("users")
    .set({ password_hash: passwordHash, tokens_valid_after: sql<Date>`now()` })
    .where("id", "=", userId)
    .returning("username")
    .executeTakeFirstOrThrow();
}

async function grantTraderRole(tx: Db, userId: number): Promise<void> {
  await tx
    .insertInto("user_roles")
    .columns(["user_id", "role_id"])
    .expression((eb) =>
      eb
        .selectFrom("roles")
        .select([eb.val(userId).as("user_id"), "id"])
        .where("name", "=", "trader"),
    )
    .execute();
}

/**
 * The account of a verified Google identity: the one already linked to it, else the one
 * with the same verified email (now linked), else a new trader account.
 */
export async function findOrCreateGoogleUser(
  db: Db,
  identity: { uid: string; email: string; name: string | undefined },
): Promise<number> {
  const email = identity.email.toLowerCase();
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (tx) => {
        const linked = await tx
          .selectFrom("users")
          .select("id")
          .where("firebase_uid", "=", identity.uid)
          .executeTakeFirst();
        if (linked) return linked.id;
        const byEmail = await tx
          .selectFrom("users")
          .select(["id", "firebase_uid"])
          .where(sql<string>`lower(email)`, "=", email)
          .executeTakeFirst();
        if (byEmail) {
          if (byEmail.firebase_uid && byEmail.firebase_uid !== identity.uid) {
            throw new HttpError(409, "This email is already linked to another Google account");
          }
          await tx.updateTable("users").set({ firebase_uid: identity.uid }).where("id", "=", byEmail.id).execute();
          return byEmail.id;
        }
        const [first = "", ...rest] = (identity.name ?? "").trim().split(/\s+/);
        const user = await tx
          .insertInto("users")
          .values({
            username: await freeUsername(tx, email),
            email,
            password_hash: null,
            first_name: first.slice(0, 100),
            last_name: rest.join(" ").slice(0, 100),
            firebase_uid: identity.uid,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await grantTraderRole(tx, user.id);
        return user.id;
      });
    } catch (error) {
      // A parallel sign-in of the same person created the row first: read it on the next pass.
      if (isUniqueViolation(error) && attempt < 2) continue;
      throw error;
    }
  }
}

/** A username from the email's local part, made unique with a number when needed. */
async function freeUsername(tx: Db, email: string): Promise<string> {
  let base = (email.split("@")[0] ?? "").replace(/[^A-Za-z0-9_.-]/g, "").slice(0, 32);
  if (base.length < 3) base = `${base}user`.slice(0, 32);
  const rows = await tx
    .selectFrom("users")
    .select(sql<string>`lower(username)`.as("name"))
    .where(sql<string>`lower(username)`, "like", `${base.toLowerCase().replace(/[\\%_]/g, "\\$&")}%`)
    .execute();
  const used = new Set(rows.map((r) => r.name));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}${n}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}
