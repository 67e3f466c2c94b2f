import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { openDatabase, ping, type DatabaseHandle, type DatabaseOptions } from "./db/client.ts";
import { seedDemo, seedDemoRecommendations, switchOnLivePrices } from "./db/seed.ts";
import { seedDemoJournal } from "./db/demo-journal.ts";
import { createTokenService } from "./auth/tokens.ts";
import { createPasswords } from "./auth/password.ts";
import { createAuthenticator } from "./auth/callers.ts";
import { createCallerCache } from "./auth/caller-cache.ts";
import { Router } from "./http/router.ts";
import { createIdempotencyStore } from "./http/idempotency.ts";
import { json } from "./http/errors.ts";
import type { ProviderContext } from "./context.ts";
import * as calls from "#contract/calls.ts";
import { createSimulatedMarket } from "./market/simulated.ts";
import { marketStatus } from "./market/status.ts";
import { marketNow } from "./market/clock.ts";
import type { MarketData, MarketSource } from "./market/port.ts";
import { createTradierMarket } from "./market/tradier.ts";
import { DEMO_TICKERS } from "./db/demo-data.ts";
import { authRoutes } from "./routes/auth.ts";
import { userStockRoutes } from "./routes/user-stocks.ts";
import { uipStockRoutes } from "./routes/uip-stocks.ts";
import { mailOutboxRoutes } from "./routes/mail-outbox.ts";
import { deviceRoutes } from "./routes/devices.ts";
import { notificationRoutes } from "./routes/notifications.ts";
import { configRoutes } from "./routes/config.ts";
import { loadVapidKeys } from "./push/vapid.ts";
import { createPushSender } from "./push/sender.ts";
import { DEFAULT_PUSH_HOSTS } from "./push/hosts.ts";
import { createFcmSender, type FcmSettings } from "./push/fcm.ts";
import type { Agent } from "node:https";
import { createRateLimiter, DEFAULT_WORK_LIMITS, workRules, type WorkLimits } from "./auth/rate-limit.ts";
import { createMailer } from "./mail/mailer.ts";
import { createGoogleVerifier } from "./auth/google.ts";
import { recordClientIp, type ClientInfo } from "./http/client-ip.ts";
import { recommendationRoutes } from "./routes/recommendations.ts";
import { coveredCallRoutes } from "./routes/covered-calls.ts";
import { createEventBus } from "./bus/bus.ts";
import { createScheduler, type Scheduler } from "./jobs/scheduler.ts";
import { postgresLeader, singleProcessLeader } from "./jobs/leader.ts";
import { partitionedRecommendationJob, recommendationJob } from "./jobs/recommendation-job.ts";
import { partitionedPriceJob, positionAlertsJob, priceRefreshJob } from "./jobs/price-job.ts";
import { recommendContext } from "./recommend/context.ts";
import { aiRoutes } from "./routes/ai.ts";
import { tradeRoutes } from "./routes/trades.ts";
import { createExplainer } from "./ai/explainer.ts";
import type { AiSettings } from "./ai/port.ts";
import { trackRecordRoutes } from "./routes/track-record.ts";
import { alertSettingsRoutes } from "./routes/alert-settings.ts";
import { reconciliationRoutes } from "./routes/reconciliation.ts";
import { planRoutes } from "./routes/plan.ts";
import { trackRecordJob } from "./track-record/job.ts";
import { pruneRunsJob } from "./jobs/prune-job.ts";
import { EXPIRY_INTERVAL_MS, expiryResolutionJob } from "./jobs/expiry-job.ts";
import { brokerRoutes } from "./routes/broker.ts";
import { createTokenCipher, keysFromSecrets } from "./broker/token-cipher.ts";
import { TRADIER_BROKERAGE_PRODUCTION_URL } from "./broker/tradier-brokerage.ts";
import { BROKER_SYNC_INTERVAL_MS, brokerSyncJob } from "./jobs/broker-sync-job.ts";

