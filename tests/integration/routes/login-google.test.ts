import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_INTENT } from "#app/lib/login-intents.ts";
import { messages } from "#app/lib/messages.ts";
import * as route from "#app/routes/login/route.tsx";
import {
  callAction,
  runLoader,
  get,
  signedOut,
  startRouteHarness,
  type RouteHarness,
} from "../../support/app-routes.ts";
import { startFirebaseEmulator, type FirebaseEmulator } from "../../support/firebase-emulator.ts";

/**
 * /login's Google intent with a real Firebase ID token: the Firebase Auth emulator issues it and
 * the embedded provider checks it with firebase-admin (tests/support/firebase-emulator.ts).
 */
let emulator: FirebaseEmulator;
let harness: RouteHarness;

beforeAll(async () => {
  emulator = await startFirebaseEmulator({ thisProcess: true });
  harness = await startRouteHarness({ firebaseProjectId: emulator.projectId });
}, 120_000); // the emulator can take a while to start on a busy machine
afterAll(async () => {
  await harness?.close();
  await emulator?.stop();
});

const google = (firebase_token: string, redirectTo?: string) =>
  callAction(route, signedOut(), "/login", {
    intent: LOGIN_INTENT.google,
    firebase_token,
    ...(redirectTo ? { redirectTo } : {}),
  });

describe("/login google", () => {
  it("signs a verified Google identity in and lands on the page asked for, with a session", async () => {
    const token = await emulator.googleIdToken({ email: "demo@example.com", name: "Dana Demo" });
    const answer = await google(token, "/portfolio");
    expect(answer).toMatchObject({ status: 302, location: "/portfolio" });
    const cookie = answer.headers.get("set-cookie")!.split(";")[0]!;
    expect(cookie).toMatch(/^__session=/);
    // The session is the demo account's (same verified email): /login now sends it on.
    const page = await runLoader(route, signedOut(), get("/login", { cookie }));
    expect(page).toMatchObject({ status: 302, location: "/user-stocks" });
  });

  it("refuses a Google account without a verified email, with no session", async () => {
    const token = await emulator.googleIdToken({ email: "unverified@example.com", email_verified: false });
    const answer = await google(token);
    expect(answer.status).toBe(403);
    expect(answer.data).toEqual({ intent: "google", error: messages.googleFailed, display: "toast" });
    expect(answer.headers.get("set-cookie")).toBeNull();
  });

  it("refuses a token the emulator did not issue", async () => {
    const answer = await google("forged.token.value");
    expect(answer.status).toBe(401);
    expect(answer.data).toEqual({ intent: "google", error: messages.googleFailed, display: "toast" });
    expect(answer.headers.get("set-cookie")).toBeNull();
  });
});
