import { describe, expect, it } from "vitest";
import { LOGIN_INTENT } from "#app/lib/login-intents.ts";
import { messages } from "#app/lib/messages.ts";
import * as route from "#app/routes/login/route.tsx";
import { clientAddressContext } from "#app/server/context.server.ts";
import { createPasswords, PASSWORD_COST } from "#provider/auth/password.ts";
import { callAction, callLoader, get, runLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/** The sign-in card's forms on /login, one test or more per intent, and its loader, through the route module against the embedded provider. */
const app = routeHarnessForFile();

type Reply = { intent: string; result: { initialValue: Record<string, unknown>; error: Record<string, string[]> } };
const signIn = (username: string, password: string) =>
  callAction(route, signedOut(), "/login", { intent: LOGIN_INTENT.login, username, password });
/** The session cookie a sign-in sets, as the browser sends it back. */
const sessionCookie = (setCookie: string | null) => setCookie!.split(";")[0]!;

describe("/login", () => {
  it("signs in and lands on the page asked for, with the session cookie", async () => {
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.login,
      username: "demo",
      password: "demo1234",
      redirectTo: "/portfolio",
    });
    expect(answer).toMatchObject({ status: 302, location: "/portfolio" });
    expect(answer.headers.get("set-cookie")).toMatch(/^__session=/);
  });

  it("keeps the username and says why on a wrong password", async () => {
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.login,
      username: "demo",
      password: "wrong-password1",
    });
    expect(answer.status).toBe(401);
    const reply = answer.data as Reply;
    expect(reply.intent).toBe("login");
    expect(reply.result.initialValue).toMatchObject({ username: "demo" });
    // The typed password never comes back in the page's data (it would sit in the HTML and caches).
    expect(reply.result.initialValue).not.toHaveProperty("password");
    expect(JSON.stringify(reply)).not.toContain("wrong-password1");
    expect(reply.result.error[""]).toEqual([messages.invalidCredentials]);
  });

  it("refuses a sign-up with field errors and keeps what was typed", async () => {
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.signup,
      email: "not-an-email",
      username: "newtrader",
    });
    expect(answer.status).toBe(400);
    const reply = answer.data as Reply;
    expect(reply.intent).toBe("signup");
    expect(reply.result.initialValue).toMatchObject({ email: "not-an-email", username: "newtrader" });
    expect(reply.result.error.email).toBeDefined();
  });

  it("sends the reset email and comes back to sign-in with a toast", async () => {
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.forgot,
      email: "demo@example.com",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/login",
      toast: { type: "success", text: messages.resetSent },
    });
  });

  it("tells a browser without JavaScript that Google sign-in needs it", async () => {
    const answer = await callAction(route, signedOut(), "/login", { intent: LOGIN_INTENT.google });
    expect(answer).toMatchObject({ status: 400, data: { intent: "google", error: messages.googleNeedsJavaScript } });
  });

  it("answers the Apple button with its coming-soon toast on the same page", async () => {
    const answer = await callAction(route, signedOut(), "/login", { intent: LOGIN_INTENT.apple });
    expect(answer).toMatchObject({ location: "/login", toast: { type: "info", text: messages.appleComingSoon } });
  });
  it("signs in from a form without an intent (a browser that lost it), landing on the watchlist", async () => {
    const answer = await callAction(route, signedOut(), "/login", { username: "demo", password: "demo1234" });
    expect(answer).toMatchObject({ status: 302, location: "/user-stocks" });
    expect(answer.headers.get("set-cookie")).toMatch(/^__session=/);
  });

  it("signs in through a link whose redirectTo holds any text, landing there with it encoded", async () => {
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.login,
      username: "demo",
      password: "demo1234",
      redirectTo: "/insights?q=☃",
    });
    expect(answer).toMatchObject({ status: 302, location: "/insights?q=%E2%98%83" });
    expect(answer.headers.get("set-cookie")).toMatch(/^__session=/);
  });

  it("never lands on another site after signing in", async () => {
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.login,
      username: "demo",
      password: "demo1234",
      redirectTo: "https://evil.example/",
    });
    expect(answer).toMatchObject({ status: 302, location: "/user-stocks" });
  });

  it("names the empty fields of the sign-in form without asking the provider", async () => {
    const answer = await callAction(route, signedOut(), "/login", { intent: LOGIN_INTENT.login, username: " " });
    expect(answer.status).toBe(400);
    const reply = answer.data as Reply;
    expect(reply.intent).toBe("login");
    expect(Object.keys(reply.result.error).sort()).toEqual(["password", "username"]);
    expect(answer.headers.get("set-cookie")).toBeNull();
  });

  it("answers an unknown username like a wrong password, so no account is revealed, keeping it", async () => {
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.login,
      username: "nobody-here",
      password: "whatever123",
    });
    expect(answer.status).toBe(401);
    const reply = answer.data as Reply;
    expect(reply.result.initialValue).toMatchObject({ username: "nobody-here" });
    expect(reply.result.error[""]).toEqual([messages.invalidCredentials]);
  });

  it("creates an account, back on sign-in with a toast, and the new account signs in", async () => {
    const account = {
      firstName: "Nora",
      lastName: "New",
      email: "nora.new@example.com",
      username: "noranew",
      password: "noranew123",
      confirmPassword: "noranew123",
    };
    const answer = await callAction(route, signedOut(), "/login?mode=signup", {
      intent: LOGIN_INTENT.signup,
      ...account,
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/login",
      toast: { type: "success", text: messages.accountCreated },
    });
    expect(await signIn("noranew", "noranew123")).toMatchObject({ status: 302, location: "/user-stocks" });
  });

  it("keeps a sign-up the provider refuses (a username taken) with its reason, never the passwords", async () => {
    const answer = await callAction(route, signedOut(), "/login?mode=signup", {
      intent: LOGIN_INTENT.signup,
      firstName: "Dana",
      lastName: "Again",
      email: "someone.else@example.com",
      username: "demo",
      password: "another123",
      confirmPassword: "another123",
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const reply = answer.data as Reply;
    expect(reply.intent).toBe("signup");
    expect(reply.result.initialValue).toMatchObject({ username: "demo", email: "someone.else@example.com" });
    expect(reply.result.initialValue).not.toHaveProperty("password");
    expect(reply.result.initialValue).not.toHaveProperty("confirmPassword");
    expect(reply.result.error[""]).toHaveLength(1);
    expect(reply.result.error[""]![0]).not.toBe(messages.registrationFailed);
    // The account that was there still signs in with its own password.
    expect(await signIn("demo", "demo1234")).toMatchObject({ status: 302 });
  });

  it("says 'Passwords do not match' under the confirmation, sending nothing", async () => {
    const answer = await callAction(route, signedOut(), "/login?mode=signup", {
      intent: LOGIN_INTENT.signup,
      firstName: "Otto",
      lastName: "Other",
      email: "otto@example.com",
      username: "ottoother",
      password: "ottoother123",
      confirmPassword: "ottoother124",
    });
    expect(answer.status).toBe(400);
    expect((answer.data as Reply).result.error.confirmPassword).toEqual([messages.passwordsDoNotMatch]);
    expect((await signIn("ottoother", "ottoother123")).status).not.toBe(302);
  });

  it("keeps a reset request with a malformed email on the form with its error", async () => {
    const answer = await callAction(route, signedOut(), "/login?mode=forgot", {
      intent: LOGIN_INTENT.forgot,
      email: "not-an-email",
    });
    expect(answer.status).toBe(400);
    const reply = answer.data as Reply;
    expect(reply.intent).toBe("forgot");
    expect(reply.result.initialValue).toMatchObject({ email: "not-an-email" });
    expect(reply.result.error.email).toHaveLength(1);
  });

  it("says Google sign-in failed, without a session, when the provider cannot verify the token", async () => {
    // This provider has no Firebase project: the refusal path. The emulator's happy path is login-google.test.ts.
    const answer = await callAction(route, signedOut(), "/login", {
      intent: LOGIN_INTENT.google,
      firebase_token: "not-a-firebase-token",
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.data).toEqual({ intent: "google", error: messages.googleFailed, display: "toast" });
    expect(answer.headers.get("set-cookie")).toBeNull();
  });
});

describe("/login under concurrent guessing (ADR 0071)", () => {
  it("40 sign-ins at once from one address check at most 5 passwords; the rest say to wait, and none signs in", async () => {
    const created = await callAction(route, signedOut(), "/login?mode=signup", {
      intent: LOGIN_INTENT.signup,
      firstName: "Rush",
      lastName: "Hour",
      email: "rush.hour@example.com",
      username: "rushhour",
      password: "rushhour123",
      confirmPassword: "rushhour123",
    });
    expect(created.status).toBe(302);
    // The production cost (tens of milliseconds a check, ADR 0064), so attempts overlap as they would live.
    await app.provider.provider.context.db
      .updateTable("users")
      .set({ password_hash: await createPasswords(PASSWORD_COST).hash("rushhour123") })
      .where("username", "=", "rushhour")
      .execute();
    const browser = () => {
      const context = signedOut();
      context.set(clientAddressContext, "203.0.113.40");
      return context;
    };
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        callAction(route, browser(), "/login", {
          intent: LOGIN_INTENT.login,
          username: "rushhour",
          password: i === 39 ? "rushhour123" : `wrong-guess${i}`,
        }),
      ),
    );
    const checked = answers.filter((a) => a.status === 401 || a.status === 302);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 302)).toHaveLength(0);
    const waits = answers.filter((a) => a.status === 429);
    expect(waits).toHaveLength(40 - checked.length);
    expect((waits[0]!.data as Reply).result.error[""]).toEqual([
      "Too many sign-in attempts. Please wait 15 minutes and try again.",
    ]);
    expect(answers.every((a) => a.headers.get("set-cookie") === null)).toBe(true);
  });
});

describe("/login loader", () => {
  it("shows the card to a signed-out visitor, without Google when no Firebase project is set", async () => {
    const page = await callLoader(route, signedOut(), "/login");
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ google: null });
    expect(page.data).toHaveProperty("stats");
  });

  it("sends a visitor with a session on to the watchlist", async () => {
    const signedIn = await signIn("demo", "demo1234");
    const cookie = sessionCookie(signedIn.headers.get("set-cookie"));
    const page = await runLoader(route, signedOut(), get("/login", { cookie }));
    expect(page).toMatchObject({ status: 302, location: "/user-stocks" });
  });
});
