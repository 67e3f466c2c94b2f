import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { notFound } from "#provider/http/errors.ts";
import { findTrade } from "#provider/journal/store.ts";
import { rollCandidatesOf } from "#provider/journal/roll-candidates.ts";
import { requireListed } from "#provider/journal/trade-checks.ts";
import { addTrades, buildJournal, removeTrade } from "#provider/journal/journal.ts";
import { importTrades, previewImport } from "#provider/journal/import.ts";
import { exportCsv } from "#provider/journal/export.ts";

/** The wheel journal: every call works on the caller's own trades only (admins included). */
export function tradeRoutes(router: Router, context: ProviderContext): void {
  const { db, market } = context;
  // Open or closed, days held, "not in the future": on the market's clock (ADR 0091).
  const now = () => context.now().getTime();

  router.on(calls.listTrades, async ({ caller }) => {
    const journal = await buildJournal(db, market, caller.id, null, now());
    return journal.rows;
  });

  router.on(calls.addTrade, async ({ caller, body }) => {
    await requireListed(market, [body]);
    const [trade] = await addTrades(db, caller.id, [{ trade: body }], now());
    return trade!;
  });

  router.on(calls.getTrade, async ({ caller, params }) => {
    // Someone else's trade answers like a missing one, so ids cannot be probed.
    const trade = await findTrade(db, caller.id, params.id);
    if (!trade) throw notFound("Trade not found");
    return trade;
  });

  router.on(calls.deleteTrade, async ({ caller, params }) => {
    await removeTrade(db, caller.id, params.id, now());
    return { ok: true as const };
  });

  router.on(calls.rollTrade, async ({ caller, body }) => {
    await requireListed(market, [body.open]);
    const [close, open] = await addTrades(
      db,
      caller.id,
      [{ trade: body.close }, { trade: body.open, rollOf: 0 }],
      now(),
    );
    return { close: close!, open: open! };
  });

  router.on(calls.rollCandidates, async ({ caller, params }) => {
    return rollCandidatesOf(db, market, caller.id, params.tradeId, now());
  });

  router.on(calls.getJournal, async ({ caller, query }) => {
    return buildJournal(db, market, caller.id, query.from ? Date.parse(query.from) : null, now());
  });

  router.on(calls.exportTrades, async ({ caller }) => {
    return new Response(await exportCsv(db, caller.id, now()), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": 'attachment; filename="trades.csv"',
        "cache-control": "no-store",
      },
    });
  });

  // Files cost work in proportion to their lines: counted per trader before any is read (ADR 0073).
  router.on(calls.previewImport, async ({ caller, body }) => {
    await context.limiter.hit(context.work.brokerFile, String(caller.id));
    return previewImport(db, caller.id, body.broker, body.csv, body.openings, now(), market);
  });

  router.on(calls.importTrades, async ({ caller, body }) => {
    await context.limiter.hit(context.work.brokerFile, String(caller.id));
    return importTrades(db, caller.id, body.broker, body.csv, body.openings, now(), market);
  });
}
