import { z } from "zod";

/**
 * The web app's settings, parsed once at start-up (server.ts calls readAppEnv,
 * so a bad setting stops the process with one clear line per problem).
 */
export const AppEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /** An external provider API; when unset the embedded one is started in-process. */
  PROVIDER_URL: z.string().url().optional(),
  /** Comma-separated; the first signs and encrypts, all verify (rotation). */
  SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters").optional(),
  /** Secure cookies; defaults to on in production. Turn off only behind plain HTTP on a private network. */
  COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  /** Logo URL with {ticker} for the lower-case ticker; empty shows initials. */
  LOGO_URL_TEMPLATE: z.string().default(""),
  DATA_DIR: z.string().min(1).default("./data"),
  /**
   * Express "trust proxy": which peers may name the client in X-Forwarded-For (per-IP sign-in
   * limits). `loopback` by default; e.g. `uniquelocal`, a CIDR list, a hop count, `true`, `false`.
   */
  TRUST_PROXY: z.string().min(1).default("loopback"),
  /** Google sign-in: the Firebase web app config (public values); all three are needed to turn it on. */
  FIREBASE_API_KEY: z.string().min(1).optional(),
  FIREBASE_AUTH_DOMAIN: z.string().min(1).optional(),
  FIREBASE_PROJECT_ID: z.string().min(1).optional(),
  FIREBASE_APP_ID: z.string().min(1).optional(),
  /** host:port of the Firebase Auth emulator (development and tests only). */
  FIREBASE_AUTH_EMULATOR_HOST: z.string().min(1).optional(),
});
export type AppEnv = z.infer<typeof AppEnv>;

export function readAppEnv(env: NodeJS.ProcessEnv = process.env): AppEnv {
  const parsed = AppEnv.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid settings:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** The settings of a running app: the provider's address and the session secret are known by then. */
export type RunningAppEnv = AppEnv & { PROVIDER_URL: string; SESSION_SECRET: string };

let running: AppEnv | undefined;

/**
 * server.ts hands the settings over at start-up, with the embedded provider's address and the
 * generated session secret filled in, to its own modules and to each server build's (the build
 * bundles its own copy of this module): secrets are passed, not written into process.env.
 */
export function provideAppEnv(env: RunningAppEnv): void {
  running = env;
}

/** The settings as the running app sees them; before server.ts provides them (tests, scripts), process.env's. */
export function appEnv(): AppEnv {
  running ??= readAppEnv();
  return running;
}

export function providerUrl(): string {
  const url = appEnv().PROVIDER_URL;
  if (!url) throw new Error("PROVIDER_URL is not set: server.ts provides it when it starts the embedded provider");
  return url.replace(/\/$/, "");
}

/** An empty setting (`SMTP_URL=` in a compose file or `docker run -e`) means unset: its default applies. */
function withoutEmpty(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
}
