import { afterAll, beforeAll, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { raisePositionAlerts } from "#provider/alerts/position-alerts.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { isoDateOf, nyClock } from "#provider/market/calendar.ts";
import type { MarketData } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { resolveExpiries } from "./expiry-resolution.ts";

/**
 * One whole wheel on KO through the provider's calls, with nothing typed twice (issue 41): a put
 * sold from a recommendation; its expiry in the money resolves itself into 100 shares at the strike
 * with the adjusted basis; the covered-call screen lists calls at or above that basis; one is sold;
 * the ex-dividend alert fires on the call; its expiry in the money calls the shares away; the cycle
 * closes with its return. Time is driven by the simulated market's clock and the resolution and
 * alert entry points, each called with that clock; only the expiry closes, the spot and the
 * dividend of KO are set by the test, as a vendor would report them.
 */
let clock = new Date("2026-09-14T16:00:00Z"); // Monday 14 Sep 2026, noon in New York
const closes = new Map<string, number>();
let spot: number | null = null;
let dividend: { date: string; amount: number } | null = null;

const simulated = createSimulatedMarket({ seed: 5, tickers: DEMO_TICKERS, now: () => clock });
const market: MarketData = {
  ...simulated,
  async dailyHistory(ticker, days) {
    const bars = await simulated.dailyHistory(ticker, days);
    if (ticker !== "KO") return bars;
    return bars.map((bar) => (closes.has(bar.time) ? { ...bar, close: closes.get(bar.time)! } : bar));
  },
  async quote(ticker) {
    const quote = await simulated.quote(ticker);
    return ticker === "KO" && spot !== null ? { ...quote, price: spot } : quote;
  },
  async nextExDividend(ticker) {
    return ticker === "KO" && dividend ? dividend : simulated.nextExDividend!(ticker);
  },
};

let provider: TestProvider;
let token: string;
beforeAll(async () => {
  provider = await testProvider({ market });
  const name = "wheeler";
  await provider.call(calls.register, {
    body: {
      email: `${name}@example.test`,
      username: name,
      password: "Passw0rd-wheel",
      first_name: "W",
      last_name: "H",
    },
  });
  token = await provider.login(name, "Passw0rd-wheel");
});
afterAll(() => provider.close());

const api = async <T>(endpoint: Parameters<TestProvider["call"]>[0], input: Parameters<TestProvider["call"]>[1]) => {
  const res = await provider.call(endpoint, { token, ...input });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as T;
};
const journal = async () => calls.getJournal.response.parse(await api(calls.getJournal, {}));
/** After the 16:00 New York close of a day (EDT: 20:00 UTC). */
const afterClose = (date: string) => new Date(`${date}T21:30:00Z`);
const WIDE = {
  delta_min: "0.05",
  delta_max: "0.5",
  dte_min: "5",
  dte_max: "40",
  min_open_interest: "0",
  skip_earnings: "0",
};

it("runs a whole wheel: put, shares at the adjusted basis, a covered call, the ex-dividend alert, called away", async () => {
  const me = await api<{ id: number }>(calls.me, {});
  // KO in the watchlist with recommendations on, and its puts generated.
  const row = await api<{ id: number }>(calls.createUserStock, {
    params: { userId: me.id },
    body: {
      stock: { ticker: "KO", name: "", current_price: 0 },
      // KO is about $70.50 that Monday in the demo market: levels from just above it down.
      base_iv: 80,
      conservative_iv: 75,
      buy_level_one: 72,
      buy_level_two: 70,
      buy_level_three: 68,
      buy_level_four: 66,
    },
  });
  await api(calls.updateUserStock, { params: { id: row.id }, body: { generate_recommendation: true } });
  await api(calls.generateRecommendations, { params: { ticker: "KO" } });
  const puts = await api<TradeRecommendation[]>(calls.tradeRecommendations, { params: { symbol: "KO" }, query: WIDE });
  expect(puts.length).toBeGreaterThan(0);

  // 1. The best put sold as recommended, at its bid, one contract, $0.65.
  const put = puts[0]!;
  await api(calls.addTrade, {
    body: {
      kind: "sell_to_open",
      ticker: "KO",
      option_type: "put",
      strike: put.strike_price,
      expiry: put.expiration_date,
      quantity: 1,
      price: put.current_option_price,
      fees: 0.65,
      traded_at: clock.toISOString(),
    },
  });
  const premium = put.current_option_price * 100 - 0.65;

  // 2. It expires in the money (KO closes $2 under the strike): resolved into 100 shares at the strike.
  closes.set(put.expiration_date, put.strike_price - 2);
  clock = afterClose(put.expiration_date);
  const first = await resolveExpiries(provider.context, { now: clock });
  expect(first.map((r) => r.outcome)).toEqual(["assignment"]);
  let j = await journal();
  const basis = put.strike_price - premium / 100;
  expect(j.share_lots).toEqual([
    { ticker: "KO", shares: 100, average_cost: put.strike_price, adjusted_cost_basis: expect.closeTo(basis, 2) },
  ]);

  // 3. The next Monday: the covered-call screen lists calls at or above that basis.
  clock = new Date(`${isoDateOf(nyClock(clock).dayNumber + 3)}T16:00:00Z`);
  const screen = calls.coveredCalls.response.parse(await api(calls.coveredCalls, { query: WIDE }));
  const ko = screen.holdings.find((h) => h.ticker === "KO")!;
  expect(ko).toMatchObject({ shares: 100, contracts_available: 1, adjusted_basis: expect.closeTo(basis, 2) });
  expect(ko.calls.length, JSON.stringify({ ...ko, calls: undefined })).toBeGreaterThan(0);
  expect(ko.calls.every((c) => c.strike >= basis - 1e-9)).toBe(true);
  const call = ko.calls[0]!;
  expect(call.return_if_called).toBeCloseTo((call.bid + call.strike - basis - 0.0065) / basis, 3);
  expect(call.chance_called).toBeLessThan(call.delta!);

  // 4. Sold as listed, at its bid.
  await api(calls.addTrade, {
    body: {
      kind: "sell_to_open",
      ticker: "KO",
      option_type: "call",
      strike: call.strike,
      expiry: call.expiry,
      quantity: 1,
      price: call.bid,
      fees: 0.65,
      traded_at: clock.toISOString(),
    },
  });

  // 5. KO rises through the strike and goes ex-dividend tomorrow ($3, more than the call's time value):
  // the ex-dividend alert fires on the call.
  spot = call.strike + 4;
  dividend = { date: isoDateOf(nyClock(clock).dayNumber + 1), amount: 3 };
  const alerts = await raisePositionAlerts(provider.context, { now: clock });
  const exDividend = alerts.filter((a) => a.event === "ex_dividend");
  expect(exDividend).toHaveLength(1);
  expect(exDividend[0]!.positionKey).toContain(call.occ_symbol);

  // 6. The call expires in the money (KO closes $3 above the strike): the shares are called away.
  closes.set(call.expiry, call.strike + 3);
  clock = afterClose(call.expiry);
  const second = await resolveExpiries(provider.context, { now: clock });
  expect(second.map((r) => r.outcome)).toEqual(["exercise"]);

  // 7. The cycle is closed with its return, step by step.
  j = await journal();
  expect(j.share_lots).toEqual([]);
  expect(j.open_options).toEqual([]);
  const cycle = j.cycles.find((c) => c.ticker === "KO")!;
  const pnl = premium + (call.bid * 100 - 0.65) + (call.strike - put.strike_price) * 100;
  expect(cycle.closed_at).not.toBeNull();
  expect(cycle.realised_pnl).toBeCloseTo(pnl, 2);
  expect(cycle.annualised_return).toBeGreaterThan(0);
  expect(cycle.steps.map((s) => [s.kind, s.shares])).toEqual([
    ["sell_to_open", 0],
    ["assignment", 100],
    ["sell_to_open", 100],
    ["exercise", 0],
  ]);
  expect(cycle.steps[1]!.adjusted_cost_basis).toBeCloseTo(basis, 2);
  expect(cycle.steps[2]!.adjusted_cost_basis).toBeCloseTo(basis - (call.bid * 100 - 0.65) / 100, 2);
});
