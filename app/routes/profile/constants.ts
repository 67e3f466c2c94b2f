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

/** docs/product.md#constants-timings: the support submission is simulated with a 1 s delay. */
export const SUPPORT_DELAY_MS = 1000;

/** The profile photo kept in the browser (docs/product.md#entities-browser-storage). */
export const PROFILE_IMAGE_KEY = "profileImage";
/** The photo is scaled to fit this square before it is stored, to stay well inside localStorage's quota. */
export const PROFILE_IMAGE_SIZE = 256;
