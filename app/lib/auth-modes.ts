import type { HrefWithSearch } from "#app/lib/href.ts";
/**
 * The sign-in pages' modes and texts, without zod: the pages render with these before their forms'
 * schemas (app/lib/auth-schemas.ts) load (ADR 0051).
 */

/** The three modes of the /login card (docs/product.md#screens-login), kept in the URL as `?mode=`. */
export const AUTH_MODES = ["login", "signup", "forgot"] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export function authModeOf(value: string | null | undefined): AuthMode {
  return AUTH_MODES.includes(value as AuthMode) ? (value as AuthMode) : "login";
}

/** The link to a mode of the card; `#auth` brings the card into view without JavaScript. */
export function authModeHref(mode: AuthMode): string {
  return `/login?mode=${mode}#auth` satisfies HrefWithSearch;
}

/** The product's name, in the signup title ('Join …', docs/product.md#screens-login). */
export const PRODUCT_NAME = "PutSeller";

/** Shown under new-password fields, so the rule is known before it is broken. */
export const PASSWORD_HINT = "At least 8 characters, with a letter and a digit.";
