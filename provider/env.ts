import { z } from "zod";
import { readFcmServiceAccount } from "./push/fcm-account.ts";
import { DEFAULT_FCM_API_URL, DEFAULT_FCM_TOKEN_URL } from "./push/fcm.ts";
import { MARKET_SOURCES } from "./market/port.ts";
import { TRADIER_PRODUCTION_URL } from "./market/tradier.ts";
import { TRADIER_BROKERAGE_PRODUCTION_URL } from "./broker/tradier-brokerage.ts";
import { BrokerKeyError, parseBrokerKeys } from "./broker/token-cipher.ts";

const flag = z
  .enum(["true", "false", "1", "0"])
  .transform((v) => v === "true" || v === "1")
  .optional();

/** Provider settings, read from the environment once at start-up. */
export const ProviderEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PROVIDER_PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  PROVIDER_HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Comma-separated; the first signs tokens. Generated and stored in the database when absent. */
  PROVIDER_SECRET: z.string().min(32, "PROVIDER_SECRET must be at least 32 characters").optional(),
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .default(7 * 24 * 3600),
  /** Demo users and data: on by default, off when NODE_ENV=production unless set. */
  SEED_DEMO: flag,
  /** With demo data: a new data folder starts with live prices (auto_refresh_enabled) on; false leaves them off (ADR 0037). */
  DEMO_LIVE_PRICES: flag,
  /** With demo data: the demo trader starts with a wheel journal (open puts, shares with a call, a closed cycle); false leaves it empty. */
  DEMO_JOURNAL: flag,
  /** `simulated` (offline, deterministic), `yahoo` or `tradier` (needs TRADIER_TOKEN). */
  MARKET_DATA: z.enum(MARKET_SOURCES).default("simulated"),
  /** Tradier API access token (a brokerage or sandbox account's); required with MARKET_DATA=tradier. */
  TRADIER_TOKEN: z.string().min(1).optional(),
  /** Tradier's API root: production by default, https://sandbox.tradier.com/v1 for a sandbox token. */
  TRADIER_BASE_URL: z.string().url().default(TRADIER_PRODUCTION_URL),
  /** Tradier's brokerage API for traders' account syncs: production by default, https://sandbox.tradier.com/v1 for paper accounts. */
  TRADIER_BROKERAGE_URL: z.string().url().default(TRADIER_BROKERAGE_PRODUCTION_URL),
  /**
   * Keys sealing traders' broker tokens (AES-256-GCM): comma-separated base64 keys of 32 bytes, the
   * first encrypting, every one decrypting (rotation: put the new key first). Unset, keys are derived
   * from PROVIDER_SECRET (ADR 0075).
   */
  BROKER_TOKEN_KEY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return undefined;
      try {
        return parseBrokerKeys(value);
      } catch (error) {
        if (!(error instanceof BrokerKeyError)) throw error;
        ctx.addIssue({ code: "custom", message: error.message });
        return z.NEVER;
      }
    }),
  /** Continuously compounded risk-free rate as a fraction (0.043 = 4.3 %); unset, Yahoo reads the 13-week T-bill (^IRX). */
  RISK_FREE_RATE: z.coerce.number().min(-0.05).max(0.25).optional(),
  /** Seed of the simulated market. */
  MARKET_SEED: z.coerce.number().int().default(1),
  /** Pause between two price refreshes while the admin switch auto_refresh_enabled is on. */
  PRICE_REFRESH_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** The web app's public URL, for links in mail; defaults to http://localhost:$PORT. */
  APP_URL: z.string().url().optional(),
  /** The web app's port (the embedded provider shares the app's environment). */
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** SMTP server for password reset mail, e.g. smtps://user:pass@smtp.example.com:465; unset writes mail to mail_outbox. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().min(3).default("PutSeller <no-reply@putseller.invalid>"),
  /** Firebase project for Google sign-in (ID tokens are checked against it); unset turns Google sign-in off. */
  FIREBASE_PROJECT_ID: z.string().min(1).optional(),
  /** host:port of the Firebase Auth emulator (development and tests); read by firebase-admin itself. */
  FIREBASE_AUTH_EMULATOR_HOST: z.string().min(1).optional(),
  /** Comma-separated addresses (besides loopback) allowed to name the client in X-Forwarded-For: the web app's servers. */
  PROVIDER_TRUSTED_PROXIES: z.string().default(""),
  /** Web Push VAPID key pair (URL-safe base64); generated and kept in the database when absent. */
  VAPID_PUBLIC_KEY: z.string().min(1).optional(),
  VAPID_PRIVATE_KEY: z.string().min(1).optional(),
  /** Contact for push services: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:)/, "VAPID_SUBJECT must start with mailto: or https:")
    .optional(),
  /** Comma-separated push service hosts a device subscription may point at; the browsers' services by default. */
  PUSH_ALLOWED_HOSTS: z.string().default(""),
  /**
   * Firebase Cloud Messaging for FCM registration tokens: the service account key file's JSON, or its path.
   * Unset, devices with an FCM token are skipped (Web Push subscriptions work either way).
   */
  FIREBASE_SERVICE_ACCOUNT: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value?.trim()) return undefined;
      const read = readFcmServiceAccount(value);
      if ("error" in read) {
        ctx.addIssue({ code: "custom", message: read.error });
        return z.NEVER;
      }
      return read.account;
    }),
  /** FCM's API and OAuth token endpoint; only tests and proxies change them. */
  FCM_API_URL: z.string().url().default(DEFAULT_FCM_API_URL),
  FCM_TOKEN_URL: z.string().url().default(DEFAULT_FCM_TOKEN_URL),
  /** Automatic generation (when the admin switch is on) regenerates a flagged ticker once its set is this old. */
  RECOMMENDATION_INTERVAL_SECONDS: z.coerce.number().int().min(60).default(900),
  /** Weeks of past sessions (one a week) the simulated market's track record back-tests on first start; 0 for none. */
  TRACK_RECORD_BACKTEST_WEEKS: z.coerce.number().int().min(0).max(260).default(26),
  /** An OpenAI-compatible API for the AI texts, e.g. https://api.openai.com/v1 or http://localhost:11434/v1; unset uses the built-in analyst. */
  AI_BASE_URL: z.string().url().optional(),
  /** Bearer key for AI_BASE_URL (local servers often need none). */
  AI_API_KEY: z.string().min(1).optional(),
  /** The model AI_BASE_URL serves; required with it. */
  AI_MODEL: z.string().min(1).optional(),
  /** Longest wait for the AI answer to start and between two pieces of it. */
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  /** Recommendation generations each trader may start a minute (README "Security and limits"). */
  GENERATIONS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** AI texts (stock analysis, recommendation summary) each trader may ask for a minute. */
  AI_TEXTS_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /** Broker-file previews and imports together each trader may send a minute (ADR 0073). */
  IMPORTS_PER_MINUTE: z.coerce.number().int().min(1).default(12),
  /** Days a replaced recommendation run is kept (once the track record copied it) before it is pruned. */
  RECOMMENDATION_RUNS_KEEP_DAYS: z.coerce.number().int().min(1).max(3650).default(14),
});
export type ProviderEnv = z.infer<typeof ProviderEnv>;

