/**
 * Whose intrinsic values and buy levels rank a ticker's puts. Recommendations are one shared set per
 * ticker, so: the levels of the user who asked for the generation when the ticker is in their
 * watchlist; otherwise the shared UIP list's; otherwise the median, level by level, of the
 * watchlists that flagged the ticker for recommendations; otherwise none.
 */
import type { Db } from "../db/client.ts";
import { NO_LEVELS, type ReferenceLevels } from "./engine.ts";

export type LevelsSource = "caller" | "uip" | "watchlists" | "none";

/** The columns of a watchlist or UIP row that rank and flag puts (user_stocks and uip_stocks alike). */
export const LEVEL_COLUMNS = [
  "base_iv",
  "conservative_iv",
  "average_iv",
  "buy_level_one",
  "buy_level_two",
  "buy_level_three",
  "buy_level_four",
] as const;

const pick = (row: ReferenceLevels): ReferenceLevels =>
  Object.fromEntries(LEVEL_COLUMNS.map((c) => [c, row[c]])) as never;

/** Median of the values that are set (> 0); 0 when none is. */
function median(values: number[]): number {
  const set = values.filter((v) => v > 0).sort((a, b) => a - b);
  if (set.length === 0) return 0;
  const mid = Math.floor(set.length / 2);
  return set.length % 2 ? set[mid]! : (set[mid - 1]! + set[mid]!) / 2;
}

/**
 * Picks the levels: the caller's row and the UIP row are read with the rest of the generation's
 * inputs (store.ts generationInputs); only when neither exists are the flagging watchlists read.
 */
export async function referenceLevels(
  db: Db,
  stockId: number,
  known: { own: ReferenceLevels | null; uip: ReferenceLevels | null },
): Promise<{ levels: ReferenceLevels; source: LevelsSource }> {
  if (known.own) return { levels: pick(known.own), source: "caller" };
  if (known.uip) return { levels: pick(known.uip), source: "uip" };
  const flagged = await db
    .selectFrom("user_stocks")
    .select(LEVEL_COLUMNS)
    .where("stock_id", "=", stockId)
    .where("active", "=", 1)
    .where("generate_recommendation", "=", true)
    .execute();
  if (flagged.length === 0) return { levels: { ...NO_LEVELS }, source: "none" };
  const levels = Object.fromEntries(LEVEL_COLUMNS.map((c) => [c, median(flagged.map((row) => row[c]))])) as never;
  return { levels, source: "watchlists" };
}
