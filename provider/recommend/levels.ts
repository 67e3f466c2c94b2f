/**
 * Whose intrinsic values and buy levels rank a ticker's puts: the rule of reference-levels.ts, with
 * the flagging watchlists read from the store only when neither the caller's row nor the UIP row exists.
 */
import type { Db } from "#provider/db/client.ts";
import { LEVEL_COLUMNS, type ReferenceLevels } from "./level-flags.ts";
import { chooseReferenceLevels, type LevelsSource } from "./reference-levels.ts";

export { LEVEL_COLUMNS } from "./level-flags.ts";
export type { LevelsSource } from "./reference-levels.ts";

/**
 * Picks the levels: the caller's row and the UIP row are read with the rest of the generation's
 * inputs (store.ts generationInputs); only when neither exists are the flagging watchlists read.
 */
export async function referenceLevels(
  db: Db,
  stockId: number,
  known: { own: ReferenceLevels | null; uip: ReferenceLevels | null },
): Promise<{ levels: ReferenceLevels; source: LevelsSource }> {
  const flagged =
    known.own || known.uip
      ? []
      : await db
          .selectFrom("user_stocks")
          .select(LEVEL_COLUMNS)
          .where("stock_id", "=", stockId)
          .where("active", "=", 1)
          .where("generate_recommendation", "=", true)
          .execute();
  return chooseReferenceLevels({ ...known, flagged });
}