/** Parses the environment or throws one readable line per bad setting. */
export function readProviderEnv(env: NodeJS.ProcessEnv = process.env): ProviderEnv {
  const parsed = ProviderEnv.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid provider settings:\n${lines.join("\n")}`);
  }
  if (parsed.data.MARKET_DATA === "tradier" && !parsed.data.TRADIER_TOKEN) {
    throw new Error(
      "Invalid provider settings:\n  TRADIER_TOKEN: required when MARKET_DATA=tradier (an API access token from your Tradier account)",
    );
  }
  if (parsed.data.AI_BASE_URL && !parsed.data.AI_MODEL) {
    throw new Error("Invalid provider settings:\n  AI_MODEL: required when AI_BASE_URL is set");
  }
  return parsed.data;
}

function seedDemoEnabled(env: ProviderEnv): boolean {
  return env.SEED_DEMO ?? env.NODE_ENV !== "production";
}

/** The provider's start options from its settings (shared by server.ts and provider/main.ts). */
export function providerStartOptions(env: ProviderEnv) {
  return {
    port: env.PROVIDER_PORT,
    host: env.PROVIDER_HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATABASE_URL ? undefined : env.DATA_DIR,
    secrets: env.PROVIDER_SECRET?.split(",").map((s) => s.trim()),
    tokenTtlSeconds: env.TOKEN_TTL_SECONDS,
    seedDemo: seedDemoEnabled(env),
    seedRecommendations: seedDemoEnabled(env),
    seedJournal: seedDemoEnabled(env) && (env.DEMO_JOURNAL ?? true),
    demoLivePrices: env.DEMO_LIVE_PRICES ?? true,
    marketSeed: env.MARKET_SEED,
    marketData: env.MARKET_DATA,
    // The simulated market is the demo: it replays a session while the exchange is closed (ADR 0037).
    demoMarketReplay: true,
    tradier: env.TRADIER_TOKEN ? { token: env.TRADIER_TOKEN, baseUrl: env.TRADIER_BASE_URL } : undefined,
    tradierBrokerageUrl: env.TRADIER_BROKERAGE_URL,
    brokerTokenKeys: env.BROKER_TOKEN_KEY,
    riskFreeRate: env.RISK_FREE_RATE,
    priceRefreshSeconds: env.PRICE_REFRESH_SECONDS,
    appUrl: env.APP_URL ?? `http://localhost:${env.PORT}`,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    firebaseProjectId: env.FIREBASE_PROJECT_ID,
    trustedProxies: env.PROVIDER_TRUSTED_PROXIES.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    vapid: { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT },
    pushAllowedHosts: env.PUSH_ALLOWED_HOSTS.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    fcm: env.FIREBASE_SERVICE_ACCOUNT
      ? { ...env.FIREBASE_SERVICE_ACCOUNT, apiUrl: env.FCM_API_URL, tokenUrl: env.FCM_TOKEN_URL }
      : undefined,
    recommendationIntervalSeconds: env.RECOMMENDATION_INTERVAL_SECONDS,
    trackRecordBacktestWeeks: env.TRACK_RECORD_BACKTEST_WEEKS,
    workLimits: {
      generationsPerMinute: env.GENERATIONS_PER_MINUTE,
      aiTextsPerMinute: env.AI_TEXTS_PER_MINUTE,
      importsPerMinute: env.IMPORTS_PER_MINUTE,
    },
    keepRunsDays: env.RECOMMENDATION_RUNS_KEEP_DAYS,
    ai:
      env.AI_BASE_URL && env.AI_MODEL
        ? { baseUrl: env.AI_BASE_URL, apiKey: env.AI_API_KEY, model: env.AI_MODEL, timeoutMs: env.AI_TIMEOUT_MS }
        : undefined,
  };
}

/** An empty setting (`SMTP_URL=` in a compose file or `docker run -e`) means unset: its default applies. */
function withoutEmpty(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
}
