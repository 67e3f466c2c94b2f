import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTradierMarket } from "#provider/market/tradier.ts";
import { FAKE_TRADIER_TOKEN, startTradierFake, type TradierFake } from "#provider/market/testing/tradier-fake.ts";
import { isFollowed } from "#provider/store/followed-stocks.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { refreshClaimedPrices } from "./price-job.ts";

/**
 * The vendor's request limit is the first thing the price refresh meets (docs/capacity.md): the
 * shared refresh asks for a claimed batch's quotes at once, so the Tradier adapter joins them into
 * one /markets/quotes request a batch instead of one per four tickers.
 */
let provider: TestProvider;
let fake: TradierFake;

beforeAll(async () => {
  provider = await testProvider();
  fake = await startTradierFake(() => new Date("2026-11-18T17:00:00Z"));
});
afterAll(async () => {
  await fake?.close();
  await provider?.close();
});

describe("shared price refresh against Tradier", () => {
  it("asks for a claimed batch of quotes in one request", async () => {
    const market = createTradierMarket({ token: FAKE_TRADIER_TOKEN, baseUrl: fake.baseUrl });
    const followed = await provider.context.db.selectFrom("stocks as s").select("s.ticker").where(isFollowed).execute();
    expect(followed.length).toBeGreaterThan(8);
    fake.requests.length = 0;
    await refreshClaimedPrices({ ...provider.context, market }, { owner: "a", intervalMs: 3600_000, batch: 8 });
    const quoteRequests = fake.requests.filter((r) => r.path === "/v1/markets/quotes");
    expect(quoteRequests).toHaveLength(Math.ceil(followed.length / 8));
    const asked = quoteRequests.flatMap((r) => r.query.symbols!.split(",")).sort();
    expect(asked).toEqual(followed.map((f) => f.ticker).sort());
  });
});
