import { describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { LOGIN_INTENT } from "#app/lib/login-intents.ts";
import { messages } from "#app/lib/messages.ts";
import { userCall } from "#app/server/auth.server.ts";
import * as login from "#app/routes/login/route.tsx";
import * as route from "#app/routes/reset-password/route.tsx";
import { callAction, callLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/**
 * /reset-password, the page the reset mail links to: its loader and its one form, through the
 * route module against the embedded provider (the mail is read from the provider's outbox).
 */
const app = routeHarnessForFile();

type Reply = { result: { initialValue: Record<string, unknown>; error: Record<string, string[]> } };

const signIn = (username: string, password: string) =>
  callAction(login, signedOut(), "/login", { intent: LOGIN_INTENT.login, username, password });

/** Asks for a reset mail on /login and returns the link's path from the newest mail to the address. */
async function resetLink(email: string): Promise<string> {
  const asked = await callAction(login, signedOut(), "/login?mode=forgot", { intent: LOGIN_INTENT.forgot, email });
  expect(asked.toast).toEqual({ type: "success", text: messages.resetSent });
  const [mail] = await userCall(app.admin, calls.mailOutbox, { query: { to: email, limit: 1 } });
  const link = /https?:\/\/\S*(\/reset-password\?token=[^\s"<>]+)/.exec(mail!.body_text)?.[1];
  if (!link) throw new Error(`No reset link in: ${mail!.body_text}`);
  return link;
}
const tokenOf = (link: string) => new URL(link, "http://app.test").searchParams.get("token")!;

describe("/reset-password loader", () => {
  it("hands the page the link's token, kept out of caches and other sites' Referer", async () => {
    const link = await resetLink("demo@example.com");
    const page = await callLoader(route, signedOut(), link);
    expect(page).toMatchObject({ status: 200, data: { token: tokenOf(link) } });
    const none = new Headers();
    const headers = new Headers(
      route.headers({ loaderHeaders: none, parentHeaders: none, actionHeaders: none, errorHeaders: undefined }),
    );
    expect(headers.get("cache-control")).toBe("no-store");
    expect(headers.get("referrer-policy")).toBe("same-origin");
  });

  it("gives an empty token for a link cut short", async () => {
    expect(await callLoader(route, signedOut(), "/reset-password")).toMatchObject({ data: { token: "" } });
  });
});

describe("/reset-password action", () => {
  it("says the link is incomplete when the token is missing, never sending the passwords back", async () => {
    const answer = await callAction(route, signedOut(), "/reset-password", {
      token: "",
      password: "brandnew123",
      confirmPassword: "brandnew123",
    });
    expect(answer.status).toBe(400);
    const reply = answer.data as Reply;
    expect(reply.result.error.token).toEqual([messages.resetLinkIncomplete]);
    expect(JSON.stringify(reply)).not.toContain("brandnew123");
  });

  it("says 'Passwords do not match' under the confirmation, keeping the token and changing nothing", async () => {
    const link = await resetLink("demo@example.com");
    const answer = await callAction(route, signedOut(), link, {
      token: tokenOf(link),
      password: "brandnew123",
      confirmPassword: "brandnew124",
    });
    expect(answer.status).toBe(400);
    const reply = answer.data as Reply;
    expect(reply.result.error.confirmPassword).toEqual([messages.passwordsDoNotMatch]);
    expect(reply.result.initialValue).toMatchObject({ token: tokenOf(link) });
    expect(reply.result.initialValue).not.toHaveProperty("password");
    expect(await signIn("demo", "demo1234")).toMatchObject({ status: 302 });
  });

  it("shows the provider's refusal of a token it did not issue, changing nothing", async () => {
    const answer = await callAction(route, signedOut(), "/reset-password?token=forged", {
      token: "forged",
      password: "brandnew123",
      confirmPassword: "brandnew123",
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    const reply = answer.data as Reply;
    expect(reply.result.error[""]).toHaveLength(1);
    expect(reply.result.error[""]![0]).not.toBe(messages.unexpected);
    expect(JSON.stringify(reply)).not.toContain("brandnew123");
    expect(await signIn("demo", "demo1234")).toMatchObject({ status: 302 });
  });

  it("changes the password, back on sign-in with a toast; the new one signs in, the old one and the link no more", async () => {
    const link = await resetLink("demo@example.com");
    const fields = { token: tokenOf(link), password: "brandnew123", confirmPassword: "brandnew123" };
    const answer = await callAction(route, signedOut(), link, fields);
    expect(answer).toMatchObject({
      status: 302,
      location: "/login",
      toast: { type: "success", text: messages.passwordResetDone },
    });
    expect(await signIn("demo", "brandnew123")).toMatchObject({ status: 302, location: "/user-stocks" });
    expect((await signIn("demo", "demo1234")).status).toBe(401);

    const again = await callAction(route, signedOut(), link, {
      ...fields,
      password: "evenmore123",
      confirmPassword: "evenmore123",
    });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect((await signIn("demo", "evenmore123")).status).toBe(401);
  });
});
