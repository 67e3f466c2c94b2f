import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { CATEGORY_ICONS } from "#contract/entities.ts";
import { DEMO_UIP } from "#provider/db/demo-data.ts";
import { notifyPriceCrossings } from "#provider/push/alerts.ts";
import { SAMPLE_LEVELS, testProvider, type TestProvider } from "#provider/testing/provider.ts";

let provider: TestProvider;
let demo: { token: string; id: number };
let admin: { token: string; id: number };

const values = SAMPLE_LEVELS;

async function listAs(user: { token: string }) {
  const res = await provider.call(calls.listUipStocks, { token: user.token });
  expect(res.status).toBe(200);
  return calls.listUipStocks.response.parse(res.body);
}

async function categoryId(name: string): Promise<number> {
  const res = await provider.call(calls.listCategories, { token: demo.token });
  const found = (res.body as { id: number; name: string }[]).find((c) => c.name === name);
  if (!found) throw new Error(`no category ${name}`);
  return found.id;
}

async function create(token: string, ticker: string, category: number, body: Partial<typeof values> = {}) {
  return provider.call(calls.createUipStock, {
    token,
    body: { ...values, ...body, category_id: category, stock: { ticker, name: "", current_price: 0 } },
  });
}

beforeAll(async () => {
  provider = await testProvider();
  demo = await provider.session("demo", "demo1234");
  admin = await provider.session("admin", "admin1234");
});
afterAll(() => provider.close());

