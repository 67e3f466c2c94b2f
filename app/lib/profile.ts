/** docs/product.md#constants-display: shown as text, not loaded. */
export const ACCOUNT_FACTS = [
  ["Member Since", "January 2024"],
  ["Account Type", "Premium Trader"],
  ["Trading Level", "Advanced"],
] as const;

export const TRADING_PREFERENCES = [
  ["Default Order Type", "Market Order"],
  ["Risk Tolerance", "Moderate"],
  ["Portfolio Value", "$50,000"],
] as const;

/** docs/product.md#validation-support: subjects, value and label. */
export const SUPPORT_SUBJECTS = [
  ["account", "Account"],
  ["trading", "Trading"],
  ["technical", "Technical"],
  ["billing", "Billing"],
  ["feature", "Feature Request"],
  ["other", "Other"],
] as const;

/** docs/product.md#constants-timings: the support submission is simulated with a 1 s delay. */
export const SUPPORT_DELAY_MS = 1000;

/** docs/product.md#constants-timings: the notifications banner hides after 6 s. */
export const BANNER_MS = 6000;

/** The profile photo kept in the browser (docs/product.md#entities-browser-storage). */
export const PROFILE_IMAGE_KEY = "profileImage";
/** The device token kept in the browser (docs/product.md#entities-browser-storage). */
export const DEVICE_TOKEN_KEY = "fcm_token";
/** The photo is scaled to fit this square before it is stored, to stay well inside localStorage's quota. */
export const PROFILE_IMAGE_SIZE = 256;
