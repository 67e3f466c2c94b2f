/**
 * The forms /profile posts (actions.server.ts): one name each, used by the
 * forms, the action's `switch` and the offline replay (no React here).
 */
export const PROFILE_INTENTS = [
  "mark-read",
  "mark-all-read",
  "clear-all",
  "config",
  "alert-settings",
  "support",
  "capital-settings",
  "coming-soon",
] as const;
type ProfileIntent = (typeof PROFILE_INTENTS)[number];
export const PROFILE_INTENT = {
  markRead: "mark-read",
  markAllRead: "mark-all-read",
  clearAll: "clear-all",
  config: "config",
  alertSettings: "alert-settings",
  support: "support",
  capitalSettings: "capital-settings",
  comingSoon: "coming-soon",
} as const satisfies Record<string, ProfileIntent>;
