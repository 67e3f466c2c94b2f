import { z } from "zod";
import { CONFIG_KEYS } from "./constants.ts";
import { Timestamp } from "./timestamp.ts";
import {
  BOUND_TEXTS,
  EXPIRY_FIRST,
  EXPIRY_LAST,
  OPTION_TICKER_MAX,
  PRICE_MAX,
  QUANTITY_MAX,
  STRIKE_MAX,
  STRIKE_MIN,
  TICKER_MAX,
  TRADED_FIRST,
} from "./trade-bounds.ts";

/** docs/product.md#entities: the entities, as the provider sends them. */

/** A price, an intrinsic value or a buy level: numeric, 0 to 9,999,999 (docs/product.md#validation-stock, #constants-bounds). */
export const Price = z.number().min(0).max(PRICE_MAX);
/** Ids are PostgreSQL `integer`s: a larger number names nothing and is refused here, not by the database. */
const ID_MAX = 2_147_483_647;
export const Id = z.number().int().positive().max(ID_MAX, "No such id: ids are at most 2147483647");
export { Timestamp } from "./timestamp.ts";
/** Calendar date, YYYY-MM-DD, one that exists (not 2026-13-45 or 2026-02-30). */
export const DateOnly = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date as YYYY-MM-DD")
  .refine(isCalendarDate, "No such date");

