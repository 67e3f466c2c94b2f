import { z } from "zod";
import { endpoint } from "./endpoint.ts";
import { isSitePath } from "./site-path.ts";
import { Email, NewPassword, Username } from "./auth-fields.ts";
import {
  Category,
  ConfigKey,
  ConfigValue,
  CurrentUser,
  Broker,
  DailyBar,
  Id,
  ImportPreview,
  Journal,
  NotificationItem,
  Permission,
  Price,
  TopLineRecommendation,
  TradeRecommendation,
  Ticker,
  Timestamp,
  Trade,
  TradeInput,
  UipStock,
  UserDevice,
  UserStock,
} from "./entities.ts";
import { FILTER_LABELS, type NumericFilter } from "./filter-labels.ts";
import { TraderFilters } from "./trader-filters.ts";
import { LandingStats, TrackRecord } from "./track-record.ts";
import { MarketStatus } from "./market-status.ts";
import { RollCandidates, RollCandidatesParams } from "./rolls.ts";
import { AlertSettings, PositionAlertsByOption } from "./position-alerts.ts";
import { CallFilterQuery, CallFilters, CoveredCalls } from "./covered-calls.ts";
import { ReconcileFixBody, Reconciliation, ReconciliationQuery } from "./reconcile.ts";
import { BestPuts, CapitalSettings, Plan, PlanFits, PlanFitsQuery, PlanQuery, SectorOverride } from "./plan.ts";
import { SyncResult, TradierAccountBody, TradierConnectBody, TradierConnectionState } from "./broker-sync.ts";

/** docs/product.md#calls: every call the app makes to the provider, with its request and response. */

/** `{identity-provider}` of `POST /auth/{identity-provider}-login`. */
const IDENTITY_PROVIDER = "google";
/** `{finance-provider}` of `GET /api/{finance-provider}-company-name`. */
const FINANCE_PROVIDER = "yfinance";

/** Header carrying a client-chosen key so a replayed mutation is applied once (offline queue). */
export { IDEMPOTENCY_HEADER } from "./headers.ts";

const UserIdParams = z.object({ userId: z.coerce.number().pipe(Id) });
const IdParams = z.object({ id: z.coerce.number().pipe(Id) });
const TickerParams = z.object({ ticker: Ticker });
const SymbolParams = z.object({ symbol: Ticker });
const Message = z.object({ message: z.string() });
const Ok = z.object({ ok: z.literal(true) });

// ── Authentication ────────────────────────────────────────────────────────────

const TokenResponse = z.object({
  access_token: z.string().optional(),
  token_type: z.string().optional(),
});

export const login = endpoint({
  method: "POST",
  path: "/auth/token",
  auth: "public",
  bodyEncoding: "form",
  body: z.object({
    username: z.string().trim().min(1, "Username is required").max(254),
    password: z.string().min(1, "Password is required").max(1024),
  }),
  response: TokenResponse,
});

export const googleLogin = endpoint({
  method: "POST",
  path: `/auth/${IDENTITY_PROVIDER}-login`,
  auth: "public",
  body: z.object({ firebase_token: z.string().min(1).max(8192) }),
  response: TokenResponse,
});

const RegistrationPayload = z.object({
  email: Email,
  username: Username,
  password: NewPassword,
  first_name: z.string().trim().min(1, "First name is required").max(100),
  last_name: z.string().trim().min(1, "Last name is required").max(100),
});
export const register = endpoint({
  method: "POST",
  path: "/auth/register",
  auth: "public",
  body: RegistrationPayload,
  response: Message,
});

export const forgotPassword = endpoint({
  method: "POST",
  path: "/auth/forgot-password",
  auth: "public",
  body: z.object({ email: Email }),
  response: Message,
});

export const resetPassword = endpoint({
  method: "POST",
  path: "/auth/reset-password",
  auth: "public",
  body: z.object({ token: z.string().min(1).max(512), password: NewPassword }),
  response: Message,
});

