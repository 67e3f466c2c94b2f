import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { SAMPLE_LEVELS, testProvider, type TestProvider } from "#provider/testing/provider.ts";

/** A ticker the market knows but the demo data never stored, to see a new `stocks` row made. */
const NEW_TICKER = { ticker: "ZZNEW", name: "Zed New Holdings Inc.", price: 42.5, volatility: 0.3 };

let provider: TestProvider;
let demo: { token: string; id: number };
let admin: { token: string; id: number };
/** A second trader, registered for these tests: never sees the demo trader's rows, nor they theirs. */
let other: { token: string; id: number };

const values = SAMPLE_LEVELS;

async function listOf(user: { token: string; id: number }) {
  const res = await provider.call(calls.listUserStocks, { token: user.token, params: { userId: user.id } });
  expect(res.status).toBe(200);
  return calls.listUserStocks.response.parse(res.body);
}

async function add(user: { token: string; id: number }, ticker: string, body: Partial<typeof values> = {}) {
  return provider.call(calls.createUserStock, {
    token: user.token,
    params: { userId: user.id },
    body: { ...values, ...body, stock: { ticker, name: "", current_price: 0 } },
  });
}

beforeAll(async () => {
  provider = await testProvider({
    market: createSimulatedMarket({ seed: 1, tickers: [...DEMO_TICKERS, NEW_TICKER] }),
  });
  demo = await provider.session("demo", "demo1234");
  admin = await provider.session("admin", "admin1234");
  const registered = await provider.call(calls.register, {
    body: {
      email: "other@example.com",
      username: "othertrader",
      password: "Other-trader-1234",
      first_name: "Olive",
      last_name: "Other",
    },
  });
  expect(registered.status).toBe(200);
  other = await provider.session("othertrader", "Other-trader-1234");
});
afterAll(() => provider.close());

describe("GET /api/user-stocks/{userId}", () => {
  it("lists the user's watchlist ascending by sort_order, valid against the contract", async () => {
    const rows = await listOf(demo);
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.map((r) => r.sort_order)).toEqual([...rows.map((r) => r.sort_order)].sort((a, b) => a - b));
    for (const row of rows) expect(row.average_iv).toBeCloseTo((row.base_iv + row.conservative_iv) / 2, 6);
  });

  it("never shows one trader another user's watchlist", async () => {
    const res = await provider.call(calls.listUserStocks, { token: demo.token, params: { userId: admin.id } });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).not.toContain("ticker");
    const byOther = await provider.call(calls.listUserStocks, { token: other.token, params: { userId: demo.id } });
    expect(byOther.status).toBe(403);
    expect(JSON.stringify(byOther.body)).not.toContain("ticker");
  });

  it("needs a token", async () => {
    const res = await provider.call(calls.listUserStocks, { params: { userId: demo.id } });
    expect(res.status).toBe(401);
  });
});

describe("POST /api/user-stock/{userId}", () => {
  it("adds a known stock at the end of the list with the provider's average IV", async () => {
    const before = await listOf(other);
    const res = await add(other, "nvda");
    expect(res.status).toBe(200);
    const row = calls.createUserStock.response.parse(res.body);
    expect(row.stock.ticker).toBe("NVDA");
    expect(row.stock.name).toBe("NVIDIA Corporation");
    expect(row.average_iv).toBe(110);
    expect(row.generate_recommendation).toBe(false);
    const after = await listOf(other);
    expect(after.map((r) => r.stock.ticker)).toEqual([...before.map((r) => r.stock.ticker), "NVDA"]);
    expect(after.at(-1)!.sort_order).toBeGreaterThanOrEqual(before.length);
  });

  it("creates the shared stock row from market data when the ticker is new: name and current price", async () => {
    const res = await add(other, NEW_TICKER.ticker);
    expect(res.status).toBe(200);
    const row = calls.createUserStock.response.parse(res.body);
    const quote = await provider.context.market.quote(NEW_TICKER.ticker);
    expect(row.stock.name).toBe(NEW_TICKER.name);
    expect(row.stock.current_price).toBe(quote.price);
    expect(row.stock.current_price).toBeGreaterThan(0);
    expect(row.stock.updated_at).not.toBeNull();
    // The row says which market source made the price, shown beside its age.
    expect(row.stock.price_source).toBe("simulated");
    // The demo trader adding it too shares the same stock row.
    const again = await add(demo, NEW_TICKER.ticker);
    expect(again.status).toBe(200);
    expect(again.body.stock.id).toBe(row.stock.id);
    await provider.call(calls.deleteUserStock, { token: demo.token, params: { id: again.body.id } });
  });

  it("answers 409 when the stock is already in the user's watchlist", async () => {
    const res = await add(demo, "AAPL");
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe("AAPL is already in your watchlist");
  });

  it("answers 422 with a clear detail for a ticker the market does not know", async () => {
    const res = await add(demo, "NOSUCH1");
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/Unknown ticker 'NOSUCH1'/);
    const rows = await listOf(demo);
    expect(rows.some((r) => r.stock.ticker === "NOSUCH1")).toBe(false);
  });

  it.each([
    ["a negative value", { base_iv: -1 }, /base_iv/],
    ["a value above 9,999,999", { buy_level_two: 10_000_000 }, /buy_level_two/],
    ["text instead of a number", { conservative_iv: "12a" as unknown as number }, /conservative_iv/],
  ])("answers 422 for %s", async (_, bad, field) => {
    const res = await add(demo, "TSLA", bad);
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(field);
  });

  it("refuses to add to another user's watchlist", async () => {
    const res = await provider.call(calls.createUserStock, {
      token: other.token,
      params: { userId: demo.id },
      body: { ...values, stock: { ticker: "TSLA", name: "", current_price: 0 } },
    });
    expect(res.status).toBe(403);
    expect((await listOf(demo)).some((r) => r.stock.ticker === "TSLA")).toBe(false);
  });
});

