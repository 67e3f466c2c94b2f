import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { startFirebaseEmulator, type FirebaseEmulator } from "../../tests/support/firebase-emulator.ts";

/** Google sign-in against the Firebase Auth emulator: real ID tokens, checked by firebase-admin. */
let emulator: FirebaseEmulator;
let provider: TestProvider;
beforeAll(async () => {
  emulator = await startFirebaseEmulator({ thisProcess: true });
  provider = await testProvider({ firebaseProjectId: emulator.projectId });
}, 120_000); // the emulator can take a while to start on a busy machine
afterAll(async () => {
  await provider?.close();
  await emulator?.stop();
});

async function googleLogin(firebase_token: string) {
  return provider.call(calls.googleLogin, { body: { firebase_token } });
}

describe("POST /auth/google-login", () => {
  it("creates a trader for a new Google identity, named after the Google profile", async () => {
    const token = await emulator.googleIdToken({ email: "Grace.Hopper@example.com", name: "Grace Brewster Hopper" });
    const res = await googleLogin(token);
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe("bearer");
    const me = await provider.call(calls.me, { token: res.body.access_token });
    expect(me.body).toMatchObject({
      name: "Grace Brewster Hopper",
      username: "grace.hopper",
      email: "grace.hopper@example.com",
    });
    const perms = await provider.call(calls.permissions, {
      token: res.body.access_token,
      params: { userId: me.body.id },
    });
    expect(perms.body).toEqual([{ object: "USER_STOCK", action: "DELETE" }]);
  });

  it("signs the same Google identity into the same account every time", async () => {
    const sub = "google-sub-repeat";
    const first = await googleLogin(await emulator.googleIdToken({ email: "repeat@example.com", sub }));
    const second = await googleLogin(await emulator.googleIdToken({ email: "repeat@example.com", sub }));
    const a = await provider.call(calls.me, { token: first.body.access_token });
    const b = await provider.call(calls.me, { token: second.body.access_token });
    expect(a.body.id).toBe(b.body.id);
  });

  it("links to the existing account with the same verified email", async () => {
    const demo = await provider.call(calls.me, { token: await provider.login("demo", "demo1234") });
    const res = await googleLogin(await emulator.googleIdToken({ email: demo.body.email, name: "Someone Else" }));
    expect(res.status).toBe(200);
    const me = await provider.call(calls.me, { token: res.body.access_token });
    expect(me.body.id).toBe(demo.body.id);
    expect(me.body.username).toBe("demo");
    // The password still works too.
    await provider.login("demo", "demo1234");
  });

  it("gives a new account a free username when the email's name is taken", async () => {
    const res = await googleLogin(await emulator.googleIdToken({ email: "demo@elsewhere.example" }));
    const me = await provider.call(calls.me, { token: res.body.access_token });
    expect(me.body.username).toBe("demo2");
  });

  it("refuses an identity without a verified email", async () => {
    const res = await googleLogin(
      await emulator.googleIdToken({ email: "unverified@example.com", email_verified: false }),
    );
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ detail: "Your Google account has no verified email address" });
  });

  it("refuses a token that is not a Firebase ID token of this project", async () => {
    const garbage = await googleLogin("not-a-token");
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual({ detail: "The Google sign-in could not be verified" });
    // A well-formed token for another project.
    const [head, payload] = (await emulator.googleIdToken({ email: "other@example.com" })).split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = [head, Buffer.from(JSON.stringify({ ...claims, aud: "demo-other" })).toString("base64url"), ""].join(
      ".",
    );
    expect((await googleLogin(forged)).status).toBe(401);
  });
});
