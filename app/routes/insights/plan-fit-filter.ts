/**
 * The /insights filter "only puts that fit my free cash and limits" (ADR 0081), pure; apart from
 * app/lib/plan-fit.ts (shared with the fit block) so the list's code carries these two rules only.
 */
import type { FitMark } from "#app/lib/plan-fit.ts";

/**
 * Whether /insights shows only the puts that fit: the address says ("only" or "all"), else the
 * trader's setting, which counts only once capital is set.
 */
export function fitFilterOn(param: string | null, book: { capital: number | null; only_fitting: boolean }): boolean {
  if (book.capital === null) return false;
  if (param === "all") return false;
  if (param === "only") return true;
  return book.only_fitting;
}

/** The puts the fit filter lets through: those known not to fit go; one not asked about yet stays. */
export function fittingOnly<T extends { id: number }>(
  options: readonly T[],
  marks: Readonly<Record<number, Pick<FitMark, "fits">>>,
): T[] {
  return options.filter((o) => marks[o.id]?.fits !== false);
}
