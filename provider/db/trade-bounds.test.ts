import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EXPIRY_FIRST,
  EXPIRY_LAST,
  OPTION_TICKER_MAX,
  PRICE_MAX,
  QUANTITY_MAX,
  STRIKE_MAX,
  STRIKE_MIN,
  TICKER_MAX,
  TRADED_FIRST,
} from "#contract/trade-bounds.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";

/**
 * The database's CHECK constraints on trades (migration 0110) mirror contract/trade-bounds.ts:
 * each bound's last good value is stored and the next one refused by the database itself, so a
 * change to one side alone fails here.
 */
let provider: TestProvider;
let userId: number;
beforeAll(async () => {
  provider = await testProvider();
  const demo = await provider.context.db
    .selectFrom("users")
    .select("id")
    .where("username", "=", "demo")
    .executeTakeFirstOrThrow();
  userId = demo.id;
});
afterAll(() => provider.close());

const option = {
  kind: "sell_to_open",
  ticker: "KO",
  option_type: "put",
  strike: 50,
  expiry: "2026-01-30",
  quantity: 1,
  price: 1,
  fees: 0,
  traded_at: "2026-01-05T12:00:00Z",
};
const stock = { ...option, kind: "stock_buy", option_type: null, strike: null, expiry: null };

async function stored(row: Record<string, unknown>): Promise<boolean> {
  try {
    await provider.context.db
      .insertInto("trades")
      .values({ ...row, user_id: userId } as never)
      .execute();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "23514") return false; // check_violation
    throw error;
  }
}

const dayBefore = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe("trades' CHECK constraints agree with contract/trade-bounds.ts", () => {
  it.each([
    ["a stock ticker", { ...stock, ticker: "A".repeat(TICKER_MAX) }, { ...stock, ticker: "A".repeat(TICKER_MAX + 1) }],
    [
      "an option's ticker",
      { ...option, ticker: "A".repeat(OPTION_TICKER_MAX) },
      { ...option, ticker: "A".repeat(OPTION_TICKER_MAX + 1) },
    ],
    ["the lowest strike", { ...option, strike: STRIKE_MIN }, { ...option, strike: STRIKE_MIN / 2 }],
    ["the highest strike", { ...option, strike: STRIKE_MAX }, { ...option, strike: STRIKE_MAX + 0.001 }],
    ["the first expiry", { ...option, expiry: EXPIRY_FIRST }, { ...option, expiry: dayBefore(EXPIRY_FIRST) }],
    ["the last expiry", { ...option, expiry: EXPIRY_LAST }, { ...option, expiry: dayAfter(EXPIRY_LAST) }],
    ["the highest price", { ...stock, price: PRICE_MAX }, { ...stock, price: PRICE_MAX + 0.01 }],
    ["the highest fees", { ...stock, fees: PRICE_MAX }, { ...stock, fees: PRICE_MAX + 0.01 }],
    ["the largest quantity", { ...stock, quantity: QUANTITY_MAX }, { ...stock, quantity: QUANTITY_MAX + 1 }],
    [
      "the first trade date",
      { ...stock, traded_at: `${TRADED_FIRST}T00:00:00Z` },
      { ...stock, traded_at: `${dayBefore(TRADED_FIRST)}T23:59:59Z` },
    ],
  ])("%s: the bound is stored, past it is refused", async (_name, inside, outside) => {
    expect(await stored(inside)).toBe(true);
    expect(await stored(outside)).toBe(false);
  });
});
