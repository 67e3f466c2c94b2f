import { describe, expect, it } from "vitest";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { analyzeChain } from "#provider/recommend/engine.ts";
import { NO_LEVELS } from "#provider/recommend/level-flags.ts";
import { SCORE } from "#provider/recommend/selection.ts";
import { chooseReferenceLevels } from "#provider/recommend/reference-levels.ts";
import { deriveStockFacts, TREND_DAYS, type GatheredStock } from "./facts-derive.ts";

// Wednesday 2026-11-18 at noon in New York.
const AS_OF = new Date("2026-11-18T17:00:00Z");
const market = createSimulatedMarket({ seed: 7, tickers: DEMO_TICKERS, now: () => AS_OF });

async function gathered(ticker: string, chosen: GatheredStock["chosen"]): Promise<GatheredStock> {
  const [quote, history, chain] = await Promise.all([
    market.quote(ticker),
    market.dailyHistory(ticker, TREND_DAYS + 1),
    market.optionChain(ticker),
  ]);
  return {
    stock: { ticker, name: ticker, current_price: quote.price, updated_at: null },
    chosen,
    category: null,
    ivHistory: [],
    quote,
    history,
    chain,
    earningsDate: null,
    missing: [],
    now: AS_OF,
  };
}

describe("the stock analysis's facts", () => {
  it("shows the caller's own levels and the gap of each set one to the price", async () => {
    const input = await gathered("AAPL", {
      levels: { ...NO_LEVELS, conservative_iv: 100, buy_level_one: 80 },
      source: "caller",
    });
    const facts = deriveStockFacts(input);
    const price = input.quote!.price;
    expect(facts.levelsSource).toBe("watchlist");
    expect(facts.gaps).toEqual([
      { level: "conservative_iv", value: 100, gap: price / 100 - 1 },
      { level: "buy_level_one", value: 80, gap: price / 80 - 1 },
    ]);
  });

  it("picks the put the reader's list would show first: other traders' median levels neither rank nor show", async () => {
    const plain = await gathered("TSLA", { levels: NO_LEVELS, source: "none" });
    const [unlevelledBest, ...others] = analyzeChain({
      chain: plain.chain!,
      closes: plain.history!.map((b) => b.close),
      levels: NO_LEVELS,
      earningsDate: null,
      ivHistory: [],
    }).candidates;
    // A lower strike close enough in score that a buy level at it would win generation's ranking.
    const lower = others.find(
      (c) => c.strike < unlevelledBest!.strike && c.score * SCORE.atOrBelowBuyLevel > unlevelledBest!.score,
    )!;
    expect(lower).toBeDefined();
    const flagged = [lower.strike - 1, lower.strike + 1].map((v) => ({ ...NO_LEVELS, buy_level_one: v }));
    const chosen = chooseReferenceLevels({ own: null, uip: null, flagged });
    expect(chosen.levels.buy_level_one).toBe(lower.strike);
    const facts = deriveStockFacts({ ...plain, chosen });
    // The reader has no levels of their own or the UIP list's: their list ranks without any.
    expect(facts.bestPut?.symbol).toBe(deriveStockFacts(plain).bestPut?.symbol);
    expect(facts.bestPutSource).toBe("live");
    // Within the reader's (default) filters, unlike the unfiltered pool's best.
    expect(Math.abs(facts.bestPut!.delta)).toBeLessThanOrEqual(0.35);
    expect(facts.bestPut!.daysToExpiry).toBeGreaterThanOrEqual(7);
    expect(facts.levelsSource).toBe("none");
    expect(facts.levels).toBeNull();
    expect(facts.gaps).toEqual([]);
    expect(facts.bestPut?.buyLevel).toBeNull();
    expect(facts.bestPut?.belowConservativeIv).toBe(false);
  });
});
