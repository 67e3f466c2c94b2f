import { describe, expect, it } from "vitest";
import type { RouterContextProvider } from "react-router";
import * as route from "#app/routes/resources/push-device.tsx";
import {
  callAction,
  callLoader,
  Json,
  post,
  runAction,
  signedOut,
  routeHarnessForFile,
} from "../../support/app-routes.ts";

/**
 * /resources/push-device, the push toggle's device record (JSON in and out): its loader (is this
 * browser opted in?) and its action (opt in or out), through the route module against the embedded provider.
 */
const app = routeHarnessForFile();

const TOKEN = "route-test-device-token-1";
const device = (notification_opt_in: "1" | "0", fcm_token = TOKEN) =>
  new Json({
    fcm_token,
    browser: "Firefox",
    os: "Linux",
    user_agent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0",
    app_version: "0.1.0",
    notification_opt_in,
  });
const optedIn = async (context: RouterContextProvider, token = TOKEN) =>
  (await callLoader(route, context, `/resources/push-device?token=${encodeURIComponent(token)}`)).data;

describe("/resources/push-device", () => {
  it("answers 'not opted in' for a browser that has no device token yet, or one never registered", async () => {
    expect((await callLoader(route, app.trader, "/resources/push-device")).data).toEqual({
      opt_in: false,
      error: null,
    });
    expect(await optedIn(app.trader, "never-registered")).toEqual({ opt_in: false, error: null });
  });

  it("opts this browser in, and the toggle then reads it as on", async () => {
    const answer = await callAction(route, app.trader, "/resources/push-device", device("1"));
    expect(answer).toMatchObject({ status: 200, data: { ok: true, opt_in: true } });
    expect(await optedIn(app.trader)).toEqual({ opt_in: true, error: null });
    // The record is the trader's: another user's browser with the same token is not opted in by it.
    expect(await optedIn(app.admin)).toEqual({ opt_in: false, error: null });
  });

  it("opts it out again", async () => {
    const answer = await callAction(route, app.trader, "/resources/push-device", device("0"));
    expect(answer).toMatchObject({ status: 200, data: { ok: true, opt_in: false } });
    expect(await optedIn(app.trader)).toEqual({ opt_in: false, error: null });
  });

  it("refuses a record that is not one with 422 and the reason, registering nothing", async () => {
    const missing = await callAction(
      route,
      app.trader,
      "/resources/push-device",
      new Json({ fcm_token: "other-token" }),
    );
    expect(missing.status).toBe(422);
    expect(missing.data).toMatchObject({ ok: false, status: 422 });
    expect((missing.data as { error: string }).error).toMatch(/notification_opt_in/);

    const notJson = await runAction(route, app.trader, post("/resources/push-device", { fcm_token: "other-token" }));
    expect(notJson).toMatchObject({ status: 422, data: { ok: false } });
    expect(await optedIn(app.trader, "other-token")).toEqual({ opt_in: false, error: null });
  });

  it("sends a signed-out request to sign in, registering nothing", async () => {
    const token = "signed-out-token";
    expect(await callLoader(route, signedOut(), `/resources/push-device?token=${token}`)).toMatchObject({
      status: 302,
      location: "/login",
    });
    const answer = await callAction(route, signedOut(), "/resources/push-device", device("1", token));
    expect(answer).toMatchObject({ status: 302, location: "/login" });
    expect(await optedIn(app.trader, token)).toEqual({ opt_in: false, error: null });
  });
});
