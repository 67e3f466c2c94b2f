import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { PutFit } from "#contract/plan.ts";
import type { FitBook } from "#app/lib/plan-fit.ts";
import { userCall } from "./auth.server.ts";
import { ProviderError } from "./provider.server.ts";

/** The book and the fit of each put, by id, for the put cards and the option detail (ADR 0081). */
export interface PlanFitData {
  book: FitBook & { only_fitting: boolean };
  fits: Record<number, PutFit>;
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
    return { book, fits: Object.fromEntries(fits.map((f) => [f.id, f])) };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return null;
  }
}
