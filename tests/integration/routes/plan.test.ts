import { beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { CAPITAL_SETTINGS_TEXT } from "#app/routes/profile/capital-settings.ts";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";
import { userCall } from "#app/server/auth.server.ts";
import { callProvider } from "#app/server/provider.server.ts";
import * as profileRoute from "#app/routes/profile/route.tsx";
import * as planRoute from "#app/routes/plan/route.tsx";
import * as insightsRoute from "#app/routes/insights/route.tsx";
import * as detailRoute from "#app/routes/recommendation.$id/route.tsx";
import type { FitMark } from "#app/lib/plan-fit.ts";
import { PLAN_INTENT } from "#app/routes/plan/intents.ts";
import { PLAN_TEXT } from "#app/routes/plan/server.ts";
import { callAction, callLoader, routeHarnessForFile } from "../../support/app-routes.ts";
import type { RouterContextProvider } from "react-router";
import { weeklyExpiryIn } from "#provider/testing/expiries.ts";

/** The capital settings form on /profile and the /plan screen (ADR 0081), through the route modules. */
const app = routeHarnessForFile();
let counter = 0;
let trader: RouterContextProvider;

async function freshTrader() {
  const name = `planroute${++counter}`;
  await callProvider(calls.register, {
    body: { email: `${name}@example.test`, username: name, password: "Passw0rd-plan", first_name: "P", last_name: "R" },
  });
  return app.signIn(name, "Passw0rd-plan");
}

const DAY = 86_400_000;
const sold = (ticker: string, strike: number, contracts: number) => ({
  kind: "sell_to_open" as const,
  ticker,
  option_type: "put" as const,
  strike,
  expiry: weeklyExpiryIn(40),
  quantity: contracts,
  price: 1.5,
  fees: 1,
  traded_at: new Date(Date.now() - DAY).toISOString(),
});
const FIELDS = { capital: "60000", reserve_share: "0", ticker_limit: "25", sector_limit: "40", only_fitting: "on" };

beforeAll(async () => {
  trader = await freshTrader();
});

describe("capital settings on /profile", () => {
  it("keeps refused values on the form with the field's error, saving nothing", async () => {
    for (const [field, value, error] of [
      ["capital", "500", "Capital for selling puts must be from $1,000 to $100,000,000, or empty"],
      ["reserve_share", "95", "Cash reserve must be from 0% to 90% of capital"],
      ["ticker_limit", "0", "Maximum per ticker must be from 1% to 100% of capital"],
      ["sector_limit", "abc", "Maximum per sector must be a number"],
    ] as const) {
      const refused = await callAction(profileRoute, trader, "/profile", {
        intent: PROFILE_INTENT.capitalSettings,
        ...FIELDS,
        [field]: value,
      });
      expect(refused.status, field).toBe(400);
      const reply = (refused.data as { capitalSettings: { initialValue: object; error: Record<string, string[]> } })
        .capitalSettings;
      expect(reply.initialValue).toMatchObject({ ...FIELDS, [field]: value });
      expect(reply.error[field]).toEqual([error]);
    }
    expect((await userCall(trader, calls.capitalSettings)).capital).toBeNull();
  });

  it("saves good values as fractions, and an empty capital as not set", async () => {
    const saved = await callAction(profileRoute, trader, "/profile", {
      intent: PROFILE_INTENT.capitalSettings,
      ...FIELDS,
    });
    expect(saved).toMatchObject({ status: 302, toast: { type: "success", text: CAPITAL_SETTINGS_TEXT.saved } });
    expect(await userCall(trader, calls.capitalSettings)).toEqual({
      capital: 60_000,
      reserve_share: 0,
      ticker_limit: 0.25,
      sector_limit: 0.4,
      only_fitting: true,
    });
    const other = await freshTrader();
    await callAction(profileRoute, other, "/profile", {
      intent: PROFILE_INTENT.capitalSettings,
      ...FIELDS,
      capital: "",
      only_fitting: [],
    });
    expect(await userCall(other, calls.capitalSettings)).toMatchObject({ capital: null, only_fitting: false });
  });
});

interface PlanPage {
  plan: {
    committed: number;
    free_cash: number | null;
    exposures: { ticker: string; sector: string }[];
    scenarios: { move: number }[];
  } | null;
  custom: { typed: string; error: string | null };
}

describe("/plan", () => {
  it("shows the committed collateral and free cash of the trader's open puts", async () => {
    await userCall(trader, calls.saveCapitalSettings, {
      body: { capital: 60_000, reserve_share: 0, ticker_limit: 0.25, sector_limit: 0.4, only_fitting: true },
    });
    await userCall(trader, calls.addTrade, { body: sold("KO", 50, 2) });
    await userCall(trader, calls.addTrade, { body: sold("PEP", 120, 1) });
    const page = (await callLoader(planRoute, trader, "/plan?move=-15")).data as PlanPage;
    // 50 × 100 × 2 + 120 × 100
    expect(page.plan!.committed).toBe(22_000);
    expect(page.plan!.free_cash).toBe(38_000);
    expect(page.plan!.scenarios.map((s) => s.move)).toEqual([-0.05, -0.1, -0.2, -0.15]);
  });

  it("keeps a custom move it cannot use, with its error, and shows the standard scenarios", async () => {
    const page = (await callLoader(planRoute, trader, "/plan?move=-200")).data as PlanPage;
    expect(page.custom).toEqual({ typed: "-200", error: PLAN_TEXT.moveRange });
    expect(page.plan!.scenarios).toHaveLength(3);
  });

  it("saves the trader's own sector of a ticker, and refuses a name too long with the typed text kept", async () => {
    const saved = await callAction(planRoute, trader, "/plan", {
      intent: PLAN_INTENT.sector,
      ticker: "KO",
      sector: "Drinks",
    });
    expect(saved).toMatchObject({ status: 302, toast: { type: "success", text: PLAN_TEXT.sectorSaved("KO") } });
    const page = (await callLoader(planRoute, trader, "/plan")).data as PlanPage;
    expect(page.plan!.exposures.find((e) => e.ticker === "KO")!.sector).toBe("Drinks");
    const long = "x".repeat(41);
    const refused = await callAction(planRoute, trader, "/plan", {
      intent: PLAN_INTENT.sector,
      ticker: "KO",
      sector: long,
    });
    expect(refused.status).toBe(400);
    expect(refused.data).toEqual({ sector: { error: PLAN_TEXT.sectorTooLong, ticker: "KO", typed: long } });
  });
});

describe("fit marks on the demo trader's recommendations", () => {
  it("marks each of the open stock's puts, and the option detail sizes one by the plan's limits", async () => {
    await userCall(app.trader, calls.generateRecommendations, { params: { ticker: "AAPL" } });
    const page = (await callLoader(insightsRoute, app.trader, "/insights?open=AAPL")).data as {
      options: { id: number; strike_price: number }[] | null;
      plan: { book: { capital: number; free_cash: number }; marks: Record<number, FitMark> } | null;
    };
    const options = page.options ?? [];
    expect(options.length).toBeGreaterThan(0);
    // The demo trader's plan: $250,000 with 10 % kept free, 25 % a ticker (ADR 0081).
    expect(page.plan!.book).toMatchObject({ capital: 250_000, free_cash: 225_000 });
    for (const o of options) {
      const mark = page.plan!.marks[o.id]!;
      expect(mark.fits).toBe(true);
      const cash = Math.round(o.strike_price * 100).toLocaleString("en-US");
      expect(mark.notes).toEqual([`uses $${cash} of your $225,000 free`]);
      // The least of cash ⌊225,000 ÷ (strike × 100)⌋, ticker ⌊62,500 ÷ …⌋ and sector ⌊100,000 ÷ …⌋: the ticker's.
      expect(mark.contracts_allowed).toBe(Math.floor(62_500 / (o.strike_price * 100)));
    }
    const [first] = options;
    const detailPage = (
      await callLoader(detailRoute, app.trader, `/recommendation/${first!.id}`, { id: String(first!.id) })
    ).data as { planFit: { marks: Record<number, FitMark> } | null };
    const n = Math.floor(62_500 / (first!.strike_price * 100));
    expect(detailPage.planFit!.marks[first!.id]!.sizing).toMatch(
      new RegExp(`^Your plan allows ${n} contracts? \\(held by your ticker limit: `),
    );
  });
});