function isCalendarDate(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
/** Flags that docs/product.md stores as 1 or 0. */
const Flag = z.union([z.literal(0), z.literal(1)]);

/** Only letters and digits, upper case (docs/product.md#validation-stock), 1 to 10 characters. */
export const Ticker = z
  .string()
  .trim()
  .transform((s) => s.replace(/[^A-Za-z0-9]/g, "").toUpperCase())
  .pipe(z.string().min(1, "Ticker is required").max(TICKER_MAX, `Ticker is at most ${TICKER_MAX} characters`));

export const CurrentUser = z.object({
  id: Id,
  name: z.string(),
  username: z.string(),
  email: z.string(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** Where a market figure came from (MARKET_DATA). */
export const MarketSource = z.enum(["simulated", "yahoo", "tradier"]);
export type MarketSource = z.infer<typeof MarketSource>;

export const Stock = z.object({
  id: Id,
  ticker: z.string(),
  name: z.string(),
  current_price: z.number(),
  /** When current_price was last refreshed; null before the first quote. */
  updated_at: Timestamp.nullable(),
  /** The market source of current_price; null when unknown (stored before sources were kept). */
  price_source: MarketSource.nullable(),
});
export type Stock = z.infer<typeof Stock>;

const ivAndLevels = {
  base_iv: z.number(),
  conservative_iv: z.number(),
  average_iv: z.number(),
  buy_level_one: z.number(),
  buy_level_two: z.number(),
  buy_level_three: z.number(),
  buy_level_four: z.number(),
};

export const UserStock = z.object({
  id: Id,
  sort_order: z.number().int(),
  active: Flag,
  generate_recommendation: z.boolean(),
  ...ivAndLevels,
  stock: Stock,
});
export type UserStock = z.infer<typeof UserStock>;

export const CATEGORY_ICONS = ["queen", "avoid", "hold", "speculative", "buy"] as const;
export const CategoryIcon = z.enum(CATEGORY_ICONS);
export type CategoryIcon = z.infer<typeof CategoryIcon>;

export const Category = z.object({ id: Id, name: z.string(), icon: CategoryIcon });
export type Category = z.infer<typeof Category>;

export const UipStock = z.object({
  id: Id,
  sort_order: z.number().int(),
  active: Flag,
  stock: Stock,
  category: Category,
  category_id: Id,
  ...ivAndLevels,
  /** Whether the signed-in user gets price alerts for this stock (the bell). */
  price_alert: z.boolean(),
});
export type UipStock = z.infer<typeof UipStock>;

/** Which of the user's buy levels a strike sits at or below. */
const BuyLevelName = z.enum(["one", "two", "three", "four"]);

export const TradeRecommendation = z.object({
  id: Id,
  stock_id: Id,
  /** The generation run this row belongs to. */
  trade_recommendations_id: Id,
  /** OCC option symbol, e.g. AAPL261218P00180000. */
  option_identifier: z.string(),
  put_or_call: z.enum(["put", "call"]),
  volume: z.number().int().min(0),
  expiration_date: DateOnly,
  strike_price: z.number(),
  current_stock_price: z.number(),
  current_option_price: z.number(),
  option_weekly_low_price: z.number(),
  option_weekly_high_price: z.number(),
  /** Fractions: 0.021 is 2.1 %. */
  calculated_monthly_roi: z.number(),
  implied_volatility: z.number(),
  historical_volatility: z.number(),
  delta: z.number(),
  theta: z.number(),
  vega: z.number(),
  created_at: Timestamp,
  updated_at: Timestamp,
  active: Flag,
  // What a put seller checks before trading (an addition, docs/product.md#additions-calls; all fractions where a percentage).
  // buy_level and below_conservative_iv compare the strike with the levels the reader may see: their
  // own watchlist row of the stock, else the shared UIP row, else none (null, false). On the
  // websocket, which every signed-in browser receives, the UIP row's only (ADR 0007).
  open_interest: z.number().int().min(0),
  bid: z.number(),
  ask: z.number(),
  days_to_expiry: z.number().int(),
  annualized_roi: z.number(),
  breakeven: z.number(),
  collateral: z.number(),
  cushion: z.number(),
  probability_of_profit: z.number(),
  probability_of_profit_delta: z.number(),
  earnings_date: DateOnly.nullable(),
  earnings_before_expiry: z.boolean(),
  iv_rank: z.number().nullable(),
  buy_level: BuyLevelName.nullable(),
  below_conservative_iv: z.boolean(),
  // Honest figures (ADR 0022). current_option_price is the bid, what a sell order fills at; the mid
  // is beside it. calculated_monthly_roi and annualized_roi are as stored: gross, on the whole
  // premium. The net_* figures are for this reader: time value at the bid (premium less intrinsic
  // value) less their commission, over the collateral (the strike).
  mid: z.number(),
  intrinsic_value: z.number(),
  time_value: z.number(),
  /** (ask − bid) / mid. */
  spread: z.number(),
  /** Risk-neutral chance of ending below the strike, N(−d2); null in rows stored before it was kept. */
  probability_of_assignment: z.number().nullable(),
  /** Share of the stored daily ATM IVs (up to a year) below the run's; null before 20 days. */
  iv_percentile: z.number().nullable(),
  /** Daily ATM IVs stored when the run was made (rank and percentile need 20). */
  iv_history_days: z.number().int().min(0),
  /** The T-bill (risk-free) rate the run used, annual. */
  rate: z.number(),
  /** The continuous dividend yield the run priced the put with, annual; null in rows stored without it. */
  dividend_yield: z.number().nullable().optional(),
  /** The reader's commission per contract, in dollars. */
  commission: z.number(),
  net_return: z.number(),
  net_monthly_return: z.number(),
  net_annualized_return: z.number(),
  /** What T-bills pay on the collateral over the same days. */
  tbill_return: z.number(),
  /** net_return − tbill_return. */
  excess_return: z.number(),
  /** Strike at or below the reader's conservative value. */
  at_or_below_conservative: z.boolean(),
  /** The reader's score and rank among the stock's puts shown to them (1 = best); 0 when not ranked. */
  score: z.number(),
  rank: z.number().int().min(0),
  /**
   * True when the reader's conservative-value filter left nothing: this is the only row, the strike
   * nearest above their conservative value, shown so they can see what they would have to accept.
   */
  nearest_above_conservative: z.boolean(),
  // Where the figures came from and how old they are (docs/product.md#states-option-card): the
  // market source and the time the chain's prices were made (null in rows stored before they were
  // kept), and whether the bid was quoted or, with the market closed, is the last trade ("last").
  market_source: MarketSource.nullable(),
  quoted_at: Timestamp.nullable(),
  bid_source: z.enum(["quote", "last"]),
});
export type TradeRecommendation = z.infer<typeof TradeRecommendation>;

/** One stock's latest generation run. */
export const TopLineRecommendation = z.object({
  ticker: z.string(),
  stock_id: Id,
  stock_name: z.string(),
  /** The stock price the run used. */
  current_price: z.number(),
  /** The stock's ~30-day at-the-money implied volatility at the run (fraction; 0 when unknown). */
  implied_volatility: z.number(),
  /** 20-day historical volatility at the run (fraction). */
  historical_volatility: z.number(),
  /** Average intrinsic value (a price) of the levels that ranked the set; 0 when none was set. */
  average_iv: z.number(),
  /** When the run was made. */
  recommendation_date: Timestamp,
  /**
   * Puts the reader's filters let through (the default filters in a live update); 0 when none does.
   */
  trade_recommendation_count: z.number().int().min(0),
  /** IV rank and percentile of the run's ATM IV (0–1), null until 20 days of it are stored. */
  iv_rank: z.number().nullable().optional(),
  iv_percentile: z.number().nullable().optional(),
  /** Daily ATM IVs stored when the run was made ("building: n of 20 days" until 20). */
  iv_history_days: z.number().int().min(0).optional(),
  // The reader's conservative value, as their put filter uses it, and whose it is: their watchlist
  // row's, the UIP list's when theirs is 0 (not set) or they have no row, else none (ADR 0083).
  // Left out of live updates, which carry only what is shared.
  conservative_iv: z.number().min(0).optional(),
  conservative_source: z.enum(["watchlist", "uip", "none"]).optional(),
});
export type TopLineRecommendation = z.infer<typeof TopLineRecommendation>;

const NotificationType = z.string(); // trade, alert, success; anything else is "system"
export const NotificationItem = z.object({
  id: Id,
  read: Flag,
  created_at: Timestamp,
  notification: z.object({
    type: NotificationType,
    title: z.string(),
    body: z.string(),
    action_required: Flag,
    /** Where tapping it leads, e.g. /insights (an addition, docs/product.md#additions-calls). */
    url: z.string().nullable(),
  }),
});
export type NotificationItem = z.infer<typeof NotificationItem>;

export const UserDevice = z.object({
  device_type: z.literal("web"),
  /** The push subscription (Web Push JSON) or an FCM registration token. */
  fcm_token: z.string().min(1).max(4096),
  browser: z.string().max(200),
  os: z.string().max(200),
  ip_address: z.string().max(100),
  user_agent: z.string().max(1000),
  app_version: z.string().max(50),
  notification_opt_in: z.enum(["1", "0"]),
});
export type UserDevice = z.infer<typeof UserDevice>;

const PERMISSION_OBJECTS = ["UIP_STOCK", "USER_STOCK", "BACKEND_CONFIG"] as const;
const PERMISSION_ACTIONS = ["VIEW", "CREATE", "UPDATE", "DELETE"] as const;
export const Permission = z.object({
  object: z.enum(PERMISSION_OBJECTS),
  action: z.enum(PERMISSION_ACTIONS),
});
export type Permission = z.infer<typeof Permission>;
export type PermissionObject = Permission["object"];
export type PermissionAction = Permission["action"];

export const ConfigKey = z.enum(CONFIG_KEYS);
export type ConfigKey = z.infer<typeof ConfigKey>;
/** Read as true when 1, '1', true or 'true' (docs/product.md#entities-config). */
export const ConfigValue = z.union([z.literal(1), z.literal(0), z.enum(["1", "0", "true", "false"]), z.boolean()]);
export { configIsOn } from "./constants.ts";

/** One daily bar of price history (for the row chart). */
export const DailyBar = z.object({
  time: DateOnly,
  open: z.number(),
  high: z.number(),
  low: z.number(),
  close: z.number(),
  volume: z.number().int().min(0),
});
export type DailyBar = z.infer<typeof DailyBar>;

// ── The wheel journal (README "The wheel journal") ───────────────────────────

/** What a journal entry records. Options are short premium trades of the wheel. */
export const TRADE_KINDS = [
  "stock_buy",
  "stock_sell",
  "sell_to_open",
  "buy_to_close",
  "expire",
  "assignment",
  "exercise",
  // Cash a held stock paid: a dividend or cash in lieu; quantity × price is the amount (ADR 0074).
  "dividend",
] as const;
export type TradeKind = (typeof TRADE_KINDS)[number];
const OPTION_KINDS: readonly TradeKind[] = ["sell_to_open", "buy_to_close", "expire", "assignment", "exercise"];
const isOptionKind = (kind: TradeKind) => OPTION_KINDS.includes(kind);
const OptionType = z.enum(["put", "call"]);
// "ofx": OFX/QFX investment statements (docs/decisions/0089-ofx-investment-statements.md); Fidelity,
// Robinhood, TD Ameritrade and E*TRADE CSV (docs/decisions/0096-us-broker-csv-imports.md); Webull's
// orders CSV (docs/decisions/0095-webull-orders-and-expiries-from-the-close.md); "tradier":
// synced from a Tradier account's history (docs/decisions/0093-tradier-sync-through-the-import.md).
const TRADE_SOURCES = [
  "manual",
  "ibkr",
  "tastytrade",
  "schwab",
  "ofx",
  "fidelity",
  "robinhood",
  "tdameritrade",
  "etrade",
  "tradier",
  "webull",
] as const;

const money = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} must be at least 0`)
    .max(PRICE_MAX, `${label} must be at most 9,999,999`);

/**
 * One trade as the trader enters it. `price` is per share (an option's premium per share, as
 * quoted); `fees` are the trade's commissions and fees in dollars. Expire, assignment and exercise
 * happen at the strike: their price is 0. `traded_at` may not lie in the future (the provider says so).
 */
export const TradeInput = z
  .object({
    kind: z.enum(TRADE_KINDS, { error: "Choose what the trade was" }),
    ticker: Ticker,
    option_type: OptionType.nullish(),
    strike: z.number().min(STRIKE_MIN, BOUND_TEXTS.strike).max(STRIKE_MAX, BOUND_TEXTS.strike).nullish(),
    expiry: DateOnly.nullish(),
    quantity: z
      .number({ error: "Quantity must be a number" })
      .positive("Quantity must be above 0")
      .max(QUANTITY_MAX, "Quantity must be at most 100,000"),
    price: money("Price"),
    fees: money("Fees"),
    traded_at: Timestamp,
    portfolio: z.string().trim().max(100).optional(),
    strategy: z.string().trim().max(100).nullish(),
    notes: z.string().max(2000).nullish(),
    confidence: z.number().int().min(0).max(4).nullish(),
  })
  .superRefine((trade, ctx) => {
    if (isOptionKind(trade.kind)) {
      if (!trade.option_type) ctx.addIssue({ code: "custom", path: ["option_type"], message: "Choose put or call" });
      if (trade.strike == null) ctx.addIssue({ code: "custom", path: ["strike"], message: "Strike is required" });
      if (!trade.expiry) ctx.addIssue({ code: "custom", path: ["expiry"], message: "Expiry is required" });
      if (!Number.isInteger(trade.quantity)) {
        ctx.addIssue({ code: "custom", path: ["quantity"], message: "Contracts must be a whole number" });
      }
    } else if (trade.option_type || trade.strike != null || trade.expiry) {
      ctx.addIssue({ code: "custom", path: ["kind"], message: "A stock trade has no put/call, strike or expiry" });
    }
    checkTradeBounds(trade, ctx);
  });

/** The bounds an OCC symbol and the database set (contract/trade-bounds.ts), as field errors. */
function checkTradeBounds(
  trade: { kind: TradeKind; ticker: string; expiry?: string | null | undefined; traded_at: string },
  ctx: z.RefinementCtx,
) {
  if (isOptionKind(trade.kind) && trade.ticker.length > OPTION_TICKER_MAX) {
    ctx.addIssue({ code: "custom", path: ["ticker"], message: BOUND_TEXTS.optionTicker });
  }
  if (trade.expiry && (trade.expiry < EXPIRY_FIRST || trade.expiry > EXPIRY_LAST)) {
    ctx.addIssue({ code: "custom", path: ["expiry"], message: BOUND_TEXTS.expiry });
  }
  if (!(Date.parse(trade.traded_at) >= Date.parse(`${TRADED_FIRST}T00:00:00Z`))) {
    ctx.addIssue({ code: "custom", path: ["traded_at"], message: BOUND_TEXTS.tradedFirst });
  }
}
export type TradeInput = z.input<typeof TradeInput>;

export const Trade = z.object({
  id: Id,
  kind: z.enum(TRADE_KINDS),
  ticker: z.string(),
  option_type: OptionType.nullable(),
  strike: z.number().nullable(),
  expiry: DateOnly.nullable(),
  /** OCC symbol derived from ticker, expiry, put/call and strike; null for stock trades. */
  occ_symbol: z.string().nullable(),
  quantity: z.number(),
  price: z.number(),
  fees: z.number(),
  traded_at: Timestamp,
  /** The buy-to-close this sell-to-open rolled from; null otherwise. */
  rolled_from: Id.nullable(),
  portfolio: z.string(),
  strategy: z.string().nullable(),
  notes: z.string().nullable(),
  confidence: z.number().int().nullable(),
  source: z.enum(TRADE_SOURCES),
  created_at: Timestamp,
  /** Recorded by the provider from the expiry day's close (docs/decisions/0078); the trader may undo it. */
  recorded_automatically: z.boolean(),
});
export type Trade = z.infer<typeof Trade>;

/** A trade with what the journal made of it. */
export const JournalRow = Trade.extend({
  /** Realised profit or loss of a closing trade in dollars, net of both legs' fees; null for an opening trade. */
  realised_pnl: z.number().nullable(),
  /** The wheel cycle the trade belongs to. */
  cycle_id: z.number().int(),
});
export type JournalRow = z.infer<typeof JournalRow>;

/** An open short option with its figures; `mark` is the mid of bid and ask, null when the market has no quote. */
export const OpenOption = z.object({
  ticker: z.string(),
  option_type: OptionType,
  strike: z.number(),
  expiry: DateOnly,
  occ_symbol: z.string(),
  contracts: z.number(),
  opened_at: Timestamp,
  /** The trades whose contracts are still open (for alerts and rolls). */
  trade_ids: z.array(Id),
  /** Cash set aside: strike × 100 × contracts for a put; 0 for a call covered by shares. */
  collateral: z.number(),
  /** Premium received for the open contracts, net of their opening fees: the most the position can make. */
  premium_kept: z.number(),
  days_held: z.number(),
  mark: z.number().nullable(),
  /** Premium kept minus the cost to buy back at the mark (closing fees not included). */
  pnl_at_mark: z.number().nullable(),
  /** pnl_at_mark as a share of premium_kept. */
  pct_max_profit: z.number().nullable(),
  /**
   * The stock within 3 % of the strike on the side that assigns it: at or below strike × 1.03 for a
   * put, at or above strike × 0.97 for a call (docs/decisions/0036, 0103); false without a quote.
   */
  tested: z.boolean(),
  /** The option's mark above the premium received per share; false without a quote. */
  losing: z.boolean(),
  /**
   * Past the close of its expiry day and not yet recorded as expired, assigned or called away
   * (docs/decisions/0078): no days held or collateral in use are shown for it.
   */
  awaiting_resolution: z.boolean(),
  /** When it stops trading: the close of its expiry day in New York (13:00 on an early close). */
  expires_at: Timestamp,
});
export type OpenOption = z.infer<typeof OpenOption>;

export const ShareLot = z.object({
  ticker: z.string(),
  shares: z.number(),
  /** Dollars paid per share held (strike on assignment, plus buying fees). */
  average_cost: z.number(),
  /** Average cost minus every premium of the cycle so far, net of fees and buy-backs, per share held. */
  adjusted_cost_basis: z.number(),
});
export type ShareLot = z.infer<typeof ShareLot>;

/** One trade of a wheel cycle and what it left: put → shares → calls → called away (ADR 0079). */
export const WheelCycleStep = z.object({
  trade_id: Id,
  traded_at: Timestamp,
  kind: z.enum(TRADE_KINDS),
  option_type: OptionType.nullable(),
  strike: z.number().nullable(),
  quantity: z.number(),
  price: z.number(),
  /** Shares held after the trade. */
  shares: z.number(),
  /** Adjusted cost basis per share after the trade; null without shares. */
  adjusted_cost_basis: z.number().nullable(),
});
export type WheelCycleStep = z.infer<typeof WheelCycleStep>;

export const WheelCycle = z.object({
  id: z.number().int(),
  ticker: z.string(),
  opened_at: Timestamp,
  closed_at: Timestamp.nullable(),
  trade_ids: z.array(Id),
  /** Realised P/L of the cycle's closing trades, net of fees. */
  realised_pnl: z.number(),
  /** Option premium received minus buy-backs, net of all option fees. */
  premium_net: z.number(),
  /** The most cash the cycle tied up at once (put collateral or share cost). */
  capital: z.number(),
  /** realised_pnl ÷ capital. */
  return_on_capital: z.number().nullable(),
  /** Σ collateral × days it was tied up. */
  collateral_days: z.number(),
  /** realised_pnl ÷ collateral_days × 365. */
  annualised_return: z.number().nullable(),
  adjusted_cost_basis: z.number().nullable(),
  steps: z.array(WheelCycleStep),
});
export type WheelCycle = z.infer<typeof WheelCycle>;

const JournalStats = z.object({
  /** Realised P/L of the trades in the period, net of fees. */
  realised_pnl: z.number(),
  closing_trades: z.number().int(),
  /** Wheel cycles closed in the period (a roll keeps one cycle going). */
  closed_cycles: z.number().int().optional(),
  /** Share of the period's closed cycles with a gain (issue 46; a roll's buy-back is no loss); null with none. */
  win_rate: z.number().nullable(),
  /** Premium received minus buy-backs and option fees, this calendar month and year (UTC). */
  premium_month: z.number(),
  premium_year: z.number(),
  by_ticker: z.array(z.object({ ticker: z.string(), realised_pnl: z.number() })),
});

export const Journal = z.object({
  as_of: Timestamp,
  rows: z.array(JournalRow),
  open_options: z.array(OpenOption),
  share_lots: z.array(ShareLot),
  cycles: z.array(WheelCycle),
  stats: JournalStats,
});
export type Journal = z.infer<typeof Journal>;

const BROKERS = [
  "ibkr",
  "tastytrade",
  "schwab",
  "fidelity",
  "robinhood",
  "tdameritrade",
  "etrade",
  "webull",
  "ofx",
] as const;
export const Broker = z.enum(BROKERS, {
  error:
    "Choose Interactive Brokers, tastytrade, Schwab, Fidelity, Robinhood, TD Ameritrade, E*TRADE, Webull or an OFX/QFX investment statement",
});
export type Broker = z.infer<typeof Broker>;

export const ImportPreview = z.object({
  broker: Broker,
  /** Trades the import adds, each with the file's line number. */
  added: z.array(TradeInput.and(z.object({ line: z.number().int() }))),
  /** Lines already in the journal from an earlier import of the same lines. */
  duplicates: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  /** Lines that are not added, and why. */
  refused: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  /** Lines that are not trades (headers, totals, cash movements). */
  skipped: z.number().int(),
  /**
   * What a file that starts mid-cycle had open before its first line (ADR 0074): shares or short
   * options, each added as an "opening position" once the trader gives its price (`price` null until then).
   */
  openings: z.array(
    z.object({
      key: z.string(),
      kind: z.enum(["stock_buy", "sell_to_open"]),
      ticker: z.string(),
      option_type: OptionType.nullable(),
      strike: z.number().nullable(),
      expiry: DateOnly.nullable(),
      quantity: z.number(),
      traded_at: Timestamp,
      price: z.number().nullable(),
    }),
  ),
  /**
   * The open positions the file lists, saved as the broker's book on import for the reconciliation
   * (docs/decisions/0094); null when the file lists none or one could not be read.
   */
  positions: z
    .object({
      as_of: Timestamp,
      count: z.number().int(),
      /** The account's cash the file states, saved with the positions (ADR 0098); null when it says none. */
      cash: z.number().nullable(),
    })
    .nullable(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;
