import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { dayNumberOf, nyClock } from "#provider/market/calendar.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

let provider: TestProvider;
let counter = 0;

/** A fresh trader per test, so journals do not mix. */
async function trader() {
  const name = `roller${++counter}`;
  await provider.call(calls.register, {
    body: { email: `${name}@example.test`, username: name, password: "Passw0rd-roll", first_name: "R", last_name: "T" },
    headers: { "x-forwarded-for": `198.51.100.${100 + counter}` },
  });
  return provider.login(name, "Passw0rd-roll");
}

beforeAll(async () => {
  provider = await testProvider();
});
afterAll(() => provider.close());

const minuteAgo = () => new Date(Date.now() - 60_000).toISOString();

/** The first listed KO put at or just above the stock (a tested put), from the market's own chain. */
async function testedPut() {
  const chain = await provider.context.market.optionChain("KO");
  const expiration = chain.expirations[0]!;
  const option = expiration.options
    .filter((o) => o.type === "put" && o.strike >= chain.spot)
    .sort((x, y) => x.strike - y.strike)[0]!;
  return { chain, expiry: expiration.expiration, option };
}

async function sell(token: string, trade: Record<string, unknown>) {
  const res = await provider.call(calls.addTrade, {
    token,
    body: { kind: "sell_to_open", ticker: "KO", quantity: 2, fees: 1.3, traded_at: minuteAgo(), ...trade },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as number;
}

describe("roll candidates", () => {
  it("lists later puts at or below the strike for a net credit, ranked, with the close at the ask", async () => {
    const a = await trader();
    const { chain, expiry, option } = await testedPut();
    const id = await sell(a, { option_type: "put", strike: option.strike, expiry, price: option.bid });
    const res = await provider.call(calls.rollCandidates, { token: a, params: { tradeId: id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const rolls = calls.rollCandidates.response.parse(res.body);
    // Sold at the bid, net of $1.30 for 2 contracts: (bid × 200 − 1.30) / 200 a share.
    expect(rolls.position).toMatchObject({
      trade_id: id,
      strike: option.strike,
      expiry,
      contracts: 2,
      close_ask: option.ask,
      tested: true,
    });
    expect(rolls.position.premium_collected).toBeCloseTo((option.bid * 200 - 1.3) / 200, 4);
    // The default commission, $0.65 a contract: closing 2 contracts costs ask × 200 + 1.30.
    expect(rolls.commission).toBe(0.65);
    expect(rolls.closing_cost).toBeCloseTo(option.ask * 200 + 1.3, 2);
    expect(rolls.candidates.length).toBeGreaterThan(0);
    const today = nyClock(new Date()).dayNumber;
    for (const c of rolls.candidates) {
      expect(c.strike).toBeLessThanOrEqual(option.strike);
      expect(dayNumberOf(c.expiry)).toBeGreaterThan(dayNumberOf(expiry));
      expect(dayNumberOf(c.expiry) - today).toBeLessThanOrEqual(90);
      // The quoted bid of that put, less the ask to close and two commissions.
      const quoted = chain.expirations
        .find((e) => e.expiration === c.expiry)!
        .options.find((o) => o.type === "put" && o.strike === c.strike)!;
      expect(c.bid).toBe(quoted.bid);
      expect(c.net_credit).toBeCloseTo(quoted.bid - option.ask - 0.013, 4);
      expect(c.net_credit).toBeGreaterThan(0);
      expect(c.new_breakeven).toBeCloseTo(c.strike - rolls.position.premium_collected - c.net_credit, 2);
    }
    // Ranked by the new breakeven, lowest first.
    const breakevens = rolls.candidates.map((c) => c.new_breakeven!);
    expect(breakevens).toEqual([...breakevens].sort((x, y) => x - y));
    expect(rolls.candidates.map((c) => c.rank)).toEqual(rolls.candidates.map((_, i) => i + 1));
  });

  it("uses the trader's own commission", async () => {
    const a = await trader();
    const saved = calls.traderFilters.response.parse((await provider.call(calls.traderFilters, { token: a })).body);
    expect((await provider.call(calls.saveTraderFilters, { token: a, body: { ...saved, commission: 2 } })).status).toBe(
      200,
    );
    const { expiry, option } = await testedPut();
    const id = await sell(a, { option_type: "put", strike: option.strike, expiry, price: option.bid, quantity: 1 });
    const rolls = calls.rollCandidates.response.parse(
      (await provider.call(calls.rollCandidates, { token: a, params: { tradeId: id } })).body,
    );
    expect(rolls.commission).toBe(2);
    expect(rolls.closing_cost).toBeCloseTo(option.ask * 100 + 2, 2);
    for (const c of rolls.candidates) expect(c.net_credit).toBeCloseTo(c.bid - option.ask - 0.04, 4);
  });

  it("answers 404 to anyone but the trade's owner, admins included", async () => {
    const a = await trader();
    const b = await trader();
    const { expiry, option } = await testedPut();
    const id = await sell(a, { option_type: "put", strike: option.strike, expiry, price: option.bid });
    const other = await provider.call(calls.rollCandidates, { token: b, params: { tradeId: id } });
    expect(other.status).toBe(404);
    expect(other.body.detail).toBe("Trade not found");
    const admin = await provider.login("admin", "admin1234");
    expect((await provider.call(calls.rollCandidates, { token: admin, params: { tradeId: id } })).status).toBe(404);
    expect((await provider.call(calls.rollCandidates, { params: { tradeId: id } })).status).toBe(401);
  });

  it("refuses a closed put (409) or a stock trade (422), with a readable detail", async () => {
    const a = await trader();
    const { expiry, option } = await testedPut();
    const id = await sell(a, { option_type: "put", strike: option.strike, expiry, price: option.bid, quantity: 1 });
    const closed = await provider.call(calls.addTrade, {
      token: a,
      body: {
        kind: "buy_to_close",
        ticker: "KO",
        option_type: "put",
        strike: option.strike,
        expiry,
        quantity: 1,
        price: option.ask,
        fees: 0.65,
        traded_at: new Date().toISOString(),
      },
    });
    expect(closed.status).toBe(200);
    const res = await provider.call(calls.rollCandidates, { token: a, params: { tradeId: id } });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain("no longer open");

    const stock = await provider.call(calls.addTrade, {
      token: a,
      body: { kind: "stock_buy", ticker: "KO", quantity: 100, price: 60, fees: 1, traded_at: minuteAgo() },
    });
    expect(stock.status).toBe(200);
    const forStock = await provider.call(calls.rollCandidates, { token: a, params: { tradeId: stock.body.id } });
    expect(forStock.status).toBe(422);
    expect(forStock.body.detail).toContain("not a sell-to-open of a put or call");
  });

  it("rolls a covered call up and out: later calls at or above the strike, by the gain if called away", async () => {
    const a = await trader();
    const chain = await provider.context.market.optionChain("KO");
    const expiration = chain.expirations[0]!;
    // The first listed call at or just below the stock: a tested call.
    const option = expiration.options
      .filter((o) => o.type === "call" && o.strike <= chain.spot)
      .sort((x, y) => y.strike - x.strike)[0]!;
    const bought = await provider.call(calls.addTrade, {
      token: a,
      body: { kind: "stock_buy", ticker: "KO", quantity: 200, price: 60, fees: 1, traded_at: minuteAgo() },
    });
    expect(bought.status).toBe(200);
    const id = await sell(a, {
      option_type: "call",
      strike: option.strike,
      expiry: expiration.expiration,
      price: option.bid,
    });
    const res = await provider.call(calls.rollCandidates, { token: a, params: { tradeId: id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rolls = calls.rollCandidates.response.parse(res.body);
    // The shares cost 60 a share plus $1 over 200; the call's premium, net of $1.30, lowers the basis.
    const basis = (60 * 200 + 1 - (option.bid * 200 - 1.3)) / 200;
    expect(rolls.position).toMatchObject({ option_type: "call", tested: true, close_ask: option.ask });
    expect(rolls.position.adjusted_cost_basis).toBeCloseTo(basis, 2);
    expect(rolls.candidates.length).toBeGreaterThan(0);
    for (const c of rolls.candidates) {
      expect(c.occ_symbol).toContain("C");
      expect(c.strike).toBeGreaterThanOrEqual(option.strike);
      expect(c.new_breakeven).toBeNull();
      expect(c.gain_if_called_away).toBeCloseTo(c.strike + c.net_credit - basis, 1);
    }
    const gains = rolls.candidates.map((c) => c.gain_if_called_away!);
    expect(gains).toEqual([...gains].sort((x, y) => y - x));
    // The journal flags the tested call, so /portfolio offers its roll.
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token: a })).body);
    expect(journal.open_options.find((o) => o.option_type === "call")).toMatchObject({ tested: true });
  });

  it("marks a tested put on the journal's open positions", async () => {
    const a = await trader();
    const { expiry, option } = await testedPut();
    await sell(a, { option_type: "put", strike: option.strike, expiry, price: option.bid });
    const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token: a })).body);
    expect(journal.open_options[0]).toMatchObject({ strike: option.strike, tested: true });
  });
});
