import * as calls from "#contract/calls.ts";
import { saveBrokerSnapshot } from "#provider/broker/snapshot-store.ts";
import type { Endpoint } from "#contract/endpoint.ts";
import { SAMPLE_LEVELS, testProvider, type TestProvider } from "./provider.ts";
import { levelFlags, type ReferenceLevels } from "#provider/recommend/engine.ts";
import { LEVEL_COLUMNS } from "#provider/recommend/levels.ts";
import { dayNumberOf, isoDateOf, previousTradingDay } from "#provider/market/calendar.ts";
import { FAKE_TRADIER_ACCOUNT, FAKE_TRADIER_TOKEN, startTradierFake } from "#provider/market/testing/tradier-fake.ts";

/**
 * For the quality-gate suites (authorization matrix, bad-input fuzzing): a provider with two
 * fresh traders, A and B, and the demo admin; A owns private data (watchlist row, device,
 * notification, a bell) whose values must never reach B, nor what they imply (a recommendation's
 * buy_level and below_conservative_iv against A's levels: flagLeaks); and a valid request for every call
 * of contract/calls.ts, built fresh each time (a delete finds something to delete).
 */
export interface Person {
  id: number;
  token: string;
  username: string;
  password: string;
}

export interface Input {
  params?: Record<string, string | number>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface World {
  provider: TestProvider;
  a: Person;
  b: Person;
  admin: Person;
  /** A's values no response to B or to an anonymous caller may contain. */
  secrets: string[];
  /** A's watchlist row (JPM, flagged for recommendations) with the private levels. */
  aStockId: number;
  /** A's device token. */
  aDeviceToken: string;
  /** A unique suffix for names. */
  unique(): string;
  /** A fresh client address, so per-IP limits of the public calls never interfere. */
  ip(): Record<string, string>;
}

/**
 * A's levels: just under the price, so the set A generates has strikes at or below them (the
 * flags A sees differ from the ones anyone else may see), with distinctive decimals that cannot
 * appear by chance in market data.
 */
function aLevelsNear(spot: number) {
  const at = (fraction: number, decimals: number) => Math.floor(spot * fraction) + decimals;
  return {
    base_iv: at(1.05, 0.3719),
    conservative_iv: at(0.995, 0.1947),
    buy_level_one: at(0.985, 0.7113),
    buy_level_two: at(0.97, 0.5331),
    buy_level_three: at(0.955, 0.2917),
    buy_level_four: at(0.94, 0.1759),
  };
}
export const A_TICKER = "JPM";
export const A_BELL_TICKER = "KO";

let counter = 0;

export async function createWorld(): Promise<World> {
  // The broker calls reach a local fake of Tradier's account API, never the internet (ADR 0093).
  const tradier = await startTradierFake();
  const provider = await testProvider({ tradierBrokerageUrl: tradier.baseUrl });
  const closeProvider = provider.close.bind(provider);
  provider.close = async () => {
    await closeProvider();
    await tradier.close();
  };
  const run = Math.random().toString(36).slice(2, 8);
  const unique = () => `${run}${++counter}`;
  let ipCounter = 0;
  const ip = () => ({ "x-forwarded-for": `203.0.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}` });

  async function person(username: string, extra: { email?: string; first?: string; last?: string } = {}) {
    const password = "Matrix-passw0rd";
    const res = await provider.call(calls.register, {
      headers: ip(),
      body: {
        email: extra.email ?? `${username}@example.test`,
        username,
        password,
        first_name: extra.first ?? "Bob",
        last_name: extra.last ?? "Other",
      },
    });
    if (res.status !== 200) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    const token = await provider.login(username, password);
    const me = await provider.call(calls.me, { token });
    return { id: me.body.id as number, token, username, password };
  }

  const aEmail = `alicia.${run}@private.example.test`;
  const a = await person(`alicia_${run}`, { email: aEmail, first: "Alicia", last: "Privatova" });
  const b = await person(`bob_${run}`);
  const adminToken = await provider.login("admin", "admin1234");
  const adminMe = await provider.call(calls.me, { token: adminToken });
  const admin = { id: adminMe.body.id as number, token: adminToken, username: "admin", password: "admin1234" };

  const aLevels = aLevelsNear((await provider.context.market.optionChain(A_TICKER)).spot);
  const stock = await provider.call(calls.createUserStock, {
    token: a.token,
    params: { userId: a.id },
    body: { ...aLevels, stock: { ticker: A_TICKER, name: "", current_price: 0 } },
  });
  if (stock.status !== 200) throw new Error(`A's stock: ${stock.status} ${JSON.stringify(stock.body)}`);
  const aStockId = stock.body.id as number;
  await provider.call(calls.updateUserStock, {
    token: a.token,
    params: { id: aStockId },
    body: { generate_recommendation: true },
  });

  // A generates a set for the flagged ticker: recommendations exist to read.
  await provider.call(calls.generateRecommendations, { token: a.token, params: { ticker: A_TICKER } });

  const aDeviceToken = `alicia-device-${run}-7f3c9a`;
  await provider.call(calls.registerDevice, {
    token: a.token,
    params: { userId: a.id },
    body: device(aDeviceToken),
  });
  const noticeTitle = `Alicia's private notice ${run}`;
  await provider.call(calls.sendNotification, {
    token: admin.token,
    body: { user_ids: [a.id], type: "trade", title: noticeTitle, body: "Only for Alicia." },
  });
  // A's bell sits on a row no valid request of another caller touches.
  const bellRow = await provider.context.db
    .selectFrom("uip_stocks as u")
    .innerJoin("stocks as s", "s.id", "u.stock_id")
    .select("u.id")
    .where("s.ticker", "=", A_BELL_TICKER)
    .executeTakeFirstOrThrow();
  await provider.call(calls.setUipPriceAlert, {
    token: a.token,
    params: { id: bellRow.id },
    body: { enabled: true },
  });

  // A's journal: one trade whose note only A may read.
  await provider.call(calls.addTrade, { token: a.token, body: { ...A_TRADE, notes: A_TRADE_NOTE } });

  const secrets = [
    A_TRADE_NOTE,
    aEmail,
    "Privatova",
    noticeTitle,
    aDeviceToken,
    ...Object.values(aLevels).map(String),
    // average_iv, computed by the database
    String((aLevels.base_iv + aLevels.conservative_iv) / 2),
  ];
  return { provider, a, b, admin, secrets, aStockId, aDeviceToken, unique, ip };
}

/**
 * Recommendation rows in a response to someone without a watchlist (B, or anyone anonymous) whose
 * buy_level or below_conservative_iv is not what the shared UIP row of the stock gives (none
 * without one): such flags come from some user's private levels, such as A's, which ranked the set.
 */
export async function flagLeaks(w: World, body: unknown): Promise<string[]> {
  type Row = { stock_id: number; option_identifier: string; strike_price: number; buy_level: unknown };
  const rows: (Row & { below_conservative_iv: unknown })[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === "object") {
      if ("option_identifier" in value && "buy_level" in value && "below_conservative_iv" in value) {
        rows.push(value as never);
      }
      Object.values(value).forEach(walk);
    }
  };
  walk(body);
  if (rows.length === 0) return [];
  const uip = await w.provider.context.db
    .selectFrom("uip_stocks")
    .select(["stock_id", ...LEVEL_COLUMNS])
    .where(
      "stock_id",
      "in",
      rows.map((r) => r.stock_id),
    )
    .execute();
  const levelsOf = new Map<number, ReferenceLevels>(uip.map((u) => [u.stock_id, u]));
  const leaks: string[] = [];
  for (const r of rows) {
    const levels = levelsOf.get(r.stock_id);
    const expected = levels ? levelFlags(r.strike_price, levels) : { buyLevel: null, belowConservativeIv: false };
    if (r.buy_level !== expected.buyLevel || r.below_conservative_iv !== expected.belowConservativeIv) {
      leaks.push(
        `${r.option_identifier} flagged buy_level ${String(r.buy_level)}, below_conservative_iv ` +
          `${String(r.below_conservative_iv)} (shared levels give ${expected.buyLevel}, ${expected.belowConservativeIv})`,
      );
    }
  }
  return leaks;
}

