import type { Route } from "./+types/route";
import { intentOf } from "#app/lib/intents.ts";
import { INSIGHTS_INTENTS } from "#app/lib/insights-intents.ts";
import { requireUser } from "#app/server/auth.server.ts";
import { generateAction } from "./generate-recommendations.server.ts";
import { saveFiltersAction } from "./trader-filters.server.ts";
import { readForm } from "#app/server/form-body.server.ts";

/** /insights itself: the list is its layout (routes/insights.tsx); this route holds the list's two forms' action. */

export async function action({ request, context }: Route.ActionArgs) {
  requireUser(context);
  const formData = await readForm(request);
  // With JavaScript request.url is /insights.data?…: only its search is read, the path is ours.
  const search = new URL(request.url).searchParams;
  // A post without a known intent is a generation (the form without JavaScript always names one).
  const intent = intentOf(formData, INSIGHTS_INTENTS) ?? "generate";
  switch (intent) {
    case "save-filters":
      return saveFiltersAction(context, formData, search);
    case "generate":
      return generateAction(context, formData, search);
  }
}

export const headers: Route.HeadersFunction = ({ parentHeaders }) => parentHeaders;

export default function InsightsList() {
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "Recommendations · PutSeller" }];
