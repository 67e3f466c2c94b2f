import type { Href } from "#app/lib/href.ts";
import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { Journal } from "#contract/entities.ts";
import { filterTrades, periodStart, readFilters } from "#app/lib/trade-journal.ts";
import { intentOf } from "#app/lib/intents.ts";
import { TRADE_INTENTS } from "#app/lib/trade-intents.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { readForm } from "#app/server/form-body.server.ts";
import { JOURNAL_TEXT } from "#app/server/trades.server.ts";

type Context = Readonly<RouterContextProvider>;

const instrumentOf = (row: Journal["rows"][number]) => (row.option_type === null ? "stocks" : "options");

/** The Trades screen: the period's rows of the chosen instrument, with positions, cycles and figures. */
export async function loadJournal(request: Request, context: Context) {
  requireUser(context);
  const filters = readFilters(new URL(request.url).searchParams);
  const now = new Date();
  const from = periodStart(filters.period, now);
  const journal = await userCall(context, calls.getJournal, { query: { from: from?.toISOString() } });
  const rows = filterTrades(
    journal.rows.map((row) => ({ ...row, instrument: instrumentOf(row), openedAt: row.traded_at })),
    filters,
    now,
  );
  const closed = rows.filter((r) => r.realised_pnl !== null);
  const netPnl = Math.round(closed.reduce((sum, r) => sum + (r.realised_pnl ?? 0), 0) * 100) / 100;
  return { filters, journal, rows, closedCount: closed.length, netPnl };
}

/** The Trades screen's action: delete a trade. */
export async function journalAction(request: Request, context: Context) {
  requireUser(context);
  const formData = await readForm(request);
  const back = `${"/portfolio" satisfies Href}${new URL(request.url).search}`;
  if (intentOf(formData, TRADE_INTENTS) !== "delete")
    return redirectWithToast(back, { type: "error", text: JOURNAL_TEXT.unknownAction });
  const id = Number(formData.get("id"));
  try {
    await userCall(context, calls.deleteTrade, { params: { id } });
    return redirectWithToast(back, { type: "success", text: JOURNAL_TEXT.deleted });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status === 0 || error.status >= 500) throw error;
    return redirectWithToast(back, { type: "warning", text: error.detail ?? error.message });
  }
}
