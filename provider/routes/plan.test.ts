import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DEFAULT_CAPITAL_SETTINGS } from "#contract/plan.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { weeklyExpiryIn } from "#provider/testing/expiries.ts";

let provider: TestProvider;
let counter = 0;

/** A fresh trader per test, so books do not mix. */
async function trader() {
  const name = `plan${++counter}`;
  await provider.call(calls.register, {
    body: { email: `${name}@example.test`, username: name, password: "Passw0rd-plan", first_name: "P", last_name: "T" },
    headers: { "x-forwarded-for": `198.51.100.${counter}` },
  });
  return provider.login(name, "Passw0rd-plan");
}

beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

const DAY = 86_400_000;
const sold = (ticker: string, strike: number, contracts: number, price: number) => ({
  kind: "sell_to_open",
  ticker,
  option_type: "put",
  strike,
  expiry: weeklyExpiryIn(40),
  quantity: contracts,
  price,
  fees: 1,
  traded_at: new Date(Date.now() - 2 * DAY).toISOString(),
});
const SETTINGS = { capital: 60_000, reserve_share: 0, ticker_limit: 0.25, sector_limit: 0.4, only_fitting: true };

describe("capital settings", () => {
  it("are the defaults (capital not set) until saved, then the caller's own", async () => {
    const a = await trader();
    const b = await trader();
    expect((await provider.call(calls.capitalSettings, { token: a })).body).toEqual(DEFAULT_CAPITAL_SETTINGS);
    const saved = await provider.call(calls.saveCapitalSettings, { token: a, body: SETTINGS });
    expect(saved.status).toBe(200);
    expect((await provider.call(calls.capitalSettings, { token: a })).body).toEqual(SETTINGS);
    expect((await provider.call(calls.capitalSettings, { token: b })).body).toEqual(DEFAULT_CAPITAL_SETTINGS);
  });

  it("refuses values outside the bounds with a readable detail, and keeps what was saved", async () => {
    const a = await trader();
    await provider.call(calls.saveCapitalSettings, { token: a, body: SETTINGS });
    const bad = [
      [{ capital: 999 }, "Capital for selling puts must be from $1,000 to $100,000,000, or empty"],
      [{ capital: 100_000_001 }, "Capital for selling puts must be from $1,000 to $100,000,000, or empty"],
      [{ reserve_share: 0.95 }, "Cash reserve must be from 0% to 90% of capital"],
      [{ reserve_share: -0.01 }, "Cash reserve must be from 0% to 90% of capital"],
      [{ ticker_limit: 0 }, "Maximum per ticker must be from 1% to 100% of capital"],
      [{ sector_limit: 1.5 }, "Maximum per sector must be from 1% to 100% of capital"],
    ] as const;
    for (const [change, detail] of bad) {
      const res = await provider.call(calls.saveCapitalSettings, { token: a, body: { ...SETTINGS, ...change } });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body.detail).toContain(detail);
    }
    expect((await provider.call(calls.capitalSettings, { token: a })).body).toEqual(SETTINGS);
  });

  it("the table refuses what the contract refuses, whoever writes it", async () => {
    const a = await trader();
    const me = (await provider.call(calls.me, { token: a })).body as { id: number };
    const db = provider.context.db;
    for (const bad of [
      { capital: 999 },
      { capital: 100_000_001 },
      { reserve_share: 0.91 },
      { ticker_limit: 0.009 },
      { sector_limit: 1.01 },
    ]) {
      await expect(
        db
          .insertInto("capital_settings")
          .values({ user_id: me.id, ...SETTINGS, ...bad })
          .execute(),
        JSON.stringify(bad),
      ).rejects.toThrow(/check constraint/i);
    }
    await db
      .insertInto("capital_settings")
      .values({ user_id: me.id, ...SETTINGS, capital: null })
      .execute();
    expect((await provider.call(calls.capitalSettings, { token: a })).body).toMatchObject({ capital: null });
  });

  it("holds fifty saves at once: one row, one of the values sent", async () => {
    const a = await trader();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        provider.call(calls.saveCapitalSettings, { token: a, body: { ...SETTINGS, capital: 10_000 + i } }),
      ),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const now = (await provider.call(calls.capitalSettings, { token: a })).body as { capital: number };
    expect(now.capital).toBeGreaterThanOrEqual(10_000);
    expect(now.capital).toBeLessThan(10_050);
  });
});