export interface ProviderOptions extends DatabaseOptions {
  /** Token secrets, newest first; generated once and kept in the database when empty. */
  secrets?: string[] | undefined;
  tokenTtlSeconds?: number | undefined;
  seedDemo?: boolean | undefined;
  /**
   * With seedDemo: when the demo data is first loaded, switch live prices (auto_refresh_enabled) on,
   * so the demo moves with default settings (DEMO_LIVE_PRICES; off unless true; ADR 0037).
   */
  demoLivePrices?: boolean | undefined;
  /** With seedDemo: when the demo data is first loaded, generate the demo's flagged tickers once (off unless true). */
  seedRecommendations?: boolean | undefined;
  /** With seedDemo: when the demo data is first loaded, give the demo trader a wheel journal (off unless true; ADR 0079). */
  seedJournal?: boolean | undefined;
  /** Market data; the simulated market over the demo tickers when omitted. */
  market?: MarketData | undefined;
  /** Seed of the simulated market: the same seed gives the same prices. */
  marketSeed?: number | undefined;
  /** MARKET_DATA: the simulated market (default), Yahoo Finance or Tradier; ignored when `market` is given. */
  marketData?: MarketSource | undefined;
  /**
   * With MARKET_DATA=simulated: the demo market, alive at any hour, replays its latest session while
   * NYSE is closed (ADR 0037). Every real start turns it on (providerStartOptions); off unless true,
   * so tests read the simulated market at fixed instants.
   */
  demoMarketReplay?: boolean | undefined;
  /** TRADIER_TOKEN and TRADIER_BASE_URL, for MARKET_DATA=tradier. */
  tradier?: { token: string; baseUrl?: string | undefined } | undefined;
  /** RISK_FREE_RATE (continuous, a fraction) for every source; unset, Yahoo reads the 13-week T-bill and the others take rates.ts's fallback. */
  riskFreeRate?: number | undefined;
  /** PRICE_REFRESH_SECONDS: pause between two price refreshes while auto refresh is on; 60 s when omitted. */
  priceRefreshSeconds?: number | undefined;
  /** The web app's public URL for links in mail; http://localhost:3000 when omitted. */
  appUrl?: string | undefined;
  /** SMTP server for mail; without it mail goes to the mail_outbox table. */
  smtpUrl?: string | undefined;
  mailFrom?: string | undefined;
  /** Firebase project whose ID tokens Google sign-in accepts; Google sign-in is off without it. */
  firebaseProjectId?: string | undefined;
  /** Peers (besides loopback) whose X-Forwarded-For names the client, e.g. the web app's servers. */
  trustedProxies?: string[] | undefined;
  /** VAPID keys (VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT); generated and stored when absent. */
  vapid?: { publicKey?: string | undefined; privateKey?: string | undefined; subject?: string | undefined } | undefined;
  /** Hosts device subscriptions may point at; the browsers' push services by default. */
  pushAllowedHosts?: readonly string[] | undefined;
  /** TLS agent for reaching push services (a private CA). */
  pushAgent?: Agent | undefined;
  /** Firebase Cloud Messaging (FIREBASE_SERVICE_ACCOUNT, FCM_API_URL, FCM_TOKEN_URL); FCM tokens are skipped without it. */
  fcm?: FcmSettings | undefined;
  /** Campaign for running the scheduled jobs (one process of those sharing the database runs them); on unless false. */
  jobs?: boolean | undefined;
  /** Age at which automatic generation regenerates a flagged ticker; 900 s when omitted. */
  recommendationIntervalSeconds?: number | undefined;
  /** How often a process that does not run the jobs tries to take over; 5000 ms when omitted. */
  leaderRetryMs?: number | undefined;
  /** Weeks of past sessions the simulated market's track record back-tests on first start (none when omitted; TRACK_RECORD_BACKTEST_WEEKS). */
  trackRecordBacktestWeeks?: number | undefined;
  /** An OpenAI-compatible model for the AI texts (AI_BASE_URL, AI_API_KEY, AI_MODEL, AI_TIMEOUT_MS); the built-in analyst when omitted. */
  ai?: AiSettings | undefined;
  /** Generations and AI texts each trader may ask for a minute (GENERATIONS_PER_MINUTE, AI_TEXTS_PER_MINUTE); 10 and 20 when omitted. */
  workLimits?: Partial<WorkLimits> | undefined;
  /** Days a replaced recommendation run is kept once the track record copied it (RECOMMENDATION_RUNS_KEEP_DAYS); 14 when omitted. */
  keepRunsDays?: number | undefined;
  /**
   * scrypt's cost (N) for new password hashes; PASSWORD_COST (2^15) when omitted. Set in code only,
   * never from the environment: the test suites lower it, as they sign in hundreds of times a run (ADR 0064).
   */
  passwordCost?: number | undefined;
  /** BROKER_TOKEN_KEY: keys sealing broker tokens, the first encrypting; derived from the token secrets when absent (ADR 0075). */
  brokerTokenKeys?: Buffer[] | undefined;
  /** TRADIER_BROKERAGE_URL: Tradier's brokerage API for account syncs; production when omitted. */
  tradierBrokerageUrl?: string | undefined;
  /**
   * On a PostgreSQL server the price refresh and automatic generation are shared by every provider
   * process, stock by stock (ADR 0085): stocks claimed at once, how long a claim holds, how often a
   * process looks for due stocks. Defaults: prices 20 / 60 s / 5 s, generation 4 / 5 min / 60 s.
   */
  /**
   * How many top-line counts (a run's puts under a reader's filters) each process remembers; 50,000
   * when omitted, 0 to count on every /insights view (ADR 0086).
   */
  topLineCountCacheEntries?: number | undefined;
  jobPartitions?:
    | {
        priceBatch?: number | undefined;
        priceLeaseMs?: number | undefined;
        pricePollMs?: number | undefined;
        recommendationBatch?: number | undefined;
        recommendationLeaseMs?: number | undefined;
        /** How often a process looks for due generations; 60 s (at most the generation interval). */
        recommendationPollMs?: number | undefined;
      }
    | undefined;
}

