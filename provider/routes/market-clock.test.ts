import { afterAll, beforeAll, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { isoDateOf, nyClock, nyInstant, previousTradingDay } from "#provider/market/calendar.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

/**
 * The provider decides what is today by the market's clock (docs/decisions/0091-one-market-clock.md):
 * a market read at a set instant 60 days after the server's makes a trade dated 30 days from now an
 * ordinary one (the server's clock calls it the future), and the journal, the market status and the
 * days held count from that instant.
 */
const DAY_MS = 86_400_000;
// Noon in New York on a trading day two months after the server's clock.
const clock = nyInstant(previousTradingDay(nyClock(new Date(Date.now() + 60 * DAY_MS)).dayNumber), 12 * 60);
const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => clock });

let provider: TestProvider;
let token: string;
beforeAll(async () => {
  provider = await testProvider({ market });
  await provider.call(calls.register, {
    body: {
      email: "clock@example.test",
      username: "clock",
      password: "Passw0rd-clock",
      first_name: "C",
      last_name: "K",
    },
  });
  token = await provider.login("clock", "Passw0rd-clock");
});
afterAll(() => provider.close());

it("takes a put sold a month from the server's today, and counts its days held to the market's today", async () => {
  const chain = await market.optionChain("KO");
  const expiration = chain.expirations.find((e) => e.expiration > isoDateOf(nyClock(clock).dayNumber + 7))!;
  const strike = expiration.options.find((o) => o.type === "put" && o.strike < chain.spot)!.strike;
  const soldAt = new Date(clock.getTime() - 30 * DAY_MS);
  const added = await provider.call(calls.addTrade, {
    token,
    body: {
      kind: "sell_to_open",
      ticker: "KO",
      option_type: "put",
      strike,
      expiry: expiration.expiration,
      quantity: 1,
      price: 1.1,
      fees: 0.65,
      traded_at: soldAt.toISOString(),
    },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);

  const journal = calls.getJournal.response.parse((await provider.call(calls.getJournal, { token })).body);
  expect(journal.as_of).toBe(clock.toISOString());
  expect(journal.open_options).toMatchObject([{ ticker: "KO", strike, days_held: 30 }]);

  const status = calls.marketStatus.response.parse((await provider.call(calls.marketStatus, {})).body);
  expect(status.now).toBe(clock.toISOString());
});
