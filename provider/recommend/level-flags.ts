/** A trader's reference levels and how a strike sits against them (the engine and every reader alike). */

export type BuyLevelName = "one" | "two" | "three" | "four";

/** The intrinsic values and buy levels the ranking favours (a watchlist or UIP row); 0 means not set. */
export interface ReferenceLevels {
  base_iv: number;
  conservative_iv: number;
  average_iv: number;
  buy_level_one: number;
  buy_level_two: number;
  buy_level_three: number;
  buy_level_four: number;
}

/** The columns of a watchlist or UIP row that rank and flag puts (user_stocks and uip_stocks alike). */
export const LEVEL_COLUMNS = [
  "base_iv",
  "conservative_iv",
  "average_iv",
  "buy_level_one",
  "buy_level_two",
  "buy_level_three",
  "buy_level_four",
] as const satisfies readonly (keyof ReferenceLevels)[];

export const NO_LEVELS: ReferenceLevels = {
  base_iv: 0,
  conservative_iv: 0,
  average_iv: 0,
  buy_level_one: 0,
  buy_level_two: 0,
  buy_level_three: 0,
  buy_level_four: 0,
};

const LEVEL_NAMES: [keyof ReferenceLevels, BuyLevelName][] = [
  ["buy_level_one", "one"],
  ["buy_level_two", "two"],
  ["buy_level_three", "three"],
  ["buy_level_four", "four"],
];

/** The lowest buy level the strike sits at or below (levels of 0 are not set), or null. */
export function buyLevelAtOrAbove(strike: number, levels: ReferenceLevels): BuyLevelName | null {
  let best: { name: BuyLevelName; value: number } | null = null;
  for (const [column, name] of LEVEL_NAMES) {
    const value = levels[column];
    if (value > 0 && strike <= value && (!best || value < best.value)) best = { name, value };
  }
  return best?.name ?? null;
}

/**
 * How a strike sits against a set of levels: the lowest buy level it is at or below, and whether it
 * is below the conservative intrinsic value. Ranking uses it, and so does every reader of a stored
 * row (store.ts), each against the levels that reader may see.
 */
export function levelFlags(
  strike: number,
  levels: ReferenceLevels,
): { buyLevel: BuyLevelName | null; belowConservativeIv: boolean } {
  return {
    buyLevel: buyLevelAtOrAbove(strike, levels),
    belowConservativeIv: levels.conservative_iv > 0 && strike < levels.conservative_iv,
  };
}
