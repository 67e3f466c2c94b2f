import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as calls from "#contract/calls.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import {
  FAKE_TRADIER_TOKEN,
  FAKE_TRADIER_TWO_ACCOUNTS_TOKEN,
  startTradierFake,
  type TradierFake,
} from "#provider/market/testing/tradier-fake.ts";
import { brokerSnapshot } from "./snapshot-store.ts";
import { BROKER_SYNC_JOB } from "#provider/jobs/broker-sync-job.ts";

/**
 * The Tradier sync against the fake speaking Tradier's account API (issue 43): the fake account's
 * history (fixtures/tradier/README.md) becomes the hand-checked journal, a second sync adds nothing,
 * the positions become the "tradier" snapshot, the token is never answered and is stored encrypted.
 */
let fake: TradierFake;
let provider: TestProvider;
let ip = 0;

beforeAll(async () => {
  fake = await startTradierFake();
  provider = await testProvider({ tradierBrokerageUrl: fake.baseUrl });
});
afterAll(async () => {
  await provider.close();
  await fake.close();
});

/** A new trader of their own for each test: connections and journals do not mix. */
async function trader(name: string): Promise<{ token: string; id: number }> {
  const res = await provider.call(calls.register, {
    body: {
      email: `${name}@example.com`,
      username: name,
      password: "s3cret-pass",
      first_name: "Pat",
      last_name: "Seller",
    },
    headers: { "x-forwarded-for": `198.51.100.${++ip}` },
  });
  expect(res.status).toBe(200);
  return provider.session(name, "s3cret-pass");
}

const journalRows = async (token: string) =>
  (await provider.call(calls.getJournal, { token })).body.rows as Array<Record<string, unknown>>;

