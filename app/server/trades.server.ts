import { type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { requireUser, userCall } from "./auth.server.ts";

/**
 * What the journal's screens share (README "The wheel journal"): their toasts and the export; Add
 * Trade, the Trades list and the import keep their own in their folders under app/routes/.
 */

type Context = Readonly<RouterContextProvider>;

/**
 * The journal screens' toasts (docs/product.md#screens-trades-screen, #screens-add-trade-forms,
 * #screens-import-trades), spelled once. Server-only: no page's first load carries them.
 */
export const JOURNAL_TEXT = {
  saved: (trade: string, withExit: boolean) => `Trade saved: ${trade}${withExit ? " and its exit" : ""}`,
  exitNotSaved: (reason: string) => `The entry was saved; the exit was not: ${reason}`,
  deleted: "Trade deleted",
  unknownAction: "Unknown action",
  imported: (added: number, duplicates: number, refused: number) =>
    `Imported ${added} ${added === 1 ? "trade" : "trades"}; ${duplicates} already in the journal, ${refused} refused`,
} as const;

/** The journal as a CSV download. */
export async function exportJournal(context: Context) {
  requireUser(context);
  const stream = await userCall(context, calls.exportTrades);
  return new Response(stream, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="putseller-trades.csv"',
      "cache-control": "no-store",
    },
  });
}
