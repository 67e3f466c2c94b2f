import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { callProvider } from "#app/server/provider.server.ts";
import { userCall } from "#app/server/auth.server.ts";
import * as brokerRoute from "#app/routes/broker/route.tsx";
import { BROKER_INTENT } from "#app/routes/broker/intents.ts";
import { BROKER_TEXT } from "#app/routes/broker/server.ts";
import {
  FAKE_TRADIER_TOKEN,
  FAKE_TRADIER_TWO_ACCOUNTS_TOKEN,
  startTradierFake,
  type TradierFake,
} from "#provider/market/testing/tradier-fake.ts";
import { callAction, callLoader, startRouteHarness, type RouteHarness } from "../../support/app-routes.ts";

/** /broker through its route module, one test per intent, against the fake Tradier (issue 43). */
let fake: TradierFake;
let app: RouteHarness;
let counter = 0;

beforeAll(async () => {
  fake = await startTradierFake();
  app = await startRouteHarness({ tradierBrokerageUrl: fake.baseUrl });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

async function freshTrader(): Promise<RouterContextProvider> {
  const name = `brokerroute${++counter}`;
  await callProvider(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-broker",
      first_name: "B",
      last_name: "R",
    },
  });
  return app.signIn(name, "Passw0rd-broker");
}

describe("/broker", () => {
  it("shows the connect form to a trader with no connection", async () => {
    const trader = await freshTrader();
    const page = await callLoader(brokerRoute, trader, "/broker");
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ connection: null, error: null });
    expect(page.headers.get("cache-control")).toBe("no-store");
  });

  it("connect: a refused token answers Tradier's sentence and keeps no value, storing nothing", async () => {
    const trader = await freshTrader();
    const refused = await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.connect, token: "wrong" });
    expect(refused.status).toBe(422);
    expect(refused.data).toEqual({
      form: "connect",
      error: "Tradier refused the token: connect again with a new access token",
    });
    const empty = await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.connect, token: "  " });
    expect(empty).toMatchObject({ status: 400, data: { form: "connect", error: "Paste your Tradier access token" } });
    expect((await userCall(trader, calls.tradierConnection)).connection).toBeNull();
  });

  it("connect: a good token connects its one account, with a toast naming it masked", async () => {
    const trader = await freshTrader();
    const done = await callAction(brokerRoute, trader, "/broker", {
      intent: BROKER_INTENT.connect,
      token: FAKE_TRADIER_TOKEN,
    });
    expect(done).toMatchObject({
      status: 302,
      location: "/broker",
      toast: { type: "success", text: BROKER_TEXT.connected("••••1111") },
    });
    const page = await callLoader(brokerRoute, trader, "/broker");
    expect(JSON.stringify(page.data)).not.toContain(FAKE_TRADIER_TOKEN);
    expect(page.data).toMatchObject({ connection: { account: "••••1111" }, syncedAt: null });
  });

  it("account: a token of two accounts asks which; a pick is saved, one not listed refused", async () => {
    const trader = await freshTrader();
    const connected = await callAction(brokerRoute, trader, "/broker", {
      intent: BROKER_INTENT.connect,
      token: FAKE_TRADIER_TWO_ACCOUNTS_TOKEN,
    });
    expect(connected.toast).toEqual({ type: "success", text: BROKER_TEXT.chooseAccount });
    const other = await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.account, account: "VA3" });
    expect(other).toMatchObject({
      status: 422,
      data: { form: "account", error: "That is not one of this token's Tradier accounts" },
    });
    const picked = await callAction(brokerRoute, trader, "/broker", {
      intent: BROKER_INTENT.account,
      account: "VA00002222",
    });
    expect(picked).toMatchObject({ status: 302, toast: { text: BROKER_TEXT.accountChosen("••••2222") } });
    expect((await userCall(trader, calls.tradierConnection)).connection?.account).toBe("••••2222");
  });

  it("sync: imports the history with a toast counting it; again, nothing new", async () => {
    const trader = await freshTrader();
    await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.connect, token: FAKE_TRADIER_TOKEN });
    const first = await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.sync });
    expect(first).toMatchObject({
      status: 302,
      toast: { type: "success", text: "6 trades added, 0 already there, 3 lines not trades" },
    });
    const second = await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.sync });
    expect(second.toast?.text).toMatch(/^Nothing new, /);
    expect((await userCall(trader, calls.getJournal)).rows).toHaveLength(6);
    const page = await callLoader(brokerRoute, trader, "/broker");
    expect((page.data as { summary: string }).summary).toMatch(/^Nothing new, /);
  });

  it("sync: before connecting, the toast says to connect first", async () => {
    const trader = await freshTrader();
    const refused = await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.sync });
    expect(refused).toMatchObject({
      status: 302,
      toast: { type: "error", text: "Connect your Tradier account first" },
    });
  });

  it("remove: deletes the connection, with a toast saying the token is gone", async () => {
    const trader = await freshTrader();
    await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.connect, token: FAKE_TRADIER_TOKEN });
    const removed = await callAction(brokerRoute, trader, "/broker", { intent: BROKER_INTENT.remove });
    expect(removed).toMatchObject({ status: 302, toast: { type: "success", text: BROKER_TEXT.removed } });
    expect((await userCall(trader, calls.tradierConnection)).connection).toBeNull();
  });

  it("an unknown intent is a 400 and changes nothing", async () => {
    const trader = await freshTrader();
    const odd = await callAction(brokerRoute, trader, "/broker", { intent: "nope" });
    expect(odd.status).toBe(400);
  });
});