describe("PUT /api/user-stock/{id}", () => {
  it("turns recommendations on and off", async () => {
    const [first] = await listOf(demo);
    const flipped = !first!.generate_recommendation;
    const res = await provider.call(calls.updateUserStock, {
      token: demo.token,
      params: { id: first!.id },
      body: { generate_recommendation: flipped },
    });
    expect(res.status).toBe(200);
    expect(res.body.generate_recommendation).toBe(flipped);
    expect((await listOf(demo))[0]!.generate_recommendation).toBe(flipped);
  });

  it("saves the edit form's values and computes average IV itself, ignoring a sent one", async () => {
    const row = (await listOf(demo)).find((r) => r.stock.ticker === "KO")!;
    const res = await provider.call(calls.updateUserStock, {
      token: demo.token,
      params: { id: row.id },
      body: { ...values, base_iv: 70.5, conservative_iv: 60.25, average_iv: 1, sort_order: row.sort_order },
    });
    expect(res.status).toBe(200);
    const saved = calls.updateUserStock.response.parse(res.body);
    expect(saved.base_iv).toBe(70.5);
    expect(saved.conservative_iv).toBe(60.25);
    expect(saved.average_iv).toBeCloseTo(65.375, 6);
    expect(saved.buy_level_four).toBe(80);
  });

  it("answers 422 for bad numbers and changes nothing", async () => {
    const row = (await listOf(demo)).find((r) => r.stock.ticker === "KO")!;
    const res = await provider.call(calls.updateUserStock, {
      token: demo.token,
      params: { id: row.id },
      body: { ...values, buy_level_one: 99_999_999 },
    });
    expect(res.status).toBe(422);
    expect((await listOf(demo)).find((r) => r.id === row.id)!.buy_level_one).toBe(row.buy_level_one);
  });

  it("answers 404 to another trader and never shows or changes the row", async () => {
    const row = (await listOf(demo))[0]!;
    for (const body of [{ generate_recommendation: !row.generate_recommendation }, values]) {
      const res = await provider.call(calls.updateUserStock, { token: other.token, params: { id: row.id }, body });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(row.stock.ticker);
    }
    const after = (await listOf(demo))[0]!;
    expect(after).toEqual(row);
  });

  it("answers 404 for a row that does not exist", async () => {
    const res = await provider.call(calls.updateUserStock, {
      token: demo.token,
      params: { id: 999_999 },
      body: { generate_recommendation: true },
    });
    expect(res.status).toBe(404);
  });
});

describe("DELETE /api/user-stock/{id}", () => {
  it("deletes the user's own row", async () => {
    const added = await add(demo, "AMD");
    expect(added.status).toBe(200);
    const res = await provider.call(calls.deleteUserStock, { token: demo.token, params: { id: added.body.id } });
    expect(res.status).toBe(200);
    expect((await listOf(demo)).some((r) => r.stock.ticker === "AMD")).toBe(false);
  });

  it("answers 404 to another trader and keeps the row", async () => {
    const row = (await listOf(demo))[0]!;
    const res = await provider.call(calls.deleteUserStock, { token: other.token, params: { id: row.id } });
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain(row.stock.ticker);
    expect((await listOf(demo)).some((r) => r.id === row.id)).toBe(true);
  });

  it("answers 403 without the USER_STOCK DELETE permission", async () => {
    const added = await add(other, "PFE");
    expect(added.status).toBe(200);
    const role = await provider.context.db
      .selectFrom("user_roles")
      .innerJoin("roles", "roles.id", "user_roles.role_id")
      .select("roles.id")
      .where("user_roles.user_id", "=", other.id)
      .executeTakeFirstOrThrow();
    await provider.context.db
      .deleteFrom("role_permissions")
      .where("role_id", "=", role.id)
      .where("object", "=", "USER_STOCK")
      .where("action", "=", "DELETE")
      .execute();
    try {
      // A session signed in now reads the permissions as they are (one in use may keep its
      // caller, permissions and all, for the caller cache's few seconds: ADR 0066).
      const { token } = await provider.session("othertrader", "Other-trader-1234");
      const res = await provider.call(calls.deleteUserStock, { token, params: { id: added.body.id } });
      expect(res.status).toBe(403);
      expect(res.body.detail).toBe("You do not have permission to delete this stock.");
      expect((await listOf(other)).some((r) => r.id === added.body.id)).toBe(true);
    } finally {
      await provider.context.db
        .insertInto("role_permissions")
        .values({ role_id: role.id, object: "USER_STOCK", action: "DELETE" })
        .execute();
    }
  });
});

