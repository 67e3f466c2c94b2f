import type { GoogleWebConfig } from "#app/lib/google-web-config.ts";
import type { AppEnv } from "./env.server.ts";

export type { GoogleWebConfig };

/** Google sign-in's browser config from env; null when Google sign-in is not configured on this server. */
export function googleWebConfig(env: AppEnv): GoogleWebConfig | null {
  const { FIREBASE_API_KEY, FIREBASE_AUTH_DOMAIN, FIREBASE_PROJECT_ID, FIREBASE_APP_ID, FIREBASE_AUTH_EMULATOR_HOST } =
    env;
  if (!FIREBASE_API_KEY || !FIREBASE_AUTH_DOMAIN || !FIREBASE_PROJECT_ID) return null;
  return {
    apiKey: FIREBASE_API_KEY,
    authDomain: FIREBASE_AUTH_DOMAIN,
    projectId: FIREBASE_PROJECT_ID,
    appId: FIREBASE_APP_ID,
    emulatorUrl: FIREBASE_AUTH_EMULATOR_HOST ? `http://${FIREBASE_AUTH_EMULATOR_HOST}` : undefined,
  };
}
