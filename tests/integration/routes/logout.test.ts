import { describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { LOGIN_INTENT } from "#app/lib/login-intents.ts";
import { messages } from "#app/lib/messages.ts";
import { ProviderError, callProvider } from "#app/server/provider.server.ts";
import { readSession } from "#app/server/session.server.ts";
import * as login from "#app/routes/login/route.tsx";
import * as route from "#app/routes/logout/route.tsx";
import {
  callAction,
  callLoader,
  get,
  post,
  runAction,
  signedOut,
  routeHarnessForFile,
} from "../../support/app-routes.ts";

/** /logout: sign-out is a POST (its action); a GET (its loader) ends nothing. Through the route module against the embedded provider. */
routeHarnessForFile();

/** Signs in through /login and returns the session cookie as the browser sends it back. */
async function signedInCookie(): Promise<string> {
  const answer = await callAction(login, signedOut(), "/login", {
    intent: LOGIN_INTENT.login,
    username: "demo",
    password: "demo1234",
  });
  return answer.headers.get("set-cookie")!.split(";")[0]!;
}
const cookiesSet = (headers: Headers) => headers.getSetCookie().map((line) => line.split(";")[0]!);

describe("/logout", () => {
  it("ends the session: the cookie goes, /login says so, and the session's token opens nothing any more", async () => {
    const cookie = await signedInCookie();
    const session = await readSession(get("/user-stocks", { cookie }));
    expect(session).toBeTruthy();

    const answer = await runAction(route, signedOut(), post("/logout", {}, { cookie }));
    expect(answer).toMatchObject({
      status: 302,
      location: "/login",
      toast: { type: "success", text: messages.loggedOut },
    });
    expect(cookiesSet(answer.headers)).toContain("__session=");
    // A copy of the old cookie kept from before opens nothing at the provider.
    await expect(callProvider(calls.me, { token: session!.token })).rejects.toSatisfy(
      (error) => error instanceof ProviderError && error.status === 401,
    );
  });

  it("signs a browser without a session out all the same", async () => {
    const answer = await callAction(route, signedOut(), "/logout", {});
    expect(answer).toMatchObject({
      status: 302,
      location: "/login",
      toast: { type: "success", text: messages.loggedOut },
    });
  });

  it("ends nothing on a GET (a link or a prefetch): it goes to the watchlist and the session still works", async () => {
    const cookie = await signedInCookie();
    const session = await readSession(get("/user-stocks", { cookie }));
    const answer = await callLoader(route, signedOut(), "/logout");
    expect(answer).toMatchObject({ status: 302, location: "/user-stocks", toast: null });
    expect(answer.headers.getSetCookie()).toEqual([]);
    await expect(callProvider(calls.me, { token: session!.token })).resolves.toMatchObject({ username: "demo" });
  });
});
