import { createHash, randomBytes } from "node:crypto";
import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { permissionsOf, requireSelfOrAdmin, tokenHash } from "#provider/auth/callers.ts";
import { RATE_RULES, type Reservation } from "#provider/auth/rate-limit.ts";
import { clientIp } from "#provider/http/client-ip.ts";
import { conflict, HttpError, notFound, unauthorized } from "#provider/http/errors.ts";
import { isUniqueViolation } from "#provider/store/unique-violation.ts";
import { createPasswordReset, usePasswordReset } from "#provider/store/password-resets.ts";
import { dropExpiredRevocations, revokeToken } from "#provider/store/revoked-tokens.ts";
import {
  createTrader,
  findOrCreateGoogleUser,
  userByEmail,
  userExists,
  userForLogin,
  userProfile,
  usersWithNameOrEmail,
} from "#provider/store/users.ts";

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
      user = await userForLogin(db, body.username);
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
    const taken = await usersWithNameOrEmail(db, body.username, body.email);
    if (taken.some((u) => u.username.toLowerCase() === body.username.toLowerCase())) {
      throw conflict(`The username '${body.username}' is already taken`);
    }
    if (taken.length) throw conflict("An account with this email already exists");

    const passwordHash = await passwords.hash(body.password);
    try {
      await createTrader(db, {
        username: body.username,
        email: body.email,
        password_hash: passwordHash,
        first_name: body.first_name,
        last_name: body.last_name,
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
    const user = await userByEmail(db, body.email);
    if (user) {
      const token = randomBytes(32).toString("base64url");
      await createPasswordReset(db, hashToken(token), user.id, RESET_TTL_SECONDS);
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
    const reset = await usePasswordReset(db, tokenHash, passwordHash);
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
    const user = await userProfile(db, caller.id);
    if (!user) throw unauthorized();
    const name = `${user.first_name} ${user.last_name}`.trim() || user.username;
    return { id: user.id, name, username: user.username, email: user.email };
  });

  router.on(calls.logout, async ({ caller, request }) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")![1]!;
    await revokeToken(db, tokenHash(token), new Date(caller.expiresAt ?? Date.now() + 30 * 86_400_000));
    await callers.sessionsEnded(caller.id);
    await dropExpiredRevocations(db);
    return { ok: true as const };
  });

  router.on(calls.permissions, async ({ caller, params }) => {
    requireSelfOrAdmin(caller, params.userId);
    if (!(await userExists(db, params.userId))) throw notFound("User not found");
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