describe("PUT /api/user-stocks/{userId}", () => {
  it("saves a new order: sort_order is each row's index", async () => {
    const rows = await listOf(demo);
    const reversed = [...rows].reverse();
    const res = await provider.call(calls.reorderUserStocks, {
      token: demo.token,
      params: { userId: demo.id },
      body: reversed.map((r, index) => ({ id: r.id, sort_order: index, active: 1 })),
    });
    expect(res.status).toBe(200);
    const after = await listOf(demo);
    expect(after.map((r) => r.id)).toEqual(reversed.map((r) => r.id));
    expect(after.map((r) => r.sort_order)).toEqual(after.map((_, i) => i));
  });

  it("refuses ids that are not the user's own rows, and changes nothing", async () => {
    const mine = await listOf(demo);
    const theirs = await listOf(other);
    const res = await provider.call(calls.reorderUserStocks, {
      token: demo.token,
      params: { userId: demo.id },
      body: [...mine, theirs[0]!].map((r, index) => ({ id: r.id, sort_order: index, active: 1 })),
    });
    expect(res.status).toBe(404);
    expect(await listOf(demo)).toEqual(mine);
    expect(await listOf(other)).toEqual(theirs);
  });

  it("refuses to reorder another user's list", async () => {
    const theirs = await listOf(other);
    const res = await provider.call(calls.reorderUserStocks, {
      token: demo.token,
      params: { userId: other.id },
      body: [...theirs].reverse().map((r, index) => ({ id: r.id, sort_order: index, active: 1 })),
    });
    expect(res.status).toBe(403);
    expect(await listOf(other)).toEqual(theirs);
  });

  it("answers 422 for an order naming a row twice or without active: 1", async () => {
    const [a, b] = await listOf(demo);
    const twice = await provider.call(calls.reorderUserStocks, {
      token: demo.token,
      params: { userId: demo.id },
      body: [
        { id: a!.id, sort_order: 0, active: 1 },
        { id: a!.id, sort_order: 1, active: 1 },
      ],
    });
    expect(twice.status).toBe(422);
    const inactive = await provider.call(calls.reorderUserStocks, {
      token: demo.token,
      params: { userId: demo.id },
      body: [{ id: b!.id, sort_order: 0, active: 0 }],
    });
    expect(inactive.status).toBe(422);
  });
});

describe("GET /api/yfinance-company-name", () => {
  it("answers the company name of a known ticker, upper-casing what was typed", async () => {
    const res = await provider.call(calls.companyName, { token: demo.token, query: { ticker: "msft" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ company_name: "Microsoft Corporation" });
  });

  it("answers 404 for an unknown ticker", async () => {
    const res = await provider.call(calls.companyName, { token: demo.token, query: { ticker: "NOSUCH1" } });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Unknown ticker: NOSUCH1");
  });

  it("needs a token", async () => {
    const res = await provider.call(calls.companyName, { query: { ticker: "MSFT" } });
    expect(res.status).toBe(401);
  });
});

describe("GET /api/stock-history/{ticker}", () => {
  it("answers daily bars, oldest first, for the chart", async () => {
    const res = await provider.call(calls.stockHistory, {
      token: demo.token,
      params: { ticker: "AAPL" },
      query: { days: "30" },
    });
    expect(res.status).toBe(200);
    const bars = calls.stockHistory.response.parse(res.body);
    expect(bars.length).toBeGreaterThan(15);
    expect(bars.length).toBeLessThanOrEqual(30);
    expect(bars.map((b) => b.time)).toEqual([...bars.map((b) => b.time)].sort());
  });

  it("answers 404 for an unknown ticker", async () => {
    const res = await provider.call(calls.stockHistory, { token: demo.token, params: { ticker: "NOSUCH1" } });
    expect(res.status).toBe(404);
  });
});