describe("reading: GET /api/uip-stocks and /api/categories", () => {
  it("lists the shared list for any signed-in user, ascending sort_order, with category and computed average IV", async () => {
    const rows = await listAs(demo);
    expect(rows.map((r) => r.stock.ticker)).toEqual(DEMO_UIP.map((u) => u.ticker));
    expect(rows.map((r) => r.sort_order)).toEqual([...rows.map((r) => r.sort_order)].sort((a, b) => a - b));
    for (const row of rows) {
      expect(row.average_iv).toBeCloseTo((row.base_iv + row.conservative_iv) / 2, 6);
      expect(row.category_id).toBe(row.category.id);
      expect(row.active).toBe(1);
      expect(row.price_alert).toBe(false);
    }
    const msft = rows.find((r) => r.stock.ticker === "MSFT")!;
    expect(msft.category).toMatchObject({ name: "Queen", icon: "queen" });
    expect(msft.stock.name).toBe("Microsoft Corporation");
    // The admin sees the same list.
    expect((await listAs(admin)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it("lists the categories with their icon keys", async () => {
    const res = await provider.call(calls.listCategories, { token: demo.token });
    expect(res.status).toBe(200);
    const categories = calls.listCategories.response.parse(res.body);
    expect(categories.map((c) => c.name)).toEqual(["Queen", "Buy", "Hold", "Speculative", "Avoid"]);
    expect(categories.map((c) => c.icon).sort()).toEqual([...CATEGORY_ICONS].sort());
  });

  it("answers 401 without a token", async () => {
    expect((await provider.call(calls.listUipStocks)).status).toBe(401);
    expect((await provider.call(calls.listCategories)).status).toBe(401);
  });
});

describe("the permission matrix: a trader holds no UIP_STOCK permission, an admin holds CREATE, UPDATE and DELETE", () => {
  it("a trader is refused every change with 403 and its text, and nothing changes", async () => {
    const before = await listAs(admin);
    const aapl = before.find((r) => r.stock.ticker === "AAPL")!;
    const buy = await categoryId("Buy");

    const created = await create(demo.token, "JPM", buy);
    expect(created).toMatchObject({ status: 403, body: { detail: "Not authorized to add UIP stock" } });

    const updated = await provider.call(calls.updateUipStock, {
      token: demo.token,
      params: { id: aapl.id },
      body: { ...values, category_id: buy },
    });
    expect(updated).toMatchObject({ status: 403, body: { detail: "Not authorized to edit UIP stock" } });

    const deleted = await provider.call(calls.deleteUipStock, { token: demo.token, params: { id: aapl.id } });
    expect(deleted).toMatchObject({
      status: 403,
      body: { detail: "You do not have permission to delete this stock." },
    });

    const reordered = await provider.call(calls.reorderUipStocks, {
      token: demo.token,
      body: [...before].reverse().map((r, i) => ({ id: r.id, sort_order: i, active: 1 })),
    });
    expect(reordered).toMatchObject({ status: 403, body: { detail: "Not authorized to reorder UIP stocks" } });

    // The refusal comes before the lookup: a missing id is refused the same way (ids cannot be probed).
    const missing = await provider.call(calls.updateUipStock, {
      token: demo.token,
      params: { id: 999_999 },
      body: { ...values, category_id: buy },
    });
    expect(missing.status).toBe(403);
    expect((await provider.call(calls.deleteUipStock, { token: demo.token, params: { id: 999_999 } })).status).toBe(
      403,
    );

    expect(await listAs(admin)).toEqual(before);
  });

  it("every change needs a token (401)", async () => {
    const [first] = await listAs(admin);
    const buy = await categoryId("Buy");
    const noToken = [
      await provider.call(calls.createUipStock, {
        body: { ...values, category_id: buy, stock: { ticker: "JPM", name: "", current_price: 0 } },
      }),
      await provider.call(calls.updateUipStock, { params: { id: first!.id }, body: { ...values, category_id: buy } }),
      await provider.call(calls.deleteUipStock, { params: { id: first!.id } }),
      await provider.call(calls.reorderUipStocks, { body: [{ id: first!.id, sort_order: 0, active: 1 }] }),
      await provider.call(calls.setUipPriceAlert, { params: { id: first!.id }, body: { enabled: true } }),
    ];
    expect(noToken.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
  });

  it("an admin adds a stock at the end of the list, with the market's name and price and the provider's average", async () => {
    const hold = await categoryId("Hold");
    const res = await create(admin.token, "pep", hold, { base_iv: 170.5, conservative_iv: 150 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = calls.createUipStock.response.parse(res.body);
    expect(row.stock).toMatchObject({ ticker: "PEP", name: "PepsiCo, Inc." });
    expect(row.stock.current_price).toBeGreaterThan(0);
    expect(row.category).toMatchObject({ id: hold, name: "Hold", icon: "hold" });
    expect(row.average_iv).toBeCloseTo(160.25, 6);
    const rows = await listAs(demo);
    expect(rows.at(-1)!.stock.ticker).toBe("PEP");
    expect(rows.at(-1)!.sort_order).toBeGreaterThan(rows.at(-2)!.sort_order);

    // Twice is refused, and so are an unknown ticker and an unknown category.
    expect(await create(admin.token, "PEP", hold)).toMatchObject({
      status: 409,
      body: { detail: "PEP is already in the UIP list" },
    });
    const unknown = await create(admin.token, "ZZQQ9", hold);
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toMatch(/Unknown ticker 'ZZQQ9'/);
    const noCategory = await create(admin.token, "WMT", 999_999);
    expect(noCategory).toMatchObject({ status: 422, body: { detail: "category_id: there is no category 999999" } });
    const tooBig = await create(admin.token, "WMT", hold, { buy_level_one: 10_000_000 });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.detail).toMatch(/^body\.buy_level_one:/);
    expect((await listAs(demo)).some((r) => r.stock.ticker === "WMT")).toBe(false);

    await provider.call(calls.deleteUipStock, { token: admin.token, params: { id: row.id } });
  });

  it("an admin edits values and category; the average is the provider's whatever is sent; sort_order kept unless sent", async () => {
    const speculative = await categoryId("Speculative");
    const ko = (await listAs(admin)).find((r) => r.stock.ticker === "KO")!;
    const res = await provider.call(calls.updateUipStock, {
      token: admin.token,
      params: { id: ko.id },
      body: { ...values, base_iv: 80, conservative_iv: 60, average_iv: 1, category_id: speculative },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const saved = calls.updateUipStock.response.parse(res.body);
    expect(saved).toMatchObject({
      id: ko.id,
      sort_order: ko.sort_order,
      base_iv: 80,
      conservative_iv: 60,
      average_iv: 70,
      buy_level_four: 80,
      category_id: speculative,
      category: { name: "Speculative", icon: "speculative" },
    });
    expect((await listAs(demo)).find((r) => r.id === ko.id)).toEqual(saved);

    const missing = await provider.call(calls.updateUipStock, {
      token: admin.token,
      params: { id: 999_999 },
      body: { ...values, category_id: speculative },
    });
    expect(missing).toMatchObject({ status: 404, body: { detail: "UIP stock not found" } });
    const badCategory = await provider.call(calls.updateUipStock, {
      token: admin.token,
      params: { id: ko.id },
      body: { ...values, category_id: 999_999 },
    });
    expect(badCategory.status).toBe(422);

    // Back as it was.
    await provider.call(calls.updateUipStock, {
      token: admin.token,
      params: { id: ko.id },
      body: {
        base_iv: ko.base_iv,
        conservative_iv: ko.conservative_iv,
        buy_level_one: ko.buy_level_one,
        buy_level_two: ko.buy_level_two,
        buy_level_three: ko.buy_level_three,
        buy_level_four: ko.buy_level_four,
        category_id: ko.category_id,
      },
    });
  });

  it("an admin reorders the whole list in one go; an unknown or repeated id changes nothing", async () => {
    const before = await listAs(admin);
    const reversed = [...before].reverse();
    const res = await provider.call(calls.reorderUipStocks, {
      token: admin.token,
      body: reversed.map((r, i) => ({ id: r.id, sort_order: i, active: 1 })),
    });
    expect(res).toMatchObject({ status: 200, body: { message: "Stocks reordered" } });
    const after = await listAs(demo);
    expect(after.map((r) => r.id)).toEqual(reversed.map((r) => r.id));
    expect(after.map((r) => r.sort_order)).toEqual(after.map((_, i) => i));

    const withUnknown = await provider.call(calls.reorderUipStocks, {
      token: admin.token,
      body: [
        { id: before[0]!.id, sort_order: 5, active: 1 },
        { id: 999_999, sort_order: 0, active: 1 },
      ],
    });
    expect(withUnknown).toMatchObject({ status: 404, body: { detail: "UIP stock not found" } });
    const repeated = await provider.call(calls.reorderUipStocks, {
      token: admin.token,
      body: [
        { id: before[0]!.id, sort_order: 0, active: 1 },
        { id: before[0]!.id, sort_order: 1, active: 1 },
      ],
    });
    expect(repeated.status).toBe(422);
    expect((await listAs(demo)).map((r) => r.id)).toEqual(reversed.map((r) => r.id));

    await provider.call(calls.reorderUipStocks, {
      token: admin.token,
      body: before.map((r, i) => ({ id: r.id, sort_order: i, active: 1 })),
    });
    expect((await listAs(demo)).map((r) => r.id)).toEqual(before.map((r) => r.id));
  });

  it("an admin deletes a row (its alert subscriptions go with it); a missing id is 404", async () => {
    const created = await create(admin.token, "SOFI", await categoryId("Speculative"));
    expect(created.status).toBe(200);
    const id = created.body.id as number;
    await provider.call(calls.setUipPriceAlert, { token: demo.token, params: { id }, body: { enabled: true } });
    const res = await provider.call(calls.deleteUipStock, { token: admin.token, params: { id } });
    expect(res).toMatchObject({ status: 200, body: { message: "SOFI deleted from UIP stocks" } });
    expect((await listAs(demo)).some((r) => r.id === id)).toBe(false);
    const alerts = await provider.context.db
      .selectFrom("uip_price_alerts")
      .select("user_id")
      .where("uip_stock_id", "=", id)
      .execute();
    expect(alerts).toEqual([]);
    expect(await provider.call(calls.deleteUipStock, { token: admin.token, params: { id } })).toMatchObject({
      status: 404,
      body: { detail: "UIP stock not found" },
    });
  });
});

describe("the bell: PUT /api/uip-stock/{id}/price-alert", () => {
  it("each user subscribes themselves (no UIP permission needed); others' bells are untouched", async () => {
    const [first, second] = await listAs(demo);
    const on = await provider.call(calls.setUipPriceAlert, {
      token: demo.token,
      params: { id: first!.id },
      body: { enabled: true },
    });
    // The reply names the row's stock: a form without JavaScript posts only the row's id.
    expect(on).toMatchObject({ status: 200, body: { price_alert: true, ticker: first!.stock.ticker } });
    // Twice on is still on.
    expect(
      (
        await provider.call(calls.setUipPriceAlert, {
          token: demo.token,
          params: { id: first!.id },
          body: { enabled: true },
        })
      ).status,
    ).toBe(200);

    const mine = await listAs(demo);
    expect(mine.find((r) => r.id === first!.id)!.price_alert).toBe(true);
    expect(mine.find((r) => r.id === second!.id)!.price_alert).toBe(false);
    expect((await listAs(admin)).find((r) => r.id === first!.id)!.price_alert).toBe(false);

    const off = await provider.call(calls.setUipPriceAlert, {
      token: demo.token,
      params: { id: first!.id },
      body: { enabled: false },
    });
    expect(off).toMatchObject({ status: 200, body: { price_alert: false, ticker: first!.stock.ticker } });
    expect((await listAs(demo)).find((r) => r.id === first!.id)!.price_alert).toBe(false);

    expect(
      await provider.call(calls.setUipPriceAlert, {
        token: demo.token,
        params: { id: 999_999 },
        body: { enabled: true },
      }),
    ).toMatchObject({ status: 404, body: { detail: "UIP stock not found" } });
    const bad = await provider.call(calls.setUipPriceAlert, {
      token: demo.token,
      params: { id: first!.id },
      body: { enabled: "yes" },
    });
    expect(bad.status).toBe(422);
  });

  it("a price falling through a UIP buy level notifies the subscribers only", async () => {
    const row = (await listAs(demo)).find((r) => r.stock.ticker === "V")!;
    await provider.call(calls.setUipPriceAlert, { token: demo.token, params: { id: row.id }, body: { enabled: true } });
    const unread = async (user: { token: string; id: number }) =>
      (await provider.call(calls.unreadCount, { token: user.token, params: { userId: user.id } })).body
        .unread_count as number;
    const demoBefore = await unread(demo);
    const adminBefore = await unread(admin);

    await notifyPriceCrossings(provider.context, {
      stockId: row.stock.id,
      previousPrice: row.buy_level_one + 1,
      price: row.buy_level_one - 0.5,
    });

    expect(await unread(demo)).toBe(demoBefore + 1);
    expect(await unread(admin)).toBe(adminBefore);
    const list = await provider.call(calls.listNotifications, { token: demo.token, params: { userId: demo.id } });
    expect(JSON.stringify(list.body)).toContain("V reached the UIP 1st buy level");
    await provider.call(calls.setUipPriceAlert, {
      token: demo.token,
      params: { id: row.id },
      body: { enabled: false },
    });
  });
});
