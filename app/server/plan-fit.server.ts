import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { PutFit } from "#contract/plan.ts";
import { fitNotes, sizingText, type FitBook, type FitMark } from "#app/lib/plan-fit.ts";
import { userCall } from "./auth.server.ts";
import { ProviderError } from "./provider.server.ts";

/**
 * The book and each put's fit in words, by id, for the put cards and the option detail (ADR 0081):
 * written here, so the browser bundles the block that shows them and not the wording rules.
 */
export interface PlanFitData {
  book: FitBook & { only_fitting: boolean };
  marks: Record<number, FitMark>;
}

function markOf(fit: PutFit, book: FitBook): FitMark {
  return {
    fits: fit.fits,
    notes: fitNotes(fit, book),
    sizing: sizingText(fit),
    contracts_allowed: fit.contracts_allowed,
  };
}

/**
 * Whether each recommended put fits the trader's plan; null when there is nothing to ask or the
 * provider cannot say (the cards then show no fit block rather than a guess).
 */
export async function loadPlanFits(
  context: Readonly<RouterContextProvider>,
  ids: readonly number[],
): Promise<PlanFitData | null> {
  if (ids.length === 0) return null;
  try {
    const { fits, ...book } = await userCall(context, calls.planFits, { query: { ids: ids.slice(0, 200).join(",") } });
    return { book, marks: Object.fromEntries(fits.map((f) => [f.id, markOf(f, book)])) };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return null;
  }
}
