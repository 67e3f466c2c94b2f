/**
 * The forms of the sign-in card on /login (app/routes/login/server.ts): one name each,
 * used by the forms, the action's `switch` and the offline replay (no React here).
 */
export const LOGIN_INTENTS = ["login", "signup", "forgot", "google", "apple"] as const;
export type LoginIntent = (typeof LOGIN_INTENTS)[number];
export const LOGIN_INTENT = {
  login: "login",
  signup: "signup",
  forgot: "forgot",
  google: "google",
  apple: "apple",
} as const satisfies Record<string, LoginIntent>;
