import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StockPriceUpdate } from "#contract/ws.ts";
import { STOCK_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import type { MarketData } from "#provider/market/port.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { isFollowed } from "#provider/store/followed-stocks.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { claimPartitions, completePartition, LeaseLost, syncPartitions } from "./partitions.ts";
import { refreshClaimedPrices } from "./price-job.ts";

/**
 * The price refresh shared by processes through per-stock claims (ADR 0085), driven here by two
 * owners in one process (PGlite or PostgreSQL); provider/jobs/several-processes.test.ts kills a
 * real process mid-round on PostgreSQL.
 */
const simulated = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS });
let moves = 0;
/** Every quote moves the price, so each refresh stores and publishes. */
const market: MarketData = {
  ...simulated,
  async quote(ticker) {
    const base = await simulated.quote(ticker);
    return { ...base, price: Math.round((base.price + ++moves / 100) * 100) / 100, asOf: new Date() };
  },
};

let provider: TestProvider;
let published: string[];
let followed: string[];
const HOUR = 3600_000;

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  provider = await testProvider({ market });
  await provider.context.bus.subscribe(STOCK_UPDATES_CHANNEL, (message) => {
    const { data } = StockPriceUpdate.parse(message);
    for (const quote of Array.isArray(data) ? data : [data]) published.push(quote.ticker);
  });
  const rows = await provider.context.db
    .selectFrom("stocks as s")
    .select("s.ticker")
    .where(isFollowed)
    .orderBy("s.ticker")
    .execute();
  followed = rows.map((r) => r.ticker);
});
afterAll(async () => provider?.close());
beforeEach(async () => {
  published = [];
  await provider.context.db.deleteFrom("job_partitions").execute();
});

async function runsByTicker(): Promise<Record<string, number>> {
  const rows = await provider.context.db
    .selectFrom("job_partitions as p")
    .innerJoin("stocks as s", "s.id", "p.stock_id")
    .select(["s.ticker", "p.runs"])
    .where("p.job", "=", "prices")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.ticker, Number(r.runs)]));
}

const everyOnce = () => Object.fromEntries(followed.map((t) => [t, 1]));

describe("price refresh shared by claims", () => {
  it("two owners passing at once refresh every followed stock once, and each quote is published once", async () => {
    expect(followed.length).toBeGreaterThan(3);
    const [a, b] = await Promise.all([
      refreshClaimedPrices(provider.context, { owner: "a", intervalMs: HOUR, batch: 2 }),
      refreshClaimedPrices(provider.context, { owner: "b", intervalMs: HOUR, batch: 2 }),
    ]);
    const refreshed = [...a.updated, ...b.updated].map((q) => q.ticker).sort();
    expect(refreshed).toEqual(followed);
    await until(() => published.length >= followed.length);
    expect(published.sort()).toEqual(followed);
    expect(await runsByTicker()).toEqual(everyOnce());
  });

  it("does nothing more until the stocks are due again", async () => {
    await refreshClaimedPrices(provider.context, { owner: "a", intervalMs: HOUR });
    const again = await refreshClaimedPrices(provider.context, { owner: "b", intervalMs: HOUR });
    expect(again.updated).toEqual([]);
    expect(await runsByTicker()).toEqual(everyOnce());
  });

  it("takes over the claims of an owner whose lease ran out, and refuses that owner's late completion", async () => {
    await syncPartitions(provider.context.db, "prices", isFollowed);
    // "dead" claims two stocks and never finishes; its lease runs out.
    const held = await claimPartitions(provider.context.db, { job: "prices", owner: "dead", limit: 2, leaseMs: 1 });
    expect(held).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const survivor = await refreshClaimedPrices(provider.context, { owner: "alive", intervalMs: HOUR, batch: 3 });
    expect(survivor.updated.map((q) => q.ticker).sort()).toEqual(followed);
    // The dead owner's work, if it ever came back, would be rolled back rather than counted twice.
    await expect(
      completePartition(provider.context.db, {
        job: "prices",
        owner: "dead",
        stockId: held[0]!.stockId,
        intervalMs: HOUR,
        done: true,
      }),
    ).rejects.toBeInstanceOf(LeaseLost);
    expect(await runsByTicker()).toEqual(everyOnce());
  });

  it("claims only stocks someone follows", async () => {
    await refreshClaimedPrices(provider.context, { owner: "a", intervalMs: HOUR });
    const db = provider.context.db;
    const ticker = followed[0]!;
    const stock = await db.selectFrom("stocks").select("id").where("ticker", "=", ticker).executeTakeFirstOrThrow();
    const [users, uip] = await Promise.all([
      db.selectFrom("user_stocks").select(["id", "active"]).where("stock_id", "=", stock.id).execute(),
      db.selectFrom("uip_stocks").select(["id", "active"]).where("stock_id", "=", stock.id).execute(),
    ]);
    await db.updateTable("user_stocks").set({ active: 0 }).where("stock_id", "=", stock.id).execute();
    await db.updateTable("uip_stocks").set({ active: 0 }).where("stock_id", "=", stock.id).execute();
    try {
      await refreshClaimedPrices(provider.context, { owner: "a", intervalMs: HOUR });
      expect(Object.keys(await runsByTicker()).sort()).toEqual(followed.slice(1));
    } finally {
      for (const row of users)
        await db.updateTable("user_stocks").set({ active: row.active }).where("id", "=", row.id).execute();
      for (const row of uip)
        await db.updateTable("uip_stocks").set({ active: row.active }).where("id", "=", row.id).execute();
    }
  });
});
