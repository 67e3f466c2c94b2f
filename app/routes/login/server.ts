import type { Href } from "#app/lib/href.ts";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirectDocument } from "react-router";
import * as calls from "#contract/calls.ts";
import type { AuthActionData } from "#app/components/landing/auth-card.tsx";
import { ForgotSchema, LoginSchema, safeRedirect, SignupSchema } from "#app/lib/auth-schemas.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { loadSessionUser, PermissionsUnavailable } from "#app/server/auth.server.ts";
import { callProvider, ProviderError } from "#app/server/provider.server.ts";
import { commitNewSession } from "#app/server/session.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";

/**
 * The handlers of the sign-in card's forms on /login, one per intent (app/lib/login-intents.ts).
 * `headers` names the browser's address to the provider, which limits attempts per address.
 */
type Headers = Record<string, string> | undefined;

export async function login(formData: FormData, headers: Headers) {
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") {
    return data(reply("login", submission.reply({ hideFields: ["password"] })), { status: 400 });
  }
  const { username, password, redirectTo } = submission.value;
  try {
    const { access_token } = await callProvider(calls.login, { body: { username, password }, headers });
    if (!access_token)
      return data(reply("login", submission.reply({ formErrors: [messages.noToken], hideFields: ["password"] })), {
        status: 502,
      });
    return await startSession(access_token, redirectTo);
  } catch (error) {
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data(reply("login", submission.reply({ formErrors: [loginErrorText(error)], hideFields: ["password"] })), {
      status,
    });
  }
}

/**
 * docs/product.md#errors-login: 404 'User not found', 401 'Invalid credentials', a rate limit's own
 * text, else the generic one; the permissions of an accepted sign-in that could not be read say so
 * (#errors-session).
 */
function loginErrorText(error: unknown): string {
  if (error instanceof PermissionsUnavailable) return error.message;
  if (!(error instanceof ProviderError)) return messages.unexpected;
  if (error.status === 404) return messages.userNotFound;
  if (error.status === 401) return messages.invalidCredentials;
  if (error.status === 429 && error.detail) return error.detail;
  if (error.status === 0) return messages.network;
  return messages.unexpected;
}

export async function signup(formData: FormData, headers: Headers) {
  const submission = parseWithZod(formData, { schema: SignupSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") return data(reply("signup", submission.reply({ hideFields })), { status: 400 });
  const { email, username, password, firstName, lastName } = submission.value;
  try {
    await callProvider(calls.register, {
      body: { email, username, password, first_name: firstName, last_name: lastName },
      headers,
    });
  } catch (error) {
    // docs/product.md#errors-registration: the server's detail, else 'Registration failed'; a non-HTTP failure is 'unexpected'.
    const text =
      error instanceof ProviderError && error.status > 0
        ? (error.detail ?? messages.registrationFailed)
        : messages.unexpected;
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data(reply("signup", submission.reply({ formErrors: [text], hideFields })), { status });
  }
  // docs/product.md#states-auth: back to login with a success toast.
  return redirectWithToast("/login" satisfies Href, {
    type: "success",
    text: messages.accountCreated,
    autoClose: TOAST_MS.app,
  });
}

export async function forgot(formData: FormData, headers: Headers) {
  const submission = parseWithZod(formData, { schema: ForgotSchema });
  if (submission.status !== "success") return data(reply("forgot", submission.reply()), { status: 400 });
  try {
    await callProvider(calls.forgotPassword, { body: { email: submission.value.email }, headers });
  } catch (error) {
    // docs/product.md#errors-registration: the detail, else 'Failed to send reset email'.
    const text = (error instanceof ProviderError && error.status > 0 && error.detail) || messages.resetEmailFailed;
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    return data(reply("forgot", submission.reply({ formErrors: [text] })), { status });
  }
  return redirectWithToast("/login" satisfies Href, {
    type: "success",
    text: messages.resetSent,
    autoClose: TOAST_MS.app,
  });
}

export async function googleSignIn(formData: FormData, headers: Headers) {
  const token = formData.get("firebase_token");
  const redirectTo = formData.get("redirectTo");
  if (typeof token !== "string" || !token) {
    // The button posts here without a token only when JavaScript is off.
    return data(googleReply(messages.googleNeedsJavaScript, "card"), { status: 400 });
  }
  try {
    const { access_token } = await callProvider(calls.googleLogin, { body: { firebase_token: token }, headers });
    if (!access_token) return data(googleReply(messages.googleFailed, "toast"), { status: 502 });
    return await startSession(access_token, typeof redirectTo === "string" ? redirectTo : undefined);
  } catch (error) {
    if (error instanceof ProviderError && error.status === 429 && error.detail) {
      return data(googleReply(error.detail, "card"), { status: 429 });
    }
    console.error("[login] Google sign-in was refused:", error instanceof Error ? error.message : error);
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    const text = error instanceof PermissionsUnavailable ? error.message : messages.googleFailed;
    return data(googleReply(text, "toast"), { status });
  }
}

/** docs/product.md#states-auth: a successful sign-in keeps the token in the session and lands by a full page load. */
async function startSession(token: string, redirectTo: string | undefined) {
  const user = await loadSessionUser(token);
  return redirectDocument(safeRedirect(redirectTo), { headers: { "set-cookie": await commitNewSession(token, user) } });
}

function reply(intent: "login" | "signup" | "forgot", result: SubmissionResult<string[]>): AuthActionData {
  return { intent, result };
}

function googleReply(error: string, display: "card" | "toast"): AuthActionData {
  return { intent: "google", error, display };
}