export interface Provider {
  /** Answers one HTTP request (Fetch API). */
  fetch(request: Request, info?: ClientInfo): Promise<Response>;
  context: ProviderContext;
  /** Scheduled jobs; started at creation unless `jobs: false`. */
  scheduler: Scheduler;
  close(): Promise<void>;
}

/** Opens the store, applies migrations, seeds when asked, and wires every route. */
export async function createProvider(options: ProviderOptions = {}): Promise<Provider> {
  const database = await openDatabase(options);
  try {
    const market = options.market ?? (await selectMarket(options));
    const passwords = createPasswords(options.passwordCost);
    const seeded = options.seedDemo ? await seedDemo(database.db, market, passwords) : false;
    if (seeded && options.seedRecommendations) await seedDemoRecommendations(database.db, market);
    if (seeded && options.demoLivePrices) await switchOnLivePrices(database.db);
    if (seeded && options.seedJournal) await seedDemoJournal(database.db, market);
    // `npm start` is production with demo data on (README): say so, so nobody exposes it unaware.
    if (seeded && process.env.NODE_ENV === "production") {
      console.warn(
        "Demo accounts demo/demo1234 and admin/admin1234 were created: change or remove them before exposing this server (SEED_DEMO=false keeps a new data folder empty).",
      );
    }
    const secrets = options.secrets?.length ? options.secrets : [await storedSecret(database, "token_secret")];
    const tokens = createTokenService(secrets, options.tokenTtlSeconds ?? 7 * 24 * 3600);
    const appUrl = (options.appUrl ?? "http://localhost:3000").replace(/\/$/, "");
    const bus = createEventBus({ db: database.db, kind: database.kind, databaseUrl: options.databaseUrl });
    const context: ProviderContext = {
      db: database.db,
      database,
      tokens,
      passwords,
      market,
      now: () => marketNow(market),
      limiter: createRateLimiter(database.db),
      work: workRules({ ...DEFAULT_WORK_LIMITS, ...definedOnly(options.workLimits) }),
      mailer: createMailer({ db: database.db, smtpUrl: options.smtpUrl, from: options.mailFrom ?? DEFAULT_MAIL_FROM }),
      google: options.firebaseProjectId ? createGoogleVerifier(options.firebaseProjectId) : undefined,
      appUrl,
      push: createPushSender({
        vapid: await loadVapidKeys(database.db, options.vapid),
        agent: options.pushAgent,
        fcm: options.fcm ? createFcmSender(options.fcm, { appUrl }) : undefined,
      }),
      pushAllowedHosts: options.pushAllowedHosts?.length ? options.pushAllowedHosts : DEFAULT_PUSH_HOSTS,
      bus,
      callers: await createCallerCache({ bus }),
      explainer: createExplainer(options.ai),
      broker: {
        cipher: createTokenCipher(options.brokerTokenKeys?.length ? options.brokerTokenKeys : keysFromSecrets(secrets)),
        tradierUrl: options.tradierBrokerageUrl ?? TRADIER_BROKERAGE_PRODUCTION_URL,
      },
    };
    const trustedProxies = options.trustedProxies ?? [];

    const router = new Router(createAuthenticator(database.db, tokens, context.callers), {
      idempotency: createIdempotencyStore(database.db),
    });
    router.on(calls.marketStatus, async () => json(marketStatus(market)));
    router.on(calls.health, async () => {
      const up = await ping(database.db);
      return json({ status: up ? "ok" : "degraded", database: up ? "ok" : "down" }, up ? 200 : 503);
    });
    authRoutes(router, context);
    mailOutboxRoutes(router, context);
    userStockRoutes(router, context);
    uipStockRoutes(router, context);
    deviceRoutes(router, context);
    notificationRoutes(router, context);
    configRoutes(router, context);
    recommendationRoutes(router, context, { countCacheEntries: options.topLineCountCacheEntries });
    aiRoutes(router, context);
    trackRecordRoutes(router, context);
    tradeRoutes(router, context);
    alertSettingsRoutes(router, context);
    coveredCallRoutes(router, context);
    planRoutes(router, context);
    brokerRoutes(router, context);
    reconciliationRoutes(router, context);

    const shared = database.kind === "postgres" && Boolean(options.databaseUrl);
    const scheduler = createScheduler(
      shared && options.databaseUrl
        ? postgresLeader({
            databaseUrl: options.databaseUrl,
            retryMs: options.leaderRetryMs,
            heartbeatMs: options.leaderRetryMs,
          })
        : singleProcessLeader(),
    );
    const recommendationIntervalMs = (options.recommendationIntervalSeconds ?? 900) * 1000;
    const priceIntervalMs = (options.priceRefreshSeconds ?? 60) * 1000;
    if (shared) {
      // Several processes may share this server: per-stock work is claimed through it (ADR 0085).
      const owner = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
      const parts = options.jobPartitions ?? {};
      scheduler.register(
        partitionedRecommendationJob(recommendContext(context), {
          intervalMs: recommendationIntervalMs,
          owner,
          batch: parts.recommendationBatch,
          leaseMs: parts.recommendationLeaseMs,
          checkEveryMs: parts.recommendationPollMs,
        }),
      );
      scheduler.register(
        partitionedPriceJob(context, {
          intervalMs: priceIntervalMs,
          owner,
          batch: parts.priceBatch,
          leaseMs: parts.priceLeaseMs,
          pollMs: parts.pricePollMs,
        }),
      );
      scheduler.register(positionAlertsJob(context, { intervalMs: priceIntervalMs }));
    } else {
      scheduler.register(recommendationJob(recommendContext(context), { intervalMs: recommendationIntervalMs }));
      scheduler.register(priceRefreshJob(context, { intervalMs: priceIntervalMs }));
    }
    scheduler.register(
      trackRecordJob(context, {
        intervalMs: TRACK_RECORD_INTERVAL_MS,
        firstRunDelayMs: TRACK_RECORD_FIRST_RUN_MS,
        backtestWeeks: options.trackRecordBacktestWeeks,
      }),
    );
    scheduler.register(pruneRunsJob(context, { intervalMs: 3600_000, keepDays: options.keepRunsDays ?? 14 }));
    scheduler.register(expiryResolutionJob(context, { intervalMs: EXPIRY_INTERVAL_MS }));
    scheduler.register(brokerSyncJob(context, { intervalMs: BROKER_SYNC_INTERVAL_MS }));
    if (options.jobs !== false) scheduler.start();

    return {
      context,
      scheduler,
      async fetch(request, info) {
        recordClientIp(request, info, trustedProxies);
        return (await router.handle(request)) ?? json({ detail: "Not Found" }, 404);
      },
      async close() {
        await scheduler.stop();
        await context.callers.close();
        await context.bus.close();
        await context.google?.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** The track record copies new recommendations and scores expired ones every five minutes. */
const TRACK_RECORD_INTERVAL_MS = 5 * 60_000;
/** Its first run (a new store's back-test among it) waits this long after start. */
export const TRACK_RECORD_FIRST_RUN_MS = 10_000;

const DEFAULT_MAIL_FROM = "PutSeller <no-reply@putseller.invalid>";

/** A secret generated on first start and kept, so tokens survive a restart. */
async function storedSecret(database: DatabaseHandle, name: string): Promise<string> {
  const candidate = randomBytes(32).toString("base64url");
  await database.db
    .insertInto("app_secrets")
    .values({ name, value: candidate })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await database.db
    .selectFrom("app_secrets")
    .select("value")
    .where("name", "=", name)
    .executeTakeFirstOrThrow();
  return row.value;
}

/**
 * The market MARKET_DATA names; nothing else in the product depends on which one it is. Yahoo's
 * client library loads only when chosen: it costs memory the default simulated market never uses
 * (docs/decisions/0039-pglite-memory-settings-and-lazy-parts.md).
 */
async function selectMarket(options: ProviderOptions): Promise<MarketData> {
  switch (options.marketData ?? "simulated") {
    case "yahoo": {
      const { createYahooMarket } = await import("./market/yahoo.ts");
      return createYahooMarket({ riskFreeRate: options.riskFreeRate });
    }
    case "tradier":
      if (!options.tradier?.token) throw new Error("MARKET_DATA=tradier needs TRADIER_TOKEN");
      return createTradierMarket({ ...options.tradier, riskFreeRate: options.riskFreeRate });
    case "simulated":
      return createSimulatedMarket({
        seed: options.marketSeed ?? 1,
        tickers: DEMO_TICKERS,
        riskFreeRate: options.riskFreeRate,
        replayWhenClosed: options.demoMarketReplay === true,
      });
  }
}

/** The settings given (an unset one is `undefined`, which must not hide its default). */
function definedOnly<T extends object>(values: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
}
