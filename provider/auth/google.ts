import { randomBytes } from "node:crypto";
import type { App, deleteApp } from "firebase-admin/app";
import type { Auth } from "firebase-admin/auth";

/** What the provider needs from a verified Firebase ID token. */
export interface GoogleIdentity {
  uid: string;
  email: string | undefined;
  emailVerified: boolean;
  name: string | undefined;
}

export interface GoogleVerifier {
  /** The identity in a valid Firebase ID token; throws when the token is not valid. */
  verify(idToken: string): Promise<GoogleIdentity>;
  close(): Promise<void>;
}

/**
 * Verifies Firebase ID tokens with firebase-admin for the given Firebase project.
 * With FIREBASE_AUTH_EMULATOR_HOST set, firebase-admin accepts the Auth emulator's
 * unsigned tokens instead (development and tests only).
 */
export function createGoogleVerifier(projectId: string): GoogleVerifier {
  // Loaded on first use: firebase-admin is large and most sign-ins are by password.
  type Loaded = { app: App; auth: Auth; deleteApp: typeof deleteApp };
  let loaded: Promise<Loaded> | undefined;
  const load = (): Promise<Loaded> =>
    (loaded ??= (async () => {
      const [{ initializeApp, deleteApp: remove }, { getAuth }] = await Promise.all([
        import("firebase-admin/app"),
        import("firebase-admin/auth"),
      ]);
      // A named app per provider instance, so several providers in one process do not collide.
      const app = initializeApp({ projectId }, `putseller-${randomBytes(6).toString("hex")}`);
      return { app, auth: getAuth(app), deleteApp: remove };
    })());
  return {
    async verify(idToken) {
      const { auth } = await load();
      const decoded = await auth.verifyIdToken(idToken);
      return {
        uid: decoded.uid,
        email: decoded.email,
        emailVerified: decoded.email_verified === true,
        name: typeof decoded.name === "string" ? decoded.name : undefined,
      };
    },
    async close() {
      if (!loaded) return;
      const { app, deleteApp } = await loaded;
      await deleteApp(app);
    },
  };
}
