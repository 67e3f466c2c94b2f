/**
 * Whose intrinsic values and buy levels rank a ticker's puts, as a pure rule (ADR 0043):
 * the caller's own watchlist row; otherwise the shared UIP list's; otherwise the median, level by
 * level, of the watchlists that flagged the ticker for recommendations; otherwise none. Generation
 * (levels.ts) and the AI's facts (ai/facts-derive.ts) both pick through it.
 */
import { LEVEL_COLUMNS, NO_LEVELS, type ReferenceLevels } from "./level-flags.ts";

export type LevelsSource = "caller" | "uip" | "watchlists" | "none";

export interface LevelCandidates {
  own: ReferenceLevels | null;
  uip: ReferenceLevels | null;
  /** The active watchlist rows that flagged the ticker (read only when neither row above exists). */
  flagged: readonly ReferenceLevels[];
}

/** The level columns of a row, as numbers (rows read as JSON may carry them as strings). */
const pick = (row: ReferenceLevels): ReferenceLevels =>
  Object.fromEntries(LEVEL_COLUMNS.map((c) => [c, Number(row[c])])) as never;

/** Median of the values that are set (> 0); 0 when none is. */
function median(values: number[]): number {
  const set = values.filter((v) => v > 0).sort((a, b) => a - b);
  if (set.length === 0) return 0;
  const mid = Math.floor(set.length / 2);
  return set.length % 2 ? set[mid]! : (set[mid - 1]! + set[mid]!) / 2;
}

/** Whose conservative value a reader's put filter uses (ADR 0083): theirs, the UIP list's, or none. */
export type ConservativeSource = "watchlist" | "uip" | "none";

/**
 * The levels a reader sees puts against: their own watchlist row, else the shared UIP row. An empty
 * conservative value is stored as 0 (docs/product.md), and 0 means "not set", never "no limit": the
 * UIP row's value stands in for it, and `conservativeSource` says whose it is so the screen can say
 * so (ADR 0083).
 */
export function readerLevels(
  own: ReferenceLevels | null,
  uip: ReferenceLevels | null,
): { levels: ReferenceLevels | null; conservativeSource: ConservativeSource } {
  const base = own ?? uip;
  if (!base) return { levels: null, conservativeSource: "none" };
  if (own && Number(own.conservative_iv) > 0) return { levels: pick(own), conservativeSource: "watchlist" };
  if (uip && Number(uip.conservative_iv) > 0) {
    return { levels: { ...pick(base), conservative_iv: Number(uip.conservative_iv) }, conservativeSource: "uip" };
  }
  return { levels: pick(base), conservativeSource: "none" };
}

export function chooseReferenceLevels(rows: LevelCandidates): { levels: ReferenceLevels; source: LevelsSource } {
  if (rows.own) return { levels: readerLevels(rows.own, rows.uip).levels!, source: "caller" };
  if (rows.uip) return { levels: pick(rows.uip), source: "uip" };
  if (rows.flagged.length === 0) return { levels: { ...NO_LEVELS }, source: "none" };
  const flagged = rows.flagged.map(pick);
  const levels = Object.fromEntries(LEVEL_COLUMNS.map((c) => [c, median(flagged.map((row) => row[c]))])) as never;
  return { levels, source: "watchlists" };
}

/**
 * Whether a reader may be shown levels from this source: their own row or the shared UIP row.
 * The median of other traders' private values may rank puts but is never served (ADR 0007).
 */
export const shownToReader = (source: LevelsSource): boolean => source === "caller" || source === "uip";
