/**
 * The public Firebase web config the browser needs for Google sign-in (these values are
 * meant to be public). The server builds it from env; the page receives it from the loader.
 */
export interface GoogleWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId?: string | undefined;
  /** e.g. http://127.0.0.1:9099 when the Firebase Auth emulator stands in for Google. */
  emulatorUrl?: string | undefined;
}
