import type { DatabaseHandle, Db } from "./db/client.ts";
import type { TokenService } from "./auth/tokens.ts";
import type { MarketData } from "./market/port.ts";
import type { PushSender } from "./push/sender.ts";
import type { RateLimiter, WorkRules } from "./auth/rate-limit.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { GoogleVerifier } from "./auth/google.ts";
import type { EventBus } from "./bus/bus.ts";
import type { Explainer } from "./ai/port.ts";
import type { Passwords } from "./auth/password.ts";
import type { CallerCache } from "./auth/caller-cache.ts";
import type { BrokerSettings } from "./broker/settings.ts";

/** What every provider route module is given. */
export interface ProviderContext {
  db: Db;
  database: DatabaseHandle;
  tokens: TokenService;
  /** Password hashing (scrypt); its cost is lowered only by the test suites (ADR 0064). */
  passwords: Passwords;
  /** Quotes, company names, history, option chains: simulated by default (MARKET_DATA). */
  market: MarketData;
  /**
   * Now on the trading calendar: the market's clock (a simulated market's set instant) or the
   * server's. What decides by "today" reads it; tokens, limits and leases keep the server's (ADR 0091).
   */
  now(): Date;
  /** Web Push (VAPID) sender; see push/notify.ts notifyUsers to notify users. */
  push: PushSender;
  /** Push service hosts a device subscription may point at (PUSH_ALLOWED_HOSTS). */
  pushAllowedHosts: readonly string[];
  /** Attempt counters for the public account calls, and for each trader's costly work (`work`). */
  limiter: RateLimiter;
  /** Per-user limits on generations and AI texts (GENERATIONS_PER_MINUTE, AI_TEXTS_PER_MINUTE). */
  work: WorkRules;
  /** SMTP when SMTP_URL is set, else the mail_outbox table. */
  mailer: Mailer;
  /** Firebase ID token checks for Google sign-in; undefined when FIREBASE_PROJECT_ID is unset. */
  google: GoogleVerifier | undefined;
  /** The web app's public URL, for links in mail (e.g. http://localhost:3000). */
  appUrl: string;
  /** Publish/subscribe across provider processes (bus/channels.ts names the channels). */
  bus: EventBus;
  /** Callers resolved from tokens in the last few seconds; `sessionsEnded` when a session ends (ADR 0066). */
  callers: CallerCache;
  /** Writes the AI texts: the built-in analyst, or an OpenAI-compatible model when AI_BASE_URL is set. */
  explainer: Explainer;
  /** Tradier's brokerage API (TRADIER_BROKERAGE_URL) and the cipher of broker tokens (BROKER_TOKEN_KEY; ADR 0075). */
  broker: BrokerSettings;
}
