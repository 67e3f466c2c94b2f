import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Db } from "#provider/db/client.ts";
import { permissionsOf, requireSelfOrAdmin, tokenHash } from "#provider/auth/callers.ts";
import { RATE_RULES, type Reservation } from "#provider/auth/rate-limit.ts";
import { clientIp } from "#provider/http/client-ip.ts";
import { conflict, HttpError, notFound, unauthorized } from "#provider/http/errors.ts";
import { isUniqueViolation } from "#provider/store/unique-violation.ts";

/** The same answer for a wrong password and an unknown user, so usernames cannot be probed. */
const INVALID_CREDENTIALS = "Invalid credentials";
/** The same answer for known and unknown emails, so addresses cannot be probed. */
const FORGOT_ANSWER = "If an account uses this email, a link to reset its password is on its way.";
const RESET_LINK_INVALID = "This password reset link is invalid or has expired. Please ask for a new one.";
const GOOGLE_NOT_CONFIGURED = "Google sign-in is not configured on this server";
/** A reset link works once, within this time. */
const RESET_TTL_SECONDS = 3600;

export function authRoutes(router: Router, context: ProviderContext): void {
  const { db, tokens, passwords, callers, limiter, mailer, google, appUrl } = context;

  router.on(calls.login, async ({ body, request }) => {
    const ip = clientIp(request);
    const account = body.username;
    // Strangers' failures cannot lock the owner out: the hard limit is per account and address,
    // and the account-wide back-off (guessing from many addresses) spares addresses it signed in
    // from. Each limit's slot is taken before the slow password check and given back on success,
    // so attempts sent at once cost at most the limit in checks (ADR 0071).
    const pair = `${account} ${ip}`;
    const known = await limiter.seen(RATE_RULES.loginKnown, pair);
    const held: Reservation[] = [];
    const giveBack = () => Promise.all(held.map((slot) => limiter.release(slot)));
    try {
      held.push(await limiter.reserve(RATE_RULES.loginAccountIp, pair));
      if (!known) held.push(await limiter.reserve(RATE_RULES.loginAccount, account));
      held.push(await limiter.reserve(RATE_RULES.loginIp, ip));
    } catch (error) {
      // Refused by a later limit: no password is checked, so the earlier slots are not spent.
      await giveBack();
      throw error;
    }
    let user: { id: number; password_hash: string | null } | undefined;
    let ok: boolean;
    try {
      user = await db
        .selectFrom("users")
        .select(["id", "password_hash"])
        .where(sql<string>`lower(username)`, "=", body.username.toLowerCase())
        .executeTakeFirst();
      ok = await passwords.verify(body.password, user?.password_hash ?? (await passwords.decoy()));
    } catch (error) {
      // A fault, not a wrong guess: it does not count.
      await giveBack().catch(() => {});
      throw error;
    }
    // A failure keeps its slots: they are its count.
    if (!user || !user.password_hash || !ok) {
      throw new HttpError(401, INVALID_CREDENTIALS, { "WWW-Authenticate": "Bearer" });
    }
    await giveBack();
    await limiter.reset(RATE_RULES.loginAccountIp, pair);
    await limiter.hit(RATE_RULES.loginKnown, pair);
    return { access_token: await tokens.issue(user.id), token_type: "bearer" };
  });

  router.on(calls.register, async ({ body, request }) => {
    await limiter.hit(RATE_RULES.registerIp, clientIp(request));
    await limiter.hit(RATE_RULES.registerAccount, `user:${body.username}`);
    await limiter.hit(RATE_RULES.registerAccount, `email:${body.email}`);
    const taken = await db
      .selectFrom("users")
      .select(["username", "email"])
      .where((eb) =>
        eb.or([
          eb(sql<string>`lower(username)`, "=", body.username.toLowerCase()),
          eb(sql<string>`lower(email)`, "=", body.email.toLowerCase()),
        ]),
      )
      .execute();
    if (taken.some((u) => u.username.toLowerCase() === body.username.toLowerCase())) {
      throw conflict(`The username '${body.username}' is already taken`);
    }
    if (taken.length) throw conflict("An account with this email already exists");

    const passwordHash = await passwords.hash(body.password);
    try {
      await db.transaction().execute(async (tx) => {
        const user = await tx
          .insertInto("users")
          .values({
            username: body.username,
            email: body.email,
            password_hash: passwordHash,
            first_name: body.first_name,
            last_name: body.last_name,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await grantTraderRole(tx, user.id);
      });
    } catch (error) {
      // Two registrations racing for the same name: the unique index decides.
      if (isUniqueViolation(error)) throw conflict("This username or email is already registered");
      throw error;
    }
    return { message: "Account created" };
  });

  router.on(calls.forgotPassword, async ({ body, request }) => {
    await limiter.hit(RATE_RULES.forgotIp, clientIp(request));
    await limiter.hit(RATE_RULES.forgotAccount, body.email);
    const user = await db
      .selectFrom("users")
      .select(["id", "username", "first_name", "email"])
      .where(sql<string>`lower(email)`, "=", body.email.toLowerCase())
      .executeTakeFirst();
    if (user) {
      const token = randomBytes(32).toString("base64url");
      await db
        .insertInto("password_resets")
        .values({
          token_hash: hashToken(token),
          user_id: user.id,
          expires_at: sql<Date>`now() + make_interval(secs => ${RESET_TTL_SECONDS})`,
        })
        .execute();
      const link = `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;
      const mail = { to: user.email, subject: "Reset your PutSeller password", text: resetMailText(user, link) };
      if (mailer.kind === "outbox") {
        await mailer.send(mail);
      } else {
        // Not awaited: a slow mail server must not reveal that this address has an account.
        mailer.send(mail).catch((error: unknown) => console.error("[mail] sending the reset link failed:", error));
      }
    }
    return { message: FORGOT_ANSWER };
  });

  router.on(calls.resetPassword, async ({ body, request }) => {
    const tokenHash = hashToken(body.token);
    await limiter.hit(RATE_RULES.resetIp, clientIp(request));
    await limiter.hit(RATE_RULES.resetToken, tokenHash);
    const passwordHash = await passwords.hash(body.password);
    const reset = await db.transaction().execute(async (tx) => {
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
      const user = await tx
        .updateTable("users")
        // Sessions signed in with the old password end (provider/auth/callers.ts).
        .set({ password_hash: passwordHash, tokens_valid_after: sql<Date>`now()` })
        .where("id", "=", used.user_id)
        .returning("username")
        .executeTakeFirstOrThrow();
      // Older links of the same account stop working too.
      await tx
        .updateTable("password_resets")
        .set({ used_at: sql<Date>`now()` })
        .where("user_id", "=", used.user_id)
        .where("used_at", "is", null)
        .execute();
      return { userId: used.user_id, username: user.username };
    });
    if (!reset) throw new HttpError(400, RESET_LINK_INVALID);
    await callers.sessionsEnded(reset.userId);
    // The owner proved control of the mailbox: let them sign in at once.
    await limiter.reset(RATE_RULES.loginAccount, reset.username);
    return { message: "Password updated" };
  });

  router.on(calls.googleLogin, async ({ body, request }) => {
    await limiter.hit(RATE_RULES.googleIp, clientIp(request));
    if (!google) throw new HttpError(503, GOOGLE_NOT_CONFIGURED);
    let identity;
    try {
      identity = await google.verify(body.firebase_token);
    } catch {
      throw unauthorized("The Google sign-in could not be verified");
    }
    if (!identity.email || !identity.emailVerified) {
      throw new HttpError(403, "Your Google account has no verified email address");
    }
    const userId = await findOrCreateGoogleUser(db, { ...identity, email: identity.email });
    return { access_token: await tokens.issue(userId), token_type: "bearer" };
  });

  router.on(calls.me, async ({ caller }) => {
    const user = await db
      .selectFrom("users")
      .select(["id", "username", "email", "first_name", "last_name"])
      .where("id", "=", caller.id)
      .executeTakeFirst();
    if (!user) throw unauthorized();
    const name = `${user.first_name} ${user.last_name}`.trim() || user.username;
    return { id: user.id, name, username: user.username, email: user.email };
  });

  router.on(calls.logout, async ({ caller, request }) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")![1]!;
    await db
      .insertInto("revoked_tokens")
      .values({ token_hash: tokenHash(token), expires_at: new Date(caller.expiresAt ?? Date.now() + 30 * 86_400_000) })
      .onConflict((oc) => oc.column("token_hash").doNothing())
      .execute();
    await callers.sessionsEnded(caller.id);
    // Rows are needed only until their token would have expired anyway.
    await db.deleteFrom("revoked_tokens").where("expires_at", "<", new Date()).execute();
    return { ok: true as const };
  });

  router.on(calls.permissions, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    const user = await db.selectFrom("users").select("id").where("id", "=", params.userId).executeTakeFirst();
    if (!user) throw notFound("User not found");
    return calls.permissions.response.parse(await permissionsOf(db, params.userId));
  });
}

/** Reset tokens are stored hashed: a leaked table holds no working link. */
function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function resetMailText(user: { username: string; first_name: string }, link: string): string {
  return [
    `Hello ${user.first_name || user.username},`,
    "",
    `Someone asked to reset the password of your PutSeller account "${user.username}".`,
    "Open this link within one hour to choose a new password:",
    "",
    link,
    "",
    "The link works once. If you did not ask for this, ignore this email: your password stays as it is.",
  ].join("\n");
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
async function findOrCreateGoogleUser(
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
