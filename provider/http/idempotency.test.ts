import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { IDEMPOTENCY_HEADER } from "#contract/calls.ts";
import { SAMPLE_LEVELS, testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { REPLAYED_HEADER } from "./idempotency.ts";

/**
 * Idempotency keys: the app's offline queue replays a change whose answer it never saw with the
 * key it was first sent with; the provider must apply it once and answer the same again.
 */
let provider: TestProvider;
let trader: { token: string; id: number };
let second: { token: string; id: number };

const values = SAMPLE_LEVELS;

async function register(username: string) {
  const registered = await provider.call(calls.register, {
    body: { email: `${username}@example.com`, username, password: "Idem-potent-1234", first_name: "I", last_name: "K" },
  });
  expect(registered.status).toBe(200);
  return provider.session(username, "Idem-potent-1234");
}

function withKey(key: string) {
  return { [IDEMPOTENCY_HEADER]: key };
}

async function tickers(user: { token: string; id: number }) {
  const res = await provider.call(calls.listUserStocks, { token: user.token, params: { userId: user.id } });
  expect(res.status).toBe(200);
  return (res.body as { stock: { ticker: string } }[]).map((r) => r.stock.ticker);
}

function add(user: { token: string; id: number }, ticker: string, key?: string, body: Partial<typeof values> = {}) {
  return provider.call(calls.createUserStock, {
    token: user.token,
    params: { userId: user.id },
    body: { ...values, ...body, stock: { ticker, name: "", current_price: 0 } },
    headers: key ? withKey(key) : {},
  });
}

beforeAll(async () => {
  provider = await testProvider();
  trader = await register("idemtrader");
  second = await register("idemsecond");
});
afterAll(() => provider.close());

describe("Idempotency-Key on a change", () => {
  it("applies a repeated request once and answers the kept answer again", async () => {
    const first = await add(trader, "AAPL", "add-aapl-1");
    expect(first.status).toBe(200);
    expect(first.headers.get(REPLAYED_HEADER)).toBeNull();

    const again = await add(trader, "AAPL", "add-aapl-1");
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get(REPLAYED_HEADER)).toBe("true");
    expect((await tickers(trader)).filter((t) => t === "AAPL")).toHaveLength(1);
  });

  it("without a key, the same request is a new change (here refused as a duplicate)", async () => {
    const res = await add(trader, "AAPL");
    expect(res.status).toBe(409);
  });

  it("refuses the same key with a different request with 422 and a clear detail, changing nothing", async () => {
    const res = await add(trader, "MSFT", "add-aapl-1");
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe(
      "This Idempotency-Key was already used for a different request; send a new key for a new change",
    );
    expect(await tickers(trader)).not.toContain("MSFT");

    const otherBody = await add(trader, "AAPL", "add-aapl-1", { base_iv: 1 });
    expect(otherBody.status).toBe(422);
  });

  it("keeps a toggle replayed after a later change from undoing it", async () => {
    const [row] = (await provider.call(calls.listUserStocks, { token: trader.token, params: { userId: trader.id } }))
      .body as { id: number }[];
    const on = () =>
      provider.call(calls.updateUserStock, {
        token: trader.token,
        params: { id: row!.id },
        body: { generate_recommendation: true },
        headers: withKey("toggle-on-1"),
      });
    expect((await on()).status).toBe(200);
    const off = await provider.call(calls.updateUserStock, {
      token: trader.token,
      params: { id: row!.id },
      body: { generate_recommendation: false },
      headers: withKey("toggle-off-2"),
    });
    expect(off.body.generate_recommendation).toBe(false);

    // The first toggle's answer was lost and it is sent again: it is not applied a second time.
    const replay = await on();
    expect(replay.status).toBe(200);
    expect(replay.body.generate_recommendation).toBe(true);
    const now = await provider.call(calls.listUserStocks, { token: trader.token, params: { userId: trader.id } });
    expect(
      (now.body as { id: number; generate_recommendation: boolean }[]).find((r) => r.id === row!.id),
    ).toMatchObject({ generate_recommendation: false });
  });

  it("answers a replayed delete with its first answer, not 404", async () => {
    const added = await add(trader, "KO", "add-ko");
    const id = added.body.id as number;
    const del = () =>
      provider.call(calls.deleteUserStock, { token: trader.token, params: { id }, headers: withKey("delete-ko") });
    const first = await del();
    expect(first.status).toBe(200);
    const again = await del();
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get(REPLAYED_HEADER)).toBe("true");
  });

  it("keeps a refusal too: the same request with its key gets the same 4xx answer", async () => {
    const missing = () =>
      provider.call(calls.deleteUserStock, {
        token: trader.token,
        params: { id: 987654 },
        headers: withKey("delete-missing"),
      });
    const first = await missing();
    expect(first.status).toBe(404);
    const again = await missing();
    expect(again.status).toBe(404);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get(REPLAYED_HEADER)).toBe("true");
  });

  it("keys belong to one user: another user's same key is their own change", async () => {
    const res = await add(second, "AAPL", "add-aapl-1");
    expect(res.status).toBe(200);
    expect(res.headers.get(REPLAYED_HEADER)).toBeNull();
    expect(await tickers(second)).toContain("AAPL");
  });

  it("applies two requests sent at once with one key only once", async () => {
    const answers = await Promise.all([add(second, "NVDA", "add-nvda-race"), add(second, "NVDA", "add-nvda-race")]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    expect((await tickers(second)).filter((t) => t === "NVDA")).toHaveLength(1);
  });

  it("forgets a key after a day", async () => {
    await sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'add-aapl-1'`.execute(
      provider.context.db,
    );
    // Now free: a different request under the old key runs.
    const res = await add(trader, "MSFT", "add-aapl-1");
    expect(res.status).toBe(200);
    expect(await tickers(trader)).toContain("MSFT");
  });

  it("refuses a malformed key with 400", async () => {
    const res = await add(trader, "TSLA", "with space");
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/Idempotency-Key/);
    expect(await tickers(trader)).not.toContain("TSLA");
  });

  it("ignores the key on a read", async () => {
    const res = await provider.call(calls.listUserStocks, {
      token: trader.token,
      params: { userId: trader.id },
      headers: withKey("add-aapl-1"),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get(REPLAYED_HEADER)).toBeNull();
  });
});
