import { afterAll, beforeAll, expect, test } from "vitest";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import type { BrokerSnapshot } from "#contract/broker-positions.ts";
import { brokerSnapshot, brokerSnapshots, removeBrokerSnapshot, saveBrokerSnapshot } from "./snapshot-store.ts";

let provider: TestProvider;
let userId: number;

beforeAll(async () => {
  provider = await testProvider();
  userId = (await provider.session("demo", "demo1234")).id;
});
afterAll(() => provider.close());

const koPut = {
  ticker: "KO",
  kind: "option",
  option_type: "put",
  strike: 65,
  expiry: "2026-12-18",
  quantity: -2,
  cost_basis: 0.85,
} as const;
const shares = {
  ticker: "KO",
  kind: "shares",
  option_type: null,
  strike: null,
  expiry: null,
  quantity: 200,
  cost_basis: 63.22,
} as const;

test("a source's newer snapshot replaces its older one; sources are kept apart, the latest first", async () => {
  const db = provider.context.db;
  await saveBrokerSnapshot(db, userId, { source: "ibkr", as_of: "2026-11-20T21:00:00.000Z", positions: [koPut] });
  await saveBrokerSnapshot(db, userId, { source: "tradier", as_of: "2026-11-27T21:00:00.000Z", positions: [shares] });
  await saveBrokerSnapshot(db, userId, {
    source: "ibkr",
    as_of: "2026-11-25T21:00:00.000Z",
    positions: [koPut, shares],
  });

  const all = await brokerSnapshots(db, userId);
  expect(all.map((s) => [s.source, s.as_of, s.positions.length])).toEqual([
    ["tradier", "2026-11-27T21:00:00.000Z", 1],
    ["ibkr", "2026-11-25T21:00:00.000Z", 2],
  ]);
  expect((await brokerSnapshot(db, userId, "ibkr"))?.positions).toEqual([koPut, shares]);

  await removeBrokerSnapshot(db, userId, "ibkr");
  expect(await brokerSnapshot(db, userId, "ibkr")).toBeNull();
});

test("the database refuses what the contract refuses: an unknown source, more than 2,000 positions", async () => {
  const db = provider.context.db;
  const bad = { source: "nobroker", as_of: "2026-11-27T21:00:00.000Z", positions: [] } as unknown as BrokerSnapshot;
  await expect(saveBrokerSnapshot(db, userId, bad)).rejects.toThrow(/check/i);
  const many = {
    source: "ofx",
    as_of: "2026-11-27T21:00:00.000Z",
    positions: Array(2001).fill(shares),
  } as BrokerSnapshot;
  await expect(saveBrokerSnapshot(db, userId, many)).rejects.toThrow(/check/i);
  expect(await brokerSnapshot(db, userId, "ofx")).toBeNull();
});

test("the broker's cash is kept with its positions; a source that states none reads back as null (ADR 0098)", async () => {
  const db = provider.context.db;
  await saveBrokerSnapshot(db, userId, {
    source: "schwab",
    as_of: "2026-11-27T21:10:00.000Z",
    positions: [koPut],
    cash: 13250.4,
  });
  await saveBrokerSnapshot(db, userId, { source: "tastytrade", as_of: "2026-11-27T21:00:00.000Z", positions: [koPut] });
  expect((await brokerSnapshot(db, userId, "schwab"))?.cash).toBe(13250.4);
  expect((await brokerSnapshot(db, userId, "tastytrade"))?.cash).toBeNull();
  const absurd = { source: "ofx", as_of: "2026-11-27T21:00:00.000Z", positions: [], cash: 2e9 } as BrokerSnapshot;
  await expect(saveBrokerSnapshot(db, userId, absurd)).rejects.toThrow(/check|overflow/i);
});