/** One message of the mail outbox (mail waiting for delivery when no SMTP server is set). */
const MailOutboxItem = z.object({
  id: Id,
  to_address: z.string(),
  subject: z.string(),
  body_text: z.string(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
/** An addition (docs/product.md#additions-calls): admins read the outbox (newest first) to deliver mail by hand when no SMTP server is set. */
export const mailOutbox = endpoint({
  method: "GET",
  path: "/api/admin/mail-outbox",
  query: z.object({
    to: z.string().trim().toLowerCase().optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  }),
  response: z.array(MailOutboxItem),
});

export const me = endpoint({ method: "GET", path: "/auth/users/me", response: CurrentUser });

/** Sign-out: the caller's token is refused from now on (other sessions of the user go on). */
export const logout = endpoint({ method: "POST", path: "/auth/logout", response: z.object({ ok: z.literal(true) }) });

export const permissions = endpoint({
  method: "GET",
  path: "/api/user/:userId/permissions",
  params: UserIdParams,
  response: z.array(Permission),
});

// ── Stocks ────────────────────────────────────────────────────────────────────

export const listUserStocks = endpoint({
  method: "GET",
  path: "/api/user-stocks/:userId",
  params: UserIdParams,
  response: z.array(UserStock),
});

export const listUipStocks = endpoint({ method: "GET", path: "/api/uip-stocks", response: z.array(UipStock) });

export const listCategories = endpoint({ method: "GET", path: "/api/categories", response: z.array(Category) });

const OrderItem = z.object({
  id: Id,
  sort_order: z.number().int().min(0).max(1_000_000),
  active: z.literal(1),
});
const Order = z.array(OrderItem).max(10_000);

export const reorderUipStocks = endpoint({
  method: "PUT",
  path: "/api/uip-stocks",
  body: Order,
  response: Message,
});

export const reorderUserStocks = endpoint({
  method: "PUT",
  path: "/api/user-stocks/:userId",
  params: UserIdParams,
  body: Order,
  response: Message,
});

export const deleteUipStock = endpoint({
  method: "DELETE",
  path: "/api/uip-stock/:id",
  params: IdParams,
  response: Message,
});

export const deleteUserStock = endpoint({
  method: "DELETE",
  path: "/api/user-stock/:id",
  params: IdParams,
  response: Message,
});

export const IntrinsicValues = z.object({
  base_iv: Price,
  conservative_iv: Price,
  buy_level_one: Price,
  buy_level_two: Price,
  buy_level_three: Price,
  buy_level_four: Price,
});

const NewStock = z.object({
  ticker: Ticker,
  name: z.string().trim().max(200),
  current_price: z
    .number()
    .min(0)
    .max(Price.maxValue ?? Infinity),
});

export const createUserStock = endpoint({
  method: "POST",
  path: "/api/user-stock/:userId",
  params: UserIdParams,
  body: IntrinsicValues.extend({ stock: NewStock }),
  response: UserStock,
});

export const createUipStock = endpoint({
  method: "POST",
  path: "/api/uip-stock",
  body: IntrinsicValues.extend({ category_id: Id, stock: NewStock }),
  response: UipStock,
});

/** average_iv is accepted for compatibility but the provider computes it. */
const EditValues = IntrinsicValues.extend({
  sort_order: z.number().int().min(0).max(1_000_000).optional(),
  average_iv: Price.optional(),
});

export const updateUipStock = endpoint({
  method: "PUT",
  path: "/api/uip-stock/:id",
  params: IdParams,
  body: EditValues.extend({ category_id: Id }),
  response: UipStock,
});

export const updateUserStock = endpoint({
  method: "PUT",
  path: "/api/user-stock/:id",
  params: IdParams,
  body: z.union([z.object({ generate_recommendation: z.boolean() }).strict(), EditValues]),
  response: UserStock,
});

/** The bell on a UIP row: price alerts for this stock (an addition, docs/product.md#additions-calls). */
export const setUipPriceAlert = endpoint({
  method: "PUT",
  path: "/api/uip-stock/:id/price-alert",
  params: IdParams,
  body: z.object({ enabled: z.boolean() }),
  response: z.object({ price_alert: z.boolean(), ticker: Ticker }),
});

export const companyName = endpoint({
  method: "GET",
  path: `/api/${FINANCE_PROVIDER}-company-name`,
  query: z.object({ ticker: Ticker }),
  response: z.union([z.string(), z.object({ company_name: z.string() })]),
});

/** Daily price history for a row's chart (an addition, docs/product.md#additions-calls). */
export const stockHistory = endpoint({
  method: "GET",
  path: "/api/stock-history/:ticker",
  params: TickerParams,
  query: z.object({ days: z.coerce.number().int().min(5).max(1830).default(365) }),
  response: z.array(DailyBar),
});

export const stockAnalysis = endpoint({
  method: "POST",
  path: "/api/gen-ai-stock-analysis",
  body: z.object({ ticker: Ticker }),
  response: "text-stream",
});

// ── Recommendations ───────────────────────────────────────────────────────────

/**
 * A view's filters in the query (an addition, docs/product.md#additions-calls): any left out are the reader's saved ones, else
 * the defaults. Booleans as 1/0, as a GET form sends them.
 */
const Bit = z.enum(["1", "0"]).transform((v) => v === "1");
const filterQueryNumber = (field: NumericFilter) =>
  z.coerce.number({ error: `'${FILTER_LABELS[field]}' must be a number.` }).optional();
export const TraderFilterQuery = z.object({
  at_or_below_conservative: Bit.optional(),
  delta_min: filterQueryNumber("delta_min"),
  delta_max: filterQueryNumber("delta_max"),
  dte_min: filterQueryNumber("dte_min"),
  dte_max: filterQueryNumber("dte_max"),
  min_bid: filterQueryNumber("min_bid"),
  min_open_interest: filterQueryNumber("min_open_interest"),
  max_spread: filterQueryNumber("max_spread"),
  skip_earnings: Bit.optional(),
  commission: filterQueryNumber("commission"),
});
export type TraderFilterQuery = z.infer<typeof TraderFilterQuery>;

/** The stock's puts this reader's filters let through, ranked for them (ADR 0022). */
export const tradeRecommendations = endpoint({
  method: "GET",
  path: "/api/biz-trade-recommendations/:symbol",
  params: SymbolParams,
  // all=1: every put the filters let through, not only the best three of each expiry; the rest
  // come after them with rank 0 (issue 46: a wider |delta| range must surface what it admits).
  query: TraderFilterQuery.extend({ all: z.literal("1").optional() }),
  response: z.array(TradeRecommendation),
});

/** The caller's saved recommendation filters (the defaults until they save their own). */
export const traderFilters = endpoint({
  method: "GET",
  path: "/api/trader-filters",
  response: TraderFilters,
});

export const saveTraderFilters = endpoint({
  method: "PUT",
  path: "/api/trader-filters",
  body: TraderFilters,
  response: TraderFilters,
});

/** The caller's alert thresholds for open short puts (the defaults until they save their own; ADR 0034). */
export const alertSettings = endpoint({
  method: "GET",
  path: "/api/alert-settings",
  response: AlertSettings,
});

export const saveAlertSettings = endpoint({
  method: "PUT",
  path: "/api/alert-settings",
  body: AlertSettings,
  response: AlertSettings,
});

/**
 * One recommendation by id, active or retired (an addition, docs/product.md#additions-calls: the option detail has its own URL,
 * /recommendation/{id}, which a link or a notification may open after a newer run replaced it).
 */
export const tradeRecommendation = endpoint({
  method: "GET",
  path: "/api/biz-trade-recommendation/:id",
  params: IdParams,
  response: TradeRecommendation,
});

export const topLineRecommendations = endpoint({
  method: "GET",
  path: "/api/biz-trade-recommendations-top-line",
  query: TraderFilterQuery,
  response: z.array(TopLineRecommendation),
});

/** The most cards one page of the top line asks for (ADR 0102: /insights shows 25 and adds 25 a tap). */
export const TOP_LINE_LIMIT_MAX = 10_000;

/**
 * A page of the top line, in its order (by ticker), for /insights (ADR 0102): `limit` cards from
 * `offset` of the stocks whose name or ticker contains `q` (case-insensitive), or only `ticker`'s;
 * `total` is how many stocks match. Without a limit, every one.
 */
export const topLineRecommendationsPage = endpoint({
  method: "GET",
  path: "/api/biz-trade-recommendations-top-line-page",
  query: TraderFilterQuery.extend({
    limit: z.coerce.number().int().min(1).max(TOP_LINE_LIMIT_MAX).optional(),
    offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
    q: z.string().trim().max(100).optional(),
    ticker: Ticker.optional(),
  }),
  response: z.object({
    items: z.array(TopLineRecommendation),
    total: z.number().int().min(0),
  }),
});

export const generateRecommendations = endpoint({
  method: "POST",
  path: "/api/biz-generate-trade-recommendations/:ticker",
  params: TickerParams,
  response: Message,
});

/** The recommendation with snake_case fields, fractions for percentages. */
export const SummarizeBody = TradeRecommendation.partial().extend({
  option_identifier: z.string().min(1).max(40),
  strike_price: z
    .number()
    .positive()
    .max(Price.maxValue ?? Infinity),
  expiration_date: TradeRecommendation.shape.expiration_date,
  current_stock_price: z.number().positive(),
  current_option_price: z.number().min(0),
});
export const summarizeRecommendation = endpoint({
  method: "POST",
  path: "/api/summarize-trade-recommendation",
  body: SummarizeBody,
  response: "text-stream",
});

// ── Track record ──────────────────────────────────────────────────────────────

/** How past recommendations turned out (an addition, docs/product.md#additions-calls; public: it holds no one's data). */
export const trackRecord = endpoint({
  method: "GET",
  path: "/api/track-record",
  auth: "public",
  response: TrackRecord,
});

/** The landing page's statistics, measured by the app (an addition, docs/product.md#additions-calls; public, cached briefly). */
export const landingStats = endpoint({
  method: "GET",
  path: "/api/landing-stats",
  auth: "public",
  response: LandingStats,
});

// ── Devices and notifications ─────────────────────────────────────────────────

export const registerDevice = endpoint({
  method: "POST",
  path: "/api/user-device/:userId",
  params: UserIdParams,
  body: UserDevice,
  response: UserDevice,
});

export const getDevice = endpoint({
  method: "GET",
  path: "/api/user-devices/:userId/:fcmToken",
  params: UserIdParams.extend({ fcmToken: z.string().min(1).max(4096) }),
  response: UserDevice,
});

/** The provider's public VAPID key for Web Push subscriptions (an addition, docs/product.md#additions-calls). */
export const pushPublicKey = endpoint({
  method: "GET",
  path: "/api/push/public-key",
  auth: "public",
  response: z.object({ public_key: z.string() }),
});

export const listNotifications = endpoint({
  method: "GET",
  path: "/api/user-notifications/:userId",
  params: UserIdParams,
  response: z.array(NotificationItem),
});

export const markNotificationRead = endpoint({
  method: "PATCH",
  path: "/api/user-notifications/:id/mark-read",
  params: IdParams,
  response: Message,
});

export const markAllNotificationsRead = endpoint({
  method: "PATCH",
  path: "/api/user-notifications/:userId/mark-all-read",
  params: UserIdParams,
  response: Message,
});

export const clearAllNotifications = endpoint({
  method: "DELETE",
  path: "/api/user-notifications/:userId/clear-all",
  params: UserIdParams,
  response: Message,
});

export const unreadCount = endpoint({
  method: "GET",
  path: "/api/user-notifications/:userId/unread-count",
  params: UserIdParams,
  response: z.object({ unread_count: z.number().int().min(0) }),
});

/** An admin sends a notification (stored, and pushed to opted-in devices) to users (an addition, docs/product.md#additions-calls). */
export const sendNotification = endpoint({
  method: "POST",
  path: "/api/admin/notifications",
  body: z.object({
    user_ids: z.array(Id).min(1).max(10_000),
    type: z.string().trim().min(1).max(40),
    title: z.string().trim().min(1, "Title is required").max(200),
    body: z.string().trim().min(1, "Body is required").max(1000),
    /** A same-origin path the notification opens, e.g. /insights. */
    url: z.string().max(500).refine(isSitePath, "url must be a path of this app, e.g. /insights").nullable().optional(),
  }),
  response: z.object({
    notification_id: Id.nullable(),
    recipients: z.number().int().min(0),
    sent: z.number().int().min(0),
    removed: z.number().int().min(0),
    failed: z.number().int().min(0),
  }),
});

// ── Backend config ────────────────────────────────────────────────────────────

export const getConfig = endpoint({
  method: "GET",
  path: "/api/backend-config/:key",
  params: z.object({ key: ConfigKey }),
  response: z.object({ key: ConfigKey, value: ConfigValue }),
});

export const setConfig = endpoint({
  method: "PATCH",
  path: "/api/backend-config/:key",
  params: z.object({ key: ConfigKey }),
  body: z.object({ value: z.enum(["1", "0"]) }),
  response: z.object({ key: ConfigKey, value: ConfigValue }),
});

// ── Operations ────────────────────────────────────────────────────────────────

/**
 * The market beside the Live dot (an addition, docs/product.md#states-market): open, the demo market
 * replaying a session, or closed until the next open. Public: the exchange's hours are no one's data.
 */
export const marketStatus = endpoint({
  method: "GET",
  path: "/api/market-status",
  auth: "public",
  response: MarketStatus,
});

export const health = endpoint({
  method: "GET",
  path: "/healthz",
  auth: "public",
  response: z.object({ status: z.enum(["ok", "degraded"]), database: z.enum(["ok", "down"]) }),
});

// ── The wheel journal ─────────────────────────────────────────────────────────
// Each call reaches only the caller's own trades; another user's trade answers 404.

export const listTrades = endpoint({ method: "GET", path: "/api/trades", response: z.array(Trade) });

export const addTrade = endpoint({ method: "POST", path: "/api/trades", body: TradeInput, response: Trade });

export const getTrade = endpoint({ method: "GET", path: "/api/trades/:id", params: IdParams, response: Trade });

export const deleteTrade = endpoint({ method: "DELETE", path: "/api/trades/:id", params: IdParams, response: Ok });

/** A roll: the buy-to-close and the sell-to-open it rolls into, stored together and linked. */
export const rollTrade = endpoint({
  method: "POST",
  path: "/api/trade-rolls",
  body: z.object({ close: TradeInput, open: TradeInput }),
  response: z.object({ close: Trade, open: Trade }),
});

/**
 * Trades with their realised P/L, open positions at the mark, wheel cycles and figures; `from` limits rows and
 * period figures. `position_alerts`: the alerts sent per open option (ADR 0034).
 */
export const getJournal = endpoint({
  method: "GET",
  path: "/api/journal",
  query: z.object({ from: Timestamp.optional() }),
  response: Journal.extend({ position_alerts: PositionAlertsByOption }),
});

/** The journal as CSV (text/csv). */
export const exportTrades = endpoint({ method: "GET", path: "/api/trades-export", response: "text-stream" });

/** Broker CSV, under 1 MB (the router's body limit). */
const ImportBody = z.object({
  broker: Broker,
  csv: z.string().min(1, "The file is empty").max(1_000_000, "The file is larger than 1 MB"),
  /** Prices of the preview's opening positions, by their key: cost a share, or premium a share (ADR 0074). */
  openings: z
    .record(
      z.string().max(100),
      z
        .number()
        .min(0, "An opening price must be at least 0")
        .max(9_999_999, "An opening price must be at most 9,999,999"),
    )
    .refine((o) => Object.keys(o).length <= 200, "At most 200 opening positions")
    .optional(),
});

export const previewImport = endpoint({
  method: "POST",
  path: "/api/trade-imports/preview",
  body: ImportBody,
  response: ImportPreview,
});

/** Adds the lines the preview lists as added, all in one transaction; lines imported before are skipped. */
export const importTrades = endpoint({
  method: "POST",
  path: "/api/trade-imports",
  body: ImportBody,
  response: ImportPreview,
});

/**
 * The journal's open positions beside a broker snapshot's (the latest, or `source`'s), with every
 * difference and its fix (docs/decisions/0094). The caller's own snapshots only: 404 for a source
 * the caller has none of.
 */
export const reconciliation = endpoint({
  method: "GET",
  path: "/api/reconciliation",
  query: ReconciliationQuery,
  response: Reconciliation,
});

/**
 * Records one difference's fix as a journal trade, through the journal's checks (422 with the
 * reason); 409 when the snapshot or the difference is no longer as the page showed it.
 */
export const fixReconciliation = endpoint({
  method: "POST",
  path: "/api/reconciliation/fixes",
  body: ReconcileFixBody,
  response: Trade,
});

/**
 * Roll candidates of the open short put that trade `tradeId` opened (docs/decisions/0036): its
 * owner only (404 for anyone else); 422 for a trade that is not a short put, 409 once it is closed.
 */
export const rollCandidates = endpoint({
  method: "GET",
  path: "/api/positions/:tradeId/roll-candidates",
  params: RollCandidatesParams,
  response: RollCandidates,
});

// ── Covered calls ─────────────────────────────────────────────────────────────

/**
 * The calls the caller can sell against the shares their journal holds, per holding and expiry,
 * through their call filters (the query's, else their saved ones; docs/decisions/0079).
 */
export const coveredCalls = endpoint({
  method: "GET",
  path: "/api/covered-calls",
  query: CallFilterQuery,
  response: CoveredCalls,
});

/** The caller's saved covered-call filters (the defaults until they save their own). */
export const callFilters = endpoint({ method: "GET", path: "/api/call-filters", response: CallFilters });

export const saveCallFilters = endpoint({
  method: "PUT",
  path: "/api/call-filters",
  body: CallFilters,
  response: CallFilters,
});

// ── The book: capital settings, the plan, fits and best puts (issue 42, ADR 0081) ──

/** The caller's capital settings (the defaults, capital not set, until they save their own). */
export const capitalSettings = endpoint({
  method: "GET",
  path: "/api/capital-settings",
  response: CapitalSettings,
});

export const saveCapitalSettings = endpoint({
  method: "PUT",
  path: "/api/capital-settings",
  body: CapitalSettings,
  response: CapitalSettings,
});

/** The caller's plan: committed collateral, free cash, the book if every open put were assigned, scenarios. */
export const plan = endpoint({
  method: "GET",
  path: "/api/plan",
  query: PlanQuery,
  response: Plan,
});

/** Whether each of these recommended puts fits the caller's free cash and limits, and how many contracts. */
export const planFits = endpoint({
  method: "GET",
  path: "/api/plan/fits",
  query: PlanFitsQuery,
  response: PlanFits,
});

/** The top puts over the caller's flagged stocks that fit their plan, one contract each, with the cash used. */
export const bestPuts = endpoint({
  method: "GET",
  path: "/api/plan/best-puts",
  response: BestPuts,
});

/** The caller's own sector for a ticker; an empty one goes back to the market source's. */
export const saveSectorOverride = endpoint({
  method: "PUT",
  path: "/api/plan/sectors/:ticker",
  params: TickerParams,
  body: SectorOverride,
  response: z.object({ ticker: z.string(), sector: z.string().nullable() }),
});

/**
 * The caller's Tradier connection (issue 43, docs/decisions/0075-broker-tokens-encrypted-at-rest.md):
 * the account shown as ••••1234, the last sync; never the token.
 */
export const tradierConnection = endpoint({
  method: "GET",
  path: "/api/broker/tradier",
  response: TradierConnectionState,
});

/**
 * Connects the caller's Tradier account with an access token: Tradier is asked for the token's
 * profile first (a refused token is a 422 and nothing is stored), then the token is stored encrypted.
 * A profile with one account takes it; with several, the trader picks one (tradierAccount).
 */
export const connectTradier = endpoint({
  method: "PUT",
  path: "/api/broker/tradier",
  body: TradierConnectBody,
  response: TradierConnectionState,
});

/** Picks which of the token's accounts the sync reads (one the profile listed; 422 otherwise). */
export const tradierAccount = endpoint({
  method: "PUT",
  path: "/api/broker/tradier/account",
  body: TradierAccountBody,
  response: TradierConnectionState,
});

/**
 * Imports the account's new history into the journal now, through the broker-file import's checks
 * (docs/decisions/0093-tradier-sync-through-the-import.md), and saves its positions as the "tradier"
 * snapshot. 409 while another sync of the caller runs or before an account is chosen; Tradier's
 * refusals and outages are a 4xx/5xx with a sentence naming them.
 */
export const syncTradier = endpoint({
  method: "POST",
  path: "/api/broker/tradier/sync",
  response: SyncResult,
});

/** Removes the connection: the stored token is deleted, with Tradier's snapshot. The journal keeps its trades. */
export const disconnectTradier = endpoint({
  method: "DELETE",
  path: "/api/broker/tradier",
  response: TradierConnectionState,
});