describe("connect", () => {
  test("a refused token is a 422 naming it, and nothing is stored", async () => {
    const { token } = await trader("wrongtoken");
    const res = await provider.call(calls.connectTradier, { token, body: { token: "not-a-tradier-token" } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe("Tradier refused the token: connect again with a new access token");
    expect((await provider.call(calls.tradierConnection, { token })).body).toEqual({ connection: null });
  });

  test("one account is taken; the answer shows it as ••••1111 and never the token", async () => {
    const { token, id } = await trader("oneaccount");
    const res = await provider.call(calls.connectTradier, { token, body: { token: FAKE_TRADIER_TOKEN } });
    expect(res.status).toBe(200);
    expect(res.body.connection).toMatchObject({
      broker: "tradier",
      account: "••••1111",
      accounts: [],
      last_result: null,
    });
    const read = await provider.call(calls.tradierConnection, { token });
    for (const body of [res.body, read.body]) {
      expect(JSON.stringify(body)).not.toContain(FAKE_TRADIER_TOKEN);
      expect(JSON.stringify(body)).not.toContain("VA00001111");
    }

    // At rest: ciphertext, not the token, and it does not open as another trader's row.
    const row = await provider.context.db
      .selectFrom("broker_connections")
      .select("token_ciphertext")
      .where("user_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row.token_ciphertext).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row.token_ciphertext).not.toContain(FAKE_TRADIER_TOKEN);
    expect(Buffer.from(row.token_ciphertext.split(".").pop()!, "base64url").toString("utf8")).not.toContain("fake");
    const { cipher } = provider.context.broker;
    expect(cipher.decrypt(row.token_ciphertext, `tradier:${id}`)).toBe(FAKE_TRADIER_TOKEN);
    expect(cipher.decrypt(row.token_ciphertext, `tradier:${id + 1}`)).toBeNull();
  });

  test("a token of two accounts waits for the trader's pick, and takes only one of them", async () => {
    const { token } = await trader("twoaccounts");
    const res = await provider.call(calls.connectTradier, { token, body: { token: FAKE_TRADIER_TWO_ACCOUNTS_TOKEN } });
    expect(res.body.connection.account).toBeNull();
    expect(res.body.connection.accounts.map((a: { number: string }) => a.number)).toEqual(["VA00001111", "VA00002222"]);
    const sync = await provider.call(calls.syncTradier, { token });
    expect(sync.status).toBe(409);
    expect(sync.body.detail).toBe("Choose which Tradier account to sync first");

    const other = await provider.call(calls.tradierAccount, { token, body: { account: "VA99999999" } });
    expect(other.status).toBe(422);
    const picked = await provider.call(calls.tradierAccount, { token, body: { account: "VA00002222" } });
    expect(picked.body.connection).toMatchObject({ account: "••••2222", accounts: [] });
    const empty = await provider.call(calls.syncTradier, { token });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ added: 0, already: 0, not_trades: 0, refused: 0, positions: 0 });
  });
});

describe("sync", () => {
  test("the first sync imports the fake account's wheel; a second adds nothing", async () => {
    const { token, id } = await trader("wheeltrader");
    await provider.call(calls.connectTradier, { token, body: { token: FAKE_TRADIER_TOKEN } });

    const first = await provider.call(calls.syncTradier, { token });
    expect(first.status).toBe(200);
    // Six trades; the deposit, the interest and the assignment's share leg are not trades.
    expect(first.body).toMatchObject({ added: 6, already: 0, not_trades: 3, refused: 0, openings: 0, positions: 2 });

    const rows = (await journalRows(token))
      .map((r) => ({
        kind: r.kind,
        ticker: r.ticker,
        option_type: r.option_type,
        strike: r.strike,
        expiry: r.expiry,
        quantity: r.quantity,
        price: r.price,
        fees: r.fees,
        day: String(r.traded_at).slice(0, 10),
        source: r.source,
      }))
      .sort((a, b) => a.day.localeCompare(b.day));
    const put65 = { ticker: "KO", option_type: "put", strike: 65, expiry: "2026-09-18", quantity: 1 };
    const call67 = { ticker: "KO", option_type: "call", strike: 67, expiry: "2026-10-16", quantity: 1 };
    expect(rows).toEqual([
      { kind: "sell_to_open", ...put65, price: 1.1, fees: 0.35, day: "2026-09-01", source: "tradier" },
      { kind: "assignment", ...put65, price: 0, fees: 0, day: "2026-09-21", source: "tradier" },
      { kind: "sell_to_open", ...call67, price: 0.8, fees: 0.35, day: "2026-09-22", source: "tradier" },
      {
        kind: "dividend",
        ticker: "KO",
        option_type: null,
        strike: null,
        expiry: null,
        quantity: 1,
        price: 51,
        fees: 0,
        day: "2026-10-01",
        source: "tradier",
      },
      { kind: "expire", ...call67, price: 0, fees: 0, day: "2026-10-19", source: "tradier" },
      {
        kind: "sell_to_open",
        ticker: "KO",
        option_type: "put",
        strike: 62.5,
        expiry: "2026-12-18",
        quantity: 1,
        price: 0.95,
        fees: 0.35,
        day: "2026-11-02",
        source: "tradier",
      },
    ]);

    const snapshot = await brokerSnapshot(provider.context.db, id, "tradier");
    expect(snapshot?.positions).toEqual([
      { ticker: "KO", kind: "shares", option_type: null, strike: null, expiry: null, quantity: 100, cost_basis: 65 },
      {
        ticker: "KO",
        kind: "option",
        option_type: "put",
        strike: 62.5,
        expiry: "2026-12-18",
        quantity: -1,
        cost_basis: 0.95,
      },
    ]);
    // The account's cash: /balances' total_cash, saved with the positions (ADR 0098).
    expect(snapshot?.cash).toBe(3835.07);

    // The second sync asks only for the week before the first one onwards: nothing new there.
    const second = await provider.call(calls.syncTradier, { token });
    expect(second.body).toMatchObject({ added: 0, refused: 0 });
    const histories = fake.requests.filter((r) => r.path === "/v1/accounts/VA00001111/history");
    expect(histories.at(-1)!.query.start).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await journalRows(token)).toHaveLength(6);

    // Connected again, the whole history is read once more: every line is recognised, none added twice.
    await provider.call(calls.connectTradier, { token, body: { token: FAKE_TRADIER_TOKEN } });
    const again = await provider.call(calls.syncTradier, { token });
    expect(again.body).toMatchObject({ added: 0, already: 6, not_trades: 3, refused: 0 });
    expect(await journalRows(token)).toHaveLength(6);

    const state = (await provider.call(calls.tradierConnection, { token })).body.connection;
    expect(state.last_result).toMatchObject({ added: 0, already: 6 });
    expect(state.last_error).toBeNull();
  });

  test("a token Tradier stops accepting: the sync says so, the journal is unchanged", async () => {
    const { token, id } = await trader("revoked");
    await provider.call(calls.connectTradier, { token, body: { token: FAKE_TRADIER_TOKEN } });
    // The token as Tradier would see a revoked one: sealed anew around another value.
    await provider.context.db
      .updateTable("broker_connections")
      .set({ token_ciphertext: provider.context.broker.cipher.encrypt("revoked-token", `tradier:${id}`) })
      .where("user_id", "=", id)
      .execute();
    const res = await provider.call(calls.syncTradier, { token });
    expect(res.status).toBe(422);
    expect(res.body.detail).toBe("Tradier refused the token: connect again with a new access token");
    expect(await journalRows(token)).toEqual([]);
    expect(await brokerSnapshot(provider.context.db, id, "tradier")).toBeNull();
    const state = (await provider.call(calls.tradierConnection, { token })).body.connection;
    expect(state.last_error).toBe("Tradier refused the token: connect again with a new access token");
  });

  test("Tradier's 429 is named with the wait; a claimed sync is refused, not run twice", async () => {
    const { token, id } = await trader("limited");
    await provider.call(calls.connectTradier, { token, body: { token: FAKE_TRADIER_TOKEN } });
    fake.allowance = 0;
    try {
      const res = await provider.call(calls.syncTradier, { token });
      expect(res.status).toBe(429);
      expect(res.body.detail).toMatch(/^Tradier's limit of requests a minute is used up: try again in \d+ seconds?$/);
    } finally {
      fake.allowance = 120;
    }
    await provider.context.db
      .updateTable("broker_connections")
      .set({ sync_claimed_until: new Date(Date.now() + 60_000) })
      .where("user_id", "=", id)
      .execute();
    const claimed = await provider.call(calls.syncTradier, { token });
    expect(claimed.status).toBe(409);
    expect(await journalRows(token)).toEqual([]);
  });

  test("the daily job syncs connected accounts that are due, and removal wipes the row", async () => {
    const { token, id } = await trader("dailyjob");
    await provider.call(calls.connectTradier, { token, body: { token: FAKE_TRADIER_TOKEN } });
    await provider.scheduler.runNow(BROKER_SYNC_JOB);
    expect(await journalRows(token)).toHaveLength(6);

    const removed = await provider.call(calls.disconnectTradier, { token });
    expect(removed.body).toEqual({ connection: null });
    const rows = await provider.context.db
      .selectFrom("broker_connections")
      .selectAll()
      .where("user_id", "=", id)
      .execute();
    expect(rows).toEqual([]);
    expect(await brokerSnapshot(provider.context.db, id, "tradier")).toBeNull();
    // The journal keeps what was synced.
    expect(await journalRows(token)).toHaveLength(6);
  });
});