describe("the plan", () => {
  it("adds up the open puts' collateral against capital, with sectors from the market source", async () => {
    const a = await trader();
    await provider.call(calls.saveCapitalSettings, { token: a, body: SETTINGS });
    const first = await provider.call(calls.addTrade, { token: a, body: sold("AAPL", 200, 2, 1.5) });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect((await provider.call(calls.addTrade, { token: a, body: sold("KO", 55, 1, 0.8) })).status).toBe(200);
    const res = await provider.call(calls.plan, { token: a, query: { move: "-0.5" } });
    expect(res.status).toBe(200);
    const plan = calls.plan.response.parse(res.body);
    // The issue's own book: 200 × 100 × 2 + 55 × 100 × 1 = 45,500 committed of 60,000; 14,500 free
    expect(plan.committed).toBe(45_500);
    expect(plan.free_cash).toBe(14_500);
    expect(plan.exposures.map((e) => [e.ticker, e.sector, e.cost_if_assigned])).toEqual([
      ["AAPL", "Information Technology", 40_000],
      ["KO", "Consumer Staples", 5_500],
    ]);
    // AAPL: 40,000 ÷ 60,000 = 67 % of capital, over the 25 % limit
    expect(plan.exposures[0]).toMatchObject({ share_of_capital: 0.6667, over_limit: true });
    expect(plan.scenarios.map((s) => s.move)).toEqual([-0.05, -0.1, -0.2, -0.5]);
    expect(plan.scenarios[3]!.custom).toBe(true);
  });

  it("refuses a custom move out of bounds", async () => {
    const a = await trader();
    const res = await provider.call(calls.plan, { token: a, query: { move: "-2" } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("The market move must be from −90% to +50%");
  });

  it("a trader's own sector wins over the source's, and an empty one goes back to it", async () => {
    const a = await trader();
    const ko = await provider.call(calls.addTrade, { token: a, body: sold("KO", 55, 1, 0.8) });
    expect(ko.status, JSON.stringify(ko.body)).toBe(200);
    await provider.call(calls.saveSectorOverride, { token: a, params: { ticker: "KO" }, body: { sector: "Drinks" } });
    const own = calls.plan.response.parse((await provider.call(calls.plan, { token: a })).body);
    expect(own.exposures[0]!.sector).toBe("Drinks");
    await provider.call(calls.saveSectorOverride, { token: a, params: { ticker: "KO" }, body: { sector: "" } });
    const back = calls.plan.response.parse((await provider.call(calls.plan, { token: a })).body);
    expect(back.exposures[0]!.sector).toBe("Consumer Staples");
  });
});

describe("fits and best puts over the demo's recommendations", () => {
  let seeded: TestProvider;
  beforeAll(async () => {
    seeded = await testProvider({ seedRecommendations: true });
  });
  afterAll(() => seeded.close());

  it("the demo trader's plan has capital, and the best puts' running total never passes the free cash", async () => {
    const token = await seeded.login("demo", "demo1234");
    const plan = calls.plan.response.parse((await seeded.call(calls.plan, { token })).body);
    expect(plan.settings.capital).toBe(250_000);
    const best = calls.bestPuts.response.parse((await seeded.call(calls.bestPuts, { token })).body);
    expect(best.free_cash).toBe(plan.free_cash);
    expect(best.picks.length).toBeGreaterThan(0);
    const tickers = best.picks.map((p) => p.fit.ticker);
    expect(new Set(tickers).size).toBe(tickers.length);
    let total = 0;
    for (const pick of best.picks) {
      total += pick.recommendation.strike_price * 100;
      expect(pick.running_total).toBeCloseTo(total, 2);
      expect(pick.running_total).toBeLessThanOrEqual(best.free_cash!);
      expect(pick.fit.fits).toBe(true);
    }
    // Ranked by the trader's own score, best first.
    const scores = best.picks.map((p) => p.recommendation.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("a put bigger than the free cash is marked as not fitting, by cash, with no contract allowed", async () => {
    const name = "smallbook";
    await seeded.call(calls.register, {
      body: {
        email: `${name}@example.test`,
        username: name,
        password: "Passw0rd-plan",
        first_name: "S",
        last_name: "B",
      },
    });
    const token = await seeded.login(name, "Passw0rd-plan");
    const demo = await seeded.login("demo", "demo1234");
    // The first flagged tech stock with puts passing the demo's filters today (every one is over $4,500 a contract).
    let aapl: TradeRecommendation[] = [];
    for (const symbol of ["AAPL", "MSFT", "GOOGL"]) {
      aapl = calls.tradeRecommendations.response.parse(
        (await seeded.call(calls.tradeRecommendations, { token: demo, params: { symbol } })).body,
      );
      if (aapl.length > 0) break;
    }
    expect(aapl.length).toBeGreaterThan(0);
    const ids = aapl.map((r) => r.id).join(",");
    const unset = calls.planFits.response.parse((await seeded.call(calls.planFits, { token, query: { ids } })).body);
    expect(unset).toMatchObject({ capital: null, free_cash: null, fits: [] });
    await seeded.call(calls.saveCapitalSettings, {
      token,
      body: { capital: 5_000, reserve_share: 0.1, ticker_limit: 0.25, sector_limit: 0.4, only_fitting: true },
    });
    const res = calls.planFits.response.parse((await seeded.call(calls.planFits, { token, query: { ids } })).body);
    expect(res.free_cash).toBe(4_500);
    expect(res.fits).toHaveLength(aapl.length);
    for (const fit of res.fits) {
      const strike = aapl.find((r) => r.id === fit.id)!.strike_price;
      expect(fit.collateral_per_contract).toBeCloseTo(strike * 100, 2);
      expect(fit).toMatchObject({
        by_cash: 0,
        contracts_allowed: 0,
        fits: false,
        sector: expect.stringMatching(/^(Information Technology|Communication Services)$/),
      });
    }
    const best = calls.bestPuts.response.parse((await seeded.call(calls.bestPuts, { token })).body);
    expect(best.picks).toEqual([]);
  });
});
