import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DEFAULT_CALL_FILTERS } from "#contract/call-filter-labels.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

let provider: TestProvider;
let counter = 0;

/** A fresh trader per test, so journals do not mix. */
async function trader() {
  const name = `writer${++counter}`;
  await provider.call(calls.register, {
    body: { email: `${name}@example.test`, username: name, password: "Passw0rd-call", first_name: "C", last_name: "W" },
    headers: { "x-forwarded-for": `198.51.100.${150 + counter}` },
  });
  return provider.login(name, "Passw0rd-call");
}

beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

async function add(token: string, trade: Record<string, unknown>) {
  const res = await provider.call(calls.addTrade, { token, body: { fees: 0.65, traded_at: minutesAgo(5), ...trade } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/**
 * 200 KO bought at $66.00 (fees $0.65), then one KO call sold at $1.00 (fees $0.65): the journal's
 * adjusted basis is (13,200.65 − 99.35) ÷ 200 = $65.5065, one contract left to cover.
 */
async function holdKo(token: string) {
  const chain = await provider.context.market.optionChain("KO");
  const soonest = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const expiration = chain.expirations.find((e) => e.expiration > soonest)!;
  const strike = expiration.options.find((o) => o.type === "call" && o.strike > chain.spot)!.strike;
  await add(token, { kind: "stock_buy", ticker: "KO", quantity: 200, price: 66, traded_at: minutesAgo(10) });
  await add(token, {
    kind: "sell_to_open",
    ticker: "KO",
    option_type: "call",
    strike,
    expiry: expiration.expiration,
    quantity: 1,
    price: 1,
  });
}

const screen = async (token: string, query: Record<string, string> = {}) => {
  const res = await provider.call(calls.coveredCalls, { token, query });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return calls.coveredCalls.response.parse(res.body);
};

describe("GET /api/covered-calls", () => {
  it("lists calls against the shares held, at or above the adjusted basis, with their figures", async () => {
    const token = await trader();
    await holdKo(token);
    // Wide enough that the simulated KO chain has calls to show.
    const answer = await screen(token, { delta_min: "0.05", delta_max: "0.5", min_open_interest: "0", dte_max: "90" });
    expect(answer.commission).toBe(0.65);
    expect(answer.holdings).toHaveLength(1);
    const ko = answer.holdings[0]!;
    expect(ko).toMatchObject({
      ticker: "KO",
      shares: 200,
      average_cost: 66,
      adjusted_basis: 65.51,
      open_call_contracts: 1,
      contracts_available: 1,
      error: null,
    });
    expect(ko.ex_dividend).toEqual(await provider.context.market.nextExDividend!("KO"));
    expect(ko.calls.length).toBeGreaterThan(0);
    for (const call of ko.calls) {
      expect(call.strike).toBeGreaterThanOrEqual(65.5065);
      // (bid + strike − basis − 0.65 ÷ 100) ÷ basis, the basis unrounded.
      expect(call.return_if_called).toBeCloseTo((call.bid + call.strike - 65.5065 - 0.0065) / 65.5065, 6);
      expect(call.chance_called).toBeGreaterThan(0);
      expect(call.chance_called!).toBeLessThan(call.delta!);
      expect(call.occ_symbol).toMatch(/^KO\d{6}C\d{8}$/);
    }
  });

  it("shows a trader only their own holdings", async () => {
    const owner = await trader();
    await holdKo(owner);
    expect((await screen(await trader())).holdings).toEqual([]);
  });

  it("answers a filter the form cannot take with its label and bounds, changing nothing", async () => {
    const token = await trader();
    const res = await provider.call(calls.coveredCalls, { token, query: { dte_min: "40", dte_max: "20" } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: "'Days to expiry from' must not be above 'Days to expiry to'." });
    const word = await provider.call(calls.coveredCalls, { token, query: { min_bid: "a dime" } });
    expect(word.status).toBe(422);
    expect(word.body.detail).toContain("'Minimum bid ($)' must be a number.");
  });
});

describe("call filters", () => {
  const saved = async (token: string) =>
    calls.callFilters.response.parse((await provider.call(calls.callFilters, { token })).body);

  it("start at the defaults: at or above the basis, |delta| 0.15–0.35, 7–45 days", async () => {
    expect(await saved(await trader())).toEqual(DEFAULT_CALL_FILTERS);
  });

  it("are saved per trader, and the screen applies them", async () => {
    const token = await trader();
    const mine = { ...DEFAULT_CALL_FILTERS, at_or_above_basis: false, dte_max: 30 };
    const res = await provider.call(calls.saveCallFilters, { token, body: mine });
    expect(res.status).toBe(200);
    expect(await saved(token)).toEqual(mine);
    expect((await screen(token)).filters).toEqual(mine);
    expect(await saved(await trader())).toEqual(DEFAULT_CALL_FILTERS);
  });

  it("refuse a bad value with the form's sentence and save nothing", async () => {
    const token = await trader();
    const res = await provider.call(calls.saveCallFilters, {
      token,
      body: { ...DEFAULT_CALL_FILTERS, max_spread: 0.9 },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toContain("'Maximum spread (% of mid)' must be from 1% to 50% of the mid.");
    expect(await saved(token)).toEqual(DEFAULT_CALL_FILTERS);
  });

  it("fifty saves at once all land, and one row is kept", async () => {
    const token = await trader();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        provider.call(calls.saveCallFilters, { token, body: { ...DEFAULT_CALL_FILTERS, dte_max: 10 + i } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const count = await provider.context.db
      .selectFrom("call_filters")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .innerJoin("users", "users.id", "call_filters.user_id")
      .where("users.username", "=", `writer${counter}`)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });
});
