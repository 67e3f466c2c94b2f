import { initializeApp, getApps, type FirebaseApp } from "firebase/app";
import {
  browserPopupRedirectResolver,
  connectAuthEmulator,
  GoogleAuthProvider,
  inMemoryPersistence,
  initializeAuth,
  signInWithPopup,
  signOut,
  type Auth,
} from "firebase/auth";
import type { GoogleWebConfig } from "./google-web-config.ts";

/**
 * Google sign-in through Firebase's popup. This module is imported only when the person
 * presses 'Continue with Google', so Firebase never weighs on the first load of /login.
 * Firebase keeps nothing in the browser (in-memory persistence): the ID token is handed to
 * our server, which exchanges it for the provider's token and keeps that in the session.
 */
const APP_NAME = "putseller-google-sign-in";
let auth: Auth | undefined;

function authFor(config: GoogleWebConfig): Auth {
  if (auth) return auth;
  const app: FirebaseApp =
    getApps().find((a) => a.name === APP_NAME) ??
    initializeApp(
      { apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId, appId: config.appId },
      APP_NAME,
    );
  auth = initializeAuth(app, { persistence: inMemoryPersistence, popupRedirectResolver: browserPopupRedirectResolver });
  if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
  return auth;
}

/** Why a popup sign-in ended without an ID token. */
export class GoogleSignInCancelled extends Error {}

/** Opens the Google popup and resolves to the Firebase ID token of the signed-in Google user. */
export async function googleIdToken(config: GoogleWebConfig): Promise<string> {
  const firebaseAuth = authFor(config);
  const provider = new GoogleAuthProvider();
  provider.setCustomParameters({ prompt: "select_account" });
  try {
    const { user } = await signInWithPopup(firebaseAuth, provider);
    const token = await user.getIdToken();
    await signOut(firebaseAuth);
    return token;
  } catch (error) {
    const code = typeof error === "object" && error && "code" in error ? String(error.code) : "";
    // Closing the popup is a choice, not a failure.
    if (code === "auth/popup-closed-by-user" || code === "auth/cancelled-popup-request") {
      throw new GoogleSignInCancelled(code);
    }
    throw error;
  }
}
