/**
 * A trade's bounds, spelled once: the contract's TradeInput (entities.ts), the Add Trade form
 * (app/lib/trade-schemas.ts) and the database's CHECK constraints on `trades` (migration
 * 0110-trade-bounds, whose numbers provider/db/trade-bounds.test.ts holds to these) agree, so a value
 * out of range is a field error and never a 500 (issue 40, finding 4). No zod here: the browser's
 * form loads it too.
 */

/** A stock ticker: 1 to 10 letters or digits. */
export const TICKER_MAX = 10;
/** An option's underlying is an OCC symbol's root: 1 to 6 letters or digits. */
export const OPTION_TICKER_MAX = 6;
/** An OCC symbol holds the strike in thousandths of a dollar in 8 digits: 0.001 to 99,999.999. */
export const STRIKE_MIN = 0.001;
export const STRIKE_MAX = 99_999.999;
/** A price or a fee, per share or in dollars (docs/product.md#constants-bounds). */
export const PRICE_MAX = 9_999_999;
/** Shares or contracts on one trade. */
export const QUANTITY_MAX = 100_000;
/** An OCC symbol's expiry has a two-digit year: 2000 to 2099. */
export const EXPIRY_FIRST = "2000-01-01";
export const EXPIRY_LAST = "2099-12-31";
/** The earliest day a trade may be dated (UTC); the latest is now. */
export const TRADED_FIRST = "1900-01-01";

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });

/** The sentences of the bounds, the same in the form and at the provider. */
export const BOUND_TEXTS = {
  strike: `Strike must be from ${grouped.format(STRIKE_MIN)} to ${grouped.format(STRIKE_MAX)}`,
  optionTicker: `An option's ticker is at most ${OPTION_TICKER_MAX} characters`,
  expiry: `Expiry must be from ${EXPIRY_FIRST} to ${EXPIRY_LAST}`,
  tradedFirst: `A trade cannot be dated before ${TRADED_FIRST}`,
} as const;