export function device(token: string) {
  return {
    device_type: "web" as const,
    fcm_token: token,
    browser: "Chrome",
    os: "Android",
    ip_address: "Unknown",
    user_agent: "Mozilla/5.0 (Linux; Android 14) Matrix",
    app_version: "1.0.0",
    // Opted out: notifications are stored but no push is attempted (none could be delivered here).
    notification_opt_in: "0" as const,
  };
}

/** The id of the UIP row of a ticker, inserted when missing. */
async function uipRowOf(w: World, ticker: string): Promise<number> {
  const db = w.provider.context.db;
  const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", ticker).executeTakeFirstOrThrow();
  const found = await db.selectFrom("uip_stocks").select("id").where("stock_id", "=", stock.id).executeTakeFirst();
  if (found) return found.id;
  const category = await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  const row = await db
    .insertInto("uip_stocks")
    .values({ stock_id: stock.id, category_id: category.id, sort_order: 1000, ...SAMPLE_LEVELS })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The id of A's watchlist row of a ticker, inserted when missing. */
async function aRowOf(w: World, ticker: string): Promise<number> {
  const db = w.provider.context.db;
  const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", ticker).executeTakeFirstOrThrow();
  const found = await db
    .selectFrom("user_stocks")
    .select("id")
    .where("stock_id", "=", stock.id)
    .where("user_id", "=", w.a.id)
    .executeTakeFirst();
  if (found) return found.id;
  const row = await db
    .insertInto("user_stocks")
    .values({ user_id: w.a.id, stock_id: stock.id, sort_order: 1000, ...SAMPLE_LEVELS })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function withoutUipRow(w: World, ticker: string): Promise<void> {
  const db = w.provider.context.db;
  const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", ticker).executeTakeFirst();
  if (stock) await db.deleteFrom("uip_stocks").where("stock_id", "=", stock.id).execute();
}

async function withoutARow(w: World, ticker: string): Promise<void> {
  const db = w.provider.context.db;
  const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", ticker).executeTakeFirst();
  if (stock) {
    await db.deleteFrom("user_stocks").where("stock_id", "=", stock.id).where("user_id", "=", w.a.id).execute();
  }
}

/** A fresh notification for A; the id of A's copy. */
async function aNotification(w: World): Promise<number> {
  const sent = await w.provider.call(calls.sendNotification, {
    token: w.admin.token,
    body: { user_ids: [w.a.id], type: "system", title: "For Alicia", body: "Matrix notice" },
  });
  const row = await w.provider.context.db
    .selectFrom("user_notifications")
    .select("id")
    .where("user_id", "=", w.a.id)
    .where("notification_id", "=", sent.body.notification_id)
    .executeTakeFirstOrThrow();
  return row.id;
}

type Builder = (w: World) => Promise<Input>;

const A_TRADE_NOTE = "A-private-journal-note";
const A_TRADE = {
  kind: "stock_buy",
  ticker: "KO",
  quantity: 10,
  price: 60,
  fees: 1,
  traded_at: "2026-01-05T15:00:00Z",
};

async function aTrade(w: World): Promise<number> {
  const res = await w.provider.call(calls.addTrade, { token: w.a.token, body: A_TRADE });
  return res.body.id as number;
}
/** A sells a listed KO put near the money (the market's own chain), so it has roll candidates to read. */
async function aSoldPut(w: World): Promise<number> {
  const chain = await w.provider.context.market.optionChain("KO");
  const expiry = chain.expirations[0]!;
  const option = expiry.options
    .filter((o) => o.type === "put")
    .sort((x, y) => Math.abs(x.strike - chain.spot) - Math.abs(y.strike - chain.spot))[0]!;
  const res = await w.provider.call(calls.addTrade, {
    token: w.a.token,
    body: {
      kind: "sell_to_open",
      ticker: "KO",
      option_type: "put",
      strike: option.strike,
      expiry: expiry.expiration,
      quantity: 1,
      price: Math.max(option.bid, 0.05),
      fees: 0.65,
      traded_at: new Date(Date.now() - 60_000).toISOString(),
    },
  });
  return res.body.id as number;
}
/** A's broker book with 10 T shares the journal lacks: the body of the fix that adds them. */
async function aBrokerDifference(w: World) {
  const as_of = new Date(Date.now() - 3_600_000).toISOString();
  await saveBrokerSnapshot(w.provider.context.db, w.a.id, {
    source: "ofx",
    as_of,
    positions: [
      { ticker: "T", kind: "shares", option_type: null, strike: null, expiry: null, quantity: 10, cost_basis: 20 },
    ],
  });
  return { source: "ofx", as_of, key: "T|shares", action: "add", quantity: 10 };
}
const IBKR_FILE = [
  "Trades,Header,DataDiscriminator,Asset Category,Currency,Symbol,Date/Time,Quantity,T. Price,C. Price,Proceeds,Comm/Fee,Basis,Realized P/L,MTM P/L,Code",
  'Trades,Data,Order,Stocks,USD,KO,"2026-01-06, 10:00:00",5,60,60,-300,-1,301,0,0,O',
].join("\n");

/**
 * A valid request for each call, acting on A's resources where the call has an owner.
 * Keyed by the export name in contract/calls.ts.
 */
export const validRequests: Record<string, Builder> = {
  login: async (w) => ({ body: { username: w.a.username, password: w.a.password }, headers: w.ip() }),
  googleLogin: async (w) => ({ body: { firebase_token: "not-a-google-token" }, headers: w.ip() }),
  register: async (w) => {
    const name = `new_${w.unique()}`;
    return {
      headers: w.ip(),
      body: {
        email: `${name}@example.test`,
        username: name,
        password: "Passw0rd-new",
        first_name: "N",
        last_name: "U",
      },
    };
  },
  forgotPassword: async (w) => ({ body: { email: `nobody_${w.unique()}@example.test` }, headers: w.ip() }),
  resetPassword: async (w) => {
    const name = `reset_${w.unique()}`;
    const email = `${name}@example.test`;
    await w.provider.call(calls.register, {
      headers: w.ip(),
      body: { email, username: name, password: "Passw0rd-old", first_name: "R", last_name: "S" },
    });
    await w.provider.call(calls.forgotPassword, { body: { email }, headers: w.ip() });
    const mail = await w.provider.context.db
      .selectFrom("mail_outbox")
      .select("body_text")
      .where("to_address", "=", email)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const token = decodeURIComponent(/token=(\S+)/.exec(mail.body_text)![1]!);
    return { body: { token, password: "Passw0rd-new1" }, headers: w.ip() };
  },
  mailOutbox: async () => ({ query: { limit: "5" } }),
  me: async () => ({}),
  permissions: async (w) => ({ params: { userId: w.a.id } }),
  listUserStocks: async (w) => ({ params: { userId: w.a.id } }),
  listUipStocks: async () => ({}),
  listCategories: async () => ({}),
  reorderUipStocks: async (w) => {
    const rows = await w.provider.context.db.selectFrom("uip_stocks").select(["id", "sort_order"]).execute();
    return { body: rows.map((r) => ({ id: r.id, sort_order: r.sort_order, active: 1 })) };
  },
  reorderUserStocks: async (w) => {
    const rows = await w.provider.context.db
      .selectFrom("user_stocks")
      .select(["id", "sort_order"])
      .where("user_id", "=", w.a.id)
      .execute();
    return { params: { userId: w.a.id }, body: rows.map((r) => ({ id: r.id, sort_order: r.sort_order, active: 1 })) };
  },
  deleteUipStock: async (w) => ({ params: { id: await uipRowOf(w, "SBUX") } }),
  deleteUserStock: async (w) => ({ params: { id: await aRowOf(w, "SOFI") } }),
  createUserStock: async (w) => {
    await withoutARow(w, "CRM");
    return {
      params: { userId: w.a.id },
      body: { ...SAMPLE_LEVELS, stock: { ticker: "CRM", name: "", current_price: 0 } },
    };
  },
  createUipStock: async (w) => {
    await withoutUipRow(w, "ADBE");
    const category = await w.provider.context.db.selectFrom("categories").select("id").executeTakeFirstOrThrow();
    return {
      body: { ...SAMPLE_LEVELS, category_id: category.id, stock: { ticker: "ADBE", name: "", current_price: 0 } },
    };
  },
  updateUipStock: async (w) => {
    const id = await uipRowOf(w, "MSFT");
    const row = await w.provider.context.db
      .selectFrom("uip_stocks")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    return {
      params: { id },
      body: {
        category_id: row.category_id,
        base_iv: row.base_iv,
        conservative_iv: row.conservative_iv,
        buy_level_one: row.buy_level_one,
        buy_level_two: row.buy_level_two,
        buy_level_three: row.buy_level_three,
        buy_level_four: row.buy_level_four,
      },
    };
  },
  updateUserStock: async (w) => ({ params: { id: w.aStockId }, body: { generate_recommendation: true } }),
  setUipPriceAlert: async (w) => ({ params: { id: await uipRowOf(w, "MSFT") }, body: { enabled: true } }),
  companyName: async () => ({ query: { ticker: "AAPL" } }),
  stockHistory: async () => ({ params: { ticker: A_TICKER }, query: { days: "30" } }),
  stockAnalysis: async () => ({ body: { ticker: A_TICKER } }),
  tradeRecommendations: async () => ({ params: { symbol: A_TICKER } }),
  tradeRecommendation: async (w) => {
    const row = await w.provider.context.db
      .selectFrom("trade_recommendations")
      .select("id")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    return { params: { id: row.id } };
  },
  topLineRecommendations: async () => ({}),
  topLineRecommendationsPage: async () => ({ query: { limit: "25" } }),
  traderFilters: async () => ({}),
  saveTraderFilters: async () => ({
    body: {
      at_or_below_conservative: false,
      delta_min: 0.05,
      delta_max: 0.4,
      dte_min: 5,
      dte_max: 45,
      min_bid: 0.2,
      min_open_interest: 50,
      max_spread: 0.2,
      skip_earnings: false,
      commission: 1,
    },
  }),
  alertSettings: async () => ({}),
  saveAlertSettings: async () => ({ body: { profit_share: 0.6, strike_distance: 0.05, earnings_days: 3 } }),
  capitalSettings: async () => ({}),
  saveCapitalSettings: async () => ({
    body: { capital: 60_000, reserve_share: 0.1, ticker_limit: 0.25, sector_limit: 0.4, only_fitting: true },
  }),
  plan: async () => ({ query: { move: "-0.15" } }),
  planFits: async () => ({ query: { ids: "1,2" } }),
  bestPuts: async () => ({}),
  saveSectorOverride: async () => ({ params: { ticker: A_TICKER }, body: { sector: "Banks" } }),
  // Each caller's own Tradier connection (ADR 0075): connected, its one account picked, synced, removed.
  tradierConnection: async () => ({}),
  connectTradier: async () => ({ body: { token: FAKE_TRADIER_TOKEN } }),
  tradierAccount: async () => ({ body: { account: FAKE_TRADIER_ACCOUNT } }),
  syncTradier: async () => ({}),
  disconnectTradier: async () => ({}),
  // Each caller's own broker book beside their journal (ADR 0094): A's planted difference, fixed once.
  reconciliation: async () => ({}),
  fixReconciliation: async (w) => ({ body: await aBrokerDifference(w) }),
  generateRecommendations: async () => ({ params: { ticker: A_TICKER } }),
  summarizeRecommendation: async () => ({
    body: {
      option_identifier: "JPM261218P00200000",
      strike_price: 200,
      expiration_date: "2026-12-18",
      current_stock_price: 221.7,
      current_option_price: 2.35,
    },
  }),
  registerDevice: async (w) => ({ params: { userId: w.a.id }, body: device(w.aDeviceToken) }),
  getDevice: async (w) => ({ params: { userId: w.a.id, fcmToken: w.aDeviceToken } }),
  pushPublicKey: async () => ({}),
  listNotifications: async (w) => ({ params: { userId: w.a.id } }),
  markNotificationRead: async (w) => ({ params: { id: await aNotification(w) } }),
  markAllNotificationsRead: async (w) => ({ params: { userId: w.a.id } }),
  clearAllNotifications: async (w) => {
    await aNotification(w);
    return { params: { userId: w.a.id } };
  },
  unreadCount: async (w) => ({ params: { userId: w.a.id } }),
  sendNotification: async (w) => ({
    body: { user_ids: [w.a.id], type: "system", title: "Matrix", body: "A notice from the admin" },
  }),
  getConfig: async () => ({ params: { key: "auto_refresh_enabled" } }),
  setConfig: async () => ({ params: { key: "auto_refresh_enabled" }, body: { value: "0" } }),
  trackRecord: async () => ({}),
  landingStats: async () => ({}),
  health: async () => ({}),
  marketStatus: async () => ({}),
  listTrades: async () => ({}),
  addTrade: async () => ({ body: A_TRADE }),
  getTrade: async (w) => ({ params: { id: await aTrade(w) } }),
  deleteTrade: async (w) => ({ params: { id: await aTrade(w) } }),
  rollTrade: async (w) => {
    const put = { ticker: "KO", option_type: "put", fees: 1, quantity: 1 };
    // A month's 28th, or the trading day before it: the journal refuses a weekend or holiday expiry.
    const day = dayNumberOf(`2026-0${1 + (Number(w.unique().replace(/\D/g, "")) % 8)}-28`);
    const expiry = isoDateOf(previousTradingDay(day));
    const sold = { ...put, kind: "sell_to_open", strike: 50, expiry, price: 1, traded_at: "2026-01-02T15:00:00Z" };
    // Each caller rolls a put of their own.
    for (const who of [w.a, w.b, w.admin]) await w.provider.call(calls.addTrade, { token: who.token, body: sold });
    return {
      body: {
        close: { ...put, kind: "buy_to_close", strike: 50, expiry, price: 0.5, traded_at: "2026-01-03T15:00:00Z" },
        open: { ...put, kind: "sell_to_open", strike: 48, expiry, price: 1, traded_at: "2026-01-03T15:00:00Z" },
      },
    };
  },
  rollCandidates: async (w) => ({ params: { tradeId: await aSoldPut(w) } }),
  getJournal: async () => ({ query: { from: "2026-01-01T00:00:00Z" } }),
  exportTrades: async () => ({}),
  previewImport: async () => ({ body: { broker: "ibkr", csv: IBKR_FILE } }),
  importTrades: async () => ({ body: { broker: "ibkr", csv: IBKR_FILE } }),
  coveredCalls: async () => ({ query: { dte_max: "60" } }),
  callFilters: async () => ({}),
  saveCallFilters: async () => ({
    body: {
      at_or_above_basis: true,
      at_or_above_base_value: false,
      delta_min: 0.1,
      delta_max: 0.3,
      dte_min: 5,
      dte_max: 40,
      min_bid: 0.15,
      min_open_interest: 10,
      max_spread: 0.2,
      skip_earnings: false,
    },
  }),
};

function isEndpoint(value: unknown): value is Endpoint {
  return (
    typeof value === "object" &&
    value !== null &&
    "method" in value &&
    "path" in value &&
    "auth" in value &&
    "params" in value
  );
}

/**
 * Every endpoint exported by contract/calls.ts, by export name; but sign-out, which would end the
 * session of the token every other call in these suites uses (provider/auth/logout.test.ts).
 */
export const allEndpoints: [string, Endpoint][] = Object.entries(calls as Record<string, unknown>).filter(
  (entry): entry is [string, Endpoint] => isEndpoint(entry[1]) && entry[0] !== "logout",
);
