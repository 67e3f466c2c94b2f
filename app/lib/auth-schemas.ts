import type { Href } from "#app/lib/href.ts";
import { z } from "zod";
import { Email, NewPassword, Username } from "#contract/auth-fields.ts";
import { isSitePath } from "#contract/site-path.ts";
import { messages } from "./messages.ts";

/** A string field that must be filled in: absent and blank read alike. */
const required = (message: string) => z.string({ error: message }).trim().min(1, message);

/** The confirmation must equal the password; checked even while other fields are still wrong. */
const passwordsMatch = (v: { password: string; confirmPassword: string }) => v.password === v.confirmPassword;
const confirmationRule = {
  path: ["confirmPassword"],
  message: messages.passwordsDoNotMatch,
  when: ({ value }: { value: unknown }) => {
    const v = value as { password?: unknown; confirmPassword?: unknown };
    return typeof v.password === "string" && typeof v.confirmPassword === "string" && v.confirmPassword !== "";
  },
};

/** docs/product.md#validation-auth: username and password are required. One schema for browser and server. */
export const LoginSchema = z.object({
  username: required("Username is required"),
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  redirectTo: z.string().optional(),
});

/**
 * docs/product.md#validation-auth: every field is required, the email is an email, and a confirmation that differs
 * shows 'Passwords do not match' and is not sent. The username and password rules are the
 * provider's own (contract/auth-fields.ts), checked here first so the form can say so at once.
 */
export const SignupSchema = z
  .object({
    firstName: required("First name is required").pipe(
      z.string().max(100, "First name must be at most 100 characters"),
    ),
    lastName: required("Last name is required").pipe(z.string().max(100, "Last name must be at most 100 characters")),
    email: required("Email is required").pipe(Email),
    username: required("Username is required").pipe(Username),
    password: z.string({ error: "Password is required" }).min(1, "Password is required").pipe(NewPassword),
    confirmPassword: z.string({ error: "Please confirm your password" }).min(1, "Please confirm your password"),
  })
  .refine(passwordsMatch, confirmationRule);

/** docs/product.md#validation-auth: the email is required. */
export const ForgotSchema = z.object({
  email: required("Email is required").pipe(Email),
});

/** The new password of /reset-password, under the same policy and confirmation as signup. */
export const ResetPasswordSchema = z
  .object({
    token: z.string({ error: messages.resetLinkIncomplete }).min(1, messages.resetLinkIncomplete),
    password: z.string({ error: "Password is required" }).min(1, "Password is required").pipe(NewPassword),
    confirmPassword: z.string({ error: "Please confirm your password" }).min(1, "Please confirm your password"),
  })
  .refine(passwordsMatch, confirmationRule);

/** Only same-site paths, so a crafted link cannot send someone elsewhere after sign-in. */
export function safeRedirect(to: string | null | undefined, fallback = "/user-stocks" satisfies Href): string {
  if (!isSitePath(to)) return fallback;
  // A Location header holds bytes: a character past U+00FF (`☃`) made it throw after the session
  // was issued (issue 40, finding 5). The URL parser percent-encodes it, as a browser would.
  const url = new URL(to, "http://site.invalid");
  return url.origin === "http://site.invalid" ? `${url.pathname}${url.search}${url.hash}` : fallback;
}
