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

  it("ranks the best put by the flagging watchlists' median as generation does, but shows none of those values", async () => {
    const plain = await gathered("TSLA", { levels: NO_LEVELS, source: "none" });
    const rank = (levels: typeof NO_LEVELS) =>
      analyzeChain({
        chain: plain.chain!,
        closes: plain.history!.map((b) => b.close),
        levels,
        earningsDate: null,
        ivHistory: [],
      }).candidates;
    const [unlevelledBest, ...others] = rank(NO_LEVELS);
    // A lower strike close enough in score that a buy level at it wins (TSLA on this day has one).
    const lower = others.find(
      (c) => c.strike < unlevelledBest!.strike && c.score * SCORE.atOrBelowBuyLevel > unlevelledBest!.score,
    )!;
    expect(lower).toBeDefined();
    // Two traders' buy levels a dollar either side of it: their median is that strike.
    const flagged = [lower.strike - 1, lower.strike + 1].map((v) => ({ ...NO_LEVELS, buy_level_one: v }));
    const chosen = chooseReferenceLevels({ own: null, uip: null, flagged });
    expect(chosen.levels.buy_level_one).toBe(lower.strike);
    const facts = deriveStockFacts({ ...plain, chosen });

    const engineBest = rank(chosen.levels)[0]!;
    expect(facts.bestPut?.symbol).toBe(engineBest.symbol);
    // The example is only telling when the median changes the pick.
    expect(engineBest.symbol).not.toBe(unlevelledBest!.symbol);
    expect(facts.levelsSource).toBe("none");
    expect(facts.levels).toBeNull();
    expect(facts.gaps).toEqual([]);
    expect(facts.bestPut?.buyLevel).toBeNull();
    expect(facts.bestPut?.belowConservativeIv).toBe(false);
  });
});
