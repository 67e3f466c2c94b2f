import type { ColumnType, Generated } from "kysely";

/** Kysely's view of the tables created by ./migrations.ts. */

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type GeneratedAlways<T> = ColumnType<T, never, never>;

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  firebase_uid: string | null;
  created_at: Generated<Date>;
  /** Bearer tokens issued before this moment are refused (set by a password reset). */
  tokens_valid_after: Date | null;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
}

export interface RolePermissionsTable {
  role_id: number;
  object: string;
  action: string;
}

export interface UserRolesTable {
  user_id: number;
  role_id: number;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  icon: string;
}

export interface StocksTable {
  id: Generated<number>;
  ticker: string;
  name: string;
  current_price: number;
  updated_at: Timestamp | null;
  /** The market source of current_price ("simulated", "yahoo", "tradier"); null when stored before it was kept. */
  price_source: string | null;
  next_earnings_date: string | null;
  /** The market source's sector (issue 42); null until first asked. */
  sector: Generated<string | null>;
}

interface IntrinsicValueColumns {
  base_iv: number;
  conservative_iv: number;
  average_iv: GeneratedAlways<number>;
  buy_level_one: number;
  buy_level_two: number;
  buy_level_three: number;
  buy_level_four: number;
}

export interface UserStocksTable extends IntrinsicValueColumns {
  id: Generated<number>;
  user_id: number;
  stock_id: number;
  sort_order: number;
  active: Generated<number>;
  generate_recommendation: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface UipStocksTable extends IntrinsicValueColumns {
  id: Generated<number>;
  stock_id: number;
  category_id: number;
  sort_order: number;
  active: Generated<number>;
  created_at: Generated<Date>;
}

export interface UipPriceAlertsTable {
  user_id: number;
  uip_stock_id: number;
}

export interface PriceHistoryTable {
  stock_id: number;
  day: string;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** At-the-money implied volatility of that day's close, for IV rank. */
  atm_iv: number | null;
}

export interface RecommendationRunsTable {
  id: Generated<number>;
  stock_id: number;
  created_at: Generated<Date>;
  /** Inputs of the run (user levels, market snapshot) so outcomes can be scored later. */
  inputs: ColumnType<unknown, string, string>;
}

export interface TradeRecommendationsTable {
  id: Generated<number>;
  run_id: number;
  stock_id: number;
  option_identifier: string;
  put_or_call: string;
  expiration_date: string;
  strike_price: number;
  current_stock_price: number;
  current_option_price: number;
  option_weekly_low_price: number;
  option_weekly_high_price: number;
  calculated_monthly_roi: number;
  implied_volatility: number;
  historical_volatility: number;
  delta: number;
  theta: number;
  vega: number;
  volume: number;
  /** Unused since migration 0060 (ADR 0033) moved its fields into the columns below; '{}' in new rows. */
  extra: ColumnType<unknown, string | undefined, string>;
  // The contract's extra fields (migration 0060). NULL only in rows stored before a field existed.
  bid: number;
  ask: number;
  mid: number | null;
  open_interest: number;
  days_to_expiry: number;
  annualized_roi: number;
  breakeven: number;
  collateral: number;
  cushion: number;
  probability_of_profit: number;
  probability_of_profit_delta: number;
  probability_of_assignment: number | null;
  /** DATE, read as YYYY-MM-DD. */
  earnings_date: string | null;
  earnings_before_expiry: boolean;
  iv_rank: number | null;
  iv_percentile: number | null;
  iv_history_days: number | null;
  /** The run's T-bill rate, annual. */
  rate: number | null;
  intrinsic_value: number | null;
  time_value: number | null;
  spread: number | null;
  /** Flags against the levels that ranked the run (possibly one user's private levels): for scoring, never served. */
  run_buy_level: "one" | "two" | "three" | "four" | null;
  run_below_conservative_iv: boolean;
  /** Score under the default filters and the run's levels; never served. */
  default_score: number;
  /** Place within its expiry in the default view (1 = best; 0 = in the pool, not picked by it). */
  default_rank: number;
  /** Where the chain's prices came from (simulated, yahoo, tradier); null in rows stored before. */
  market_source: string | null;
  /** When the chain's prices were made; null in rows stored before. */
  quoted_at: Date | string | null;
  /** "last" when the premium is the last trade, not a live bid (after hours); null read as "quote". */
  bid_source: "quote" | "last" | null;
  /** Continuous dividend yield the put was priced with (migration 0160). */
  dividend_yield: number | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

/** Each stock's active set: the run whose pool readers see (ADR 0040); its rows are never updated. */
export interface ActiveRecommendationRunsTable {
  stock_id: number;
  run_id: number;
}

/** A trader's recommendation filters (ADR 0022); no row means the defaults. */
export interface TraderFiltersTable {
  user_id: number;
  at_or_below_conservative: boolean;
  delta_min: number;
  delta_max: number;
  dte_min: number;
  dte_max: number;
  min_bid: number;
  min_open_interest: number;
  max_spread: number;
  skip_earnings: boolean;
  commission: number;
  updated_at: Generated<Date>;
}

/** A trader's covered-call filters (docs/decisions/0079). */
export interface CallFiltersTable {
  user_id: number;
  at_or_above_basis: boolean;
  at_or_above_base_value: boolean;
  delta_min: number;
  delta_max: number;
  dte_min: number;
  dte_max: number;
  min_bid: number;
  min_open_interest: number;
  max_spread: number;
  skip_earnings: boolean;
  updated_at: Generated<Date>;
}

export interface DevicesTable {
  id: Generated<number>;
  user_id: number;
  fcm_token: string;
  device_type: string;
  browser: string;
  os: string;
  ip_address: string;
  user_agent: string;
  app_version: string;
  notification_opt_in: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface NotificationsTable {
  id: Generated<number>;
  type: string;
  title: string;
  body: string;
  action_required: Generated<number>;
  url: string | null;
  created_at: Generated<Date>;
}

export interface UserNotificationsTable {
  id: Generated<number>;
  user_id: number;
  notification_id: number;
  read: Generated<number>;
  created_at: Generated<Date>;
}

export interface BackendConfigTable {
  key: string;
  value: string;
  updated_at: Generated<Date>;
}

export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body_text: string;
  created_at: Generated<Date>;
  sent_at: Timestamp | null;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  status: number;
  response_body: string;
  created_at: Generated<Date>;
}

export interface AppSecretsTable {
  name: string;
  value: string;
}

/** One fixed-window attempt counter (provider/auth/rate-limit.ts). */
export interface RateLimitsTable {
  bucket: string;
  window_start: Timestamp;
  hits: number;
}

/** A recommended put, once per option and New York day, and how it turned out (provider/track-record). */
export interface TrackRecordPicksTable {
  id: Generated<number>;
  /** live: copied from trade_recommendations; backtest: the engine run over past simulated sessions. */
  source: "live" | "backtest";
  /** Priced and scored in the simulated market. */
  simulated: boolean;
  /** The trade_recommendations row it was copied from (no foreign key: old runs may be pruned). */
  recommendation_id: number | null;
  ticker: string;
  option_symbol: string;
  shown_day: string;
  shown_at: Timestamp;
  expiration: string;
  strike: number;
  /** What the recommendation said the seller collects a share, at `premium_basis`. */
  premium: number;
  premium_basis: "bid" | "mid";
  spot: number;
  /** The engine's risk-neutral chance of ending above the breakeven, when shown. */
  probability_of_profit: number;
  /** The T-bill rate the engine priced with (continuous, a year); null for picks copied before it was kept. */
  rate: ColumnType<number | null, number | null | undefined, number | null>;
  close_day: string | null;
  close_at_expiry: number | null;
  outcome: "expired_worthless" | "assigned" | null;
  pnl_per_share: number | null;
  scored_at: Timestamp | null;
}

/** A covered call the screen suggested to a trader, and how it ended (docs/decisions/0088). */
export interface TrackRecordCallsTable {
  id: Generated<number>;
  user_id: number;
  simulated: boolean;
  ticker: string;
  option_symbol: string;
  shown_day: string;
  shown_at: Timestamp;
  expiration: string;
  strike: number;
  /** The bid shown, a share: what a sell order fills at. */
  premium: number;
  /** The trader's adjusted cost basis a share when the call was shown (the journal's figure). */
  adjusted_basis: number;
  spot: number;
  /** Risk-neutral N(d2) shown; null when no volatility fitted the quote. */
  chance_called: number | null;
  close_day: string | null;
  close_at_expiry: number | null;
  outcome: "called_away" | "kept" | null;
  pnl_per_share: number | null;
  scored_at: Timestamp | null;
}

/** The track record job's bookmarks (how far it has copied, whether the back-test ran). */
export interface TrackRecordStateTable {
  key: string;
  value: string;
}

/** A signed-out token (SHA-256 of it, hex), refused until `expires_at` (provider/auth/callers.ts). */
export interface RevokedTokensTable {
  token_hash: string;
  expires_at: Timestamp;
}

/** One trade of a user's wheel journal (migration 0020). */
export interface TradesTable {
  id: Generated<number>;
  user_id: number;
  kind: string;
  ticker: string;
  option_type: string | null;
  strike: number | null;
  /** DATE, read as YYYY-MM-DD. */
  expiry: string | null;
  quantity: number;
  price: number;
  fees: number;
  traded_at: Timestamp;
  rolled_from: number | null;
  portfolio: Generated<string>;
  strategy: string | null;
  notes: string | null;
  confidence: number | null;
  source: Generated<string>;
  import_key: string | null;
  created_at: Generated<Date>;
  /** Recorded by the expiry job from the day's close (migration 0130, ADR 0078). */
  recorded_automatically: Generated<boolean>;
}

export interface AlertSettingsTable {
  user_id: number;
  profit_share: number;
  strike_distance: number;
  earnings_days: number;
  updated_at: Generated<Date>;
}

/** One alert sent on an open short put; (user_id, position_key, event) is unique (ADR 0034). */
export interface PositionAlertsTable {
  id: GeneratedAlways<number>;
  user_id: number;
  /** The option's OCC symbol and the id of the trade that opened the position, e.g. AAPL261218P00180000#42. */
  position_key: string;
  event: string;
  notification_id: number | null;
  created_at: Generated<Date>;
}

/** How an expired short option was resolved from its expiry day's close, once per position (ADR 0078). */
export interface ExpiryResolutionsTable {
  id: GeneratedAlways<number>;
  user_id: number;
  /** The position key of ADR 0034: OCC symbol and the opening trade's id. */
  position_key: string;
  /** expire, assignment, exercise (recorded), or confirm (pin risk or not recordable: the trader is asked). */
  outcome: string;
  close: number;
  /** The trade recorded; null for confirm, or once the trader undid it. */
  trade_id: number | null;
  notification_id: number | null;
  created_at: Generated<Date>;
}

/** Per-stock scheduled work shared by provider processes, claimed under a lease (ADR 0085). */
export interface JobPartitionsTable {
  job: "prices" | "recommendations";
  stock_id: number;
  due_at: Generated<Date>;
  leased_by: string | null;
  leased_until: Date | null;
  claimed_at: Date | null;
  /** Runs that did the work (a quote stored or seen unchanged, a generation). */
  runs: Generated<number>;
}

/** A trader's capital settings (issue 42, ADR 0081); no row means the defaults. */
export interface CapitalSettingsTable {
  user_id: number;
  capital: number | null;
  reserve_share: number;
  ticker_limit: number;
  sector_limit: number;
  only_fitting: Generated<boolean>;
  updated_at: Generated<Date>;
}

/** A trader's own sector for a ticker, over the market source's. */
export interface TraderSectorsTable {
  user_id: number;
  ticker: string;
  sector: string;
}

/** What a broker says the trader holds (contract/broker-positions.ts), one row a source. */
export interface BrokerSnapshotsTable {
  user_id: number;
  source: string;
  as_of: Timestamp;
  /** BrokerPosition[], written as JSON text and read back parsed. */
  positions: ColumnType<unknown, string, string>;
  /** The account's cash as the broker states it; null when it does not say (ADR 0098). */
  cash: ColumnType<number | string | null, number | null | undefined, number | null>;
  saved_at: Generated<Date>;
}

/** A trader's broker connection (Tradier): the token only as ciphertext (ADR 0075), the sync's claim and last result. */
export interface BrokerConnectionsTable {
  user_id: number;
  broker: string;
  token_ciphertext: string;
  account_number: string | null;
  /** BrokerAccount[] of the token's profile, written as JSON text. */
  accounts: ColumnType<unknown, string | undefined, string>;
  connected_at: Generated<Date>;
  last_synced_at: Date | null;
  /** SyncResult, written as JSON text. */
  last_result: ColumnType<unknown, string | null | undefined, string | null>;
  last_error: string | null;
  sync_claimed_until: Date | null;
}

export interface Database {
  users: UsersTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  user_roles: UserRolesTable;
  categories: CategoriesTable;
  stocks: StocksTable;
  user_stocks: UserStocksTable;
  uip_stocks: UipStocksTable;
  uip_price_alerts: UipPriceAlertsTable;
  price_history: PriceHistoryTable;
  recommendation_runs: RecommendationRunsTable;
  trade_recommendations: TradeRecommendationsTable;
  active_recommendation_runs: ActiveRecommendationRunsTable;
  trader_filters: TraderFiltersTable;
  devices: DevicesTable;
  notifications: NotificationsTable;
  user_notifications: UserNotificationsTable;
  backend_config: BackendConfigTable;
  password_resets: PasswordResetsTable;
  mail_outbox: MailOutboxTable;
  idempotency_keys: IdempotencyKeysTable;
  app_secrets: AppSecretsTable;
  rate_limits: RateLimitsTable;
  track_record_picks: TrackRecordPicksTable;
  track_record_state: TrackRecordStateTable;
  track_record_calls: TrackRecordCallsTable;
  revoked_tokens: RevokedTokensTable;
  trades: TradesTable;
  alert_settings: AlertSettingsTable;
  position_alerts: PositionAlertsTable;
  expiry_resolutions: ExpiryResolutionsTable;
  call_filters: CallFiltersTable;
  job_partitions: JobPartitionsTable;
  capital_settings: CapitalSettingsTable;
  trader_sectors: TraderSectorsTable;
  broker_snapshots: BrokerSnapshotsTable;
  broker_connections: BrokerConnectionsTable;
}
