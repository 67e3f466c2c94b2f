import * as calls from "#contract/calls.ts";
import type { LandingStats, TrackRecord } from "#contract/track-record.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { summarize, type Group } from "#provider/track-record/summary.ts";
import { readCallRecord } from "#provider/track-record/calls-store.ts";
import {
  pricedInLatestSession,
  readTrackRecord,
  stocksFollowed,
  type StoredTrackRecord,
} from "#provider/track-record/store.ts";

/**
 * The track record and the landing figures: public (aggregates of market data, no one's own data),
 * so anyone may ask, and each answer is kept for CACHE_MS so anonymous traffic reads the tables at
 * most that often.
 */
const CACHE_MS = 30_000;

export function trackRecordRoutes(router: Router, context: ProviderContext): void {
  const { db } = context;
  const trackRecord = cached(async (): Promise<TrackRecord> => {
    const [stored, callRecord] = await Promise.all([readTrackRecord(db), readCallRecord(db)]);
    const summary = summarize(stored.picks);
    let firstExpiry: string | null = null;
    for (const p of stored.picks) if (firstExpiry === null || p.expiration < firstExpiry) firstExpiry = p.expiration;
    return {
      simulated: stored.simulated,
      generated_at: new Date().toISOString(),
      totals: {
        ...wire(summary.totals),
        pending: stored.pending,
        live: summary.totals.live,
        backtest: summary.totals.backtest,
        at_mid: stored.atMid,
        first_shown: summary.totals.firstShown,
        first_expiry: firstExpiry,
        last_expiry: summary.totals.lastExpiry,
      },
      calibration: summary.calibration.map((b) => ({ ...wire(b), from: b.from, to: b.to, low: b.low, high: b.high })),
      by_ticker: summary.byTicker.map((g) => ({ ...wire(g), ticker: g.ticker })),
      by_month: summary.byMonth.map((g) => ({ ...wire(g), month: g.month })),
      recent: stored.recent.map(pickRow),
      recent_assigned: stored.recentAssigned.map(pickRow),
      recent_expired: stored.recentExpired.map(pickRow),
      on_collateral: {
        count: summary.onCollateral.count,
        collateral_days: summary.onCollateral.collateralDays,
        promised: summary.onCollateral.promised,
        realised: summary.onCollateral.realised,
        tbills: summary.onCollateral.tbills,
      },
      calls: {
        count: callRecord.count,
        called_away: callRecord.calledAway,
        kept: callRecord.kept,
        pending: callRecord.pending,
        simulated: callRecord.simulated,
        mean_promised_return: callRecord.meanPromisedReturn,
        mean_realised_return: callRecord.meanRealisedReturn,
        pnl_per_contract: callRecord.pnlPerContract,
        mean_chance_called: callRecord.meanChanceCalled,
        first_shown: callRecord.firstShown,
        last_expiry: callRecord.lastExpiry,
      },
    };
  });

  const landingStats = cached(async (): Promise<LandingStats> => {
    const [record, session, followed] = await Promise.all([
      trackRecord(),
      pricedInLatestSession(db),
      stocksFollowed(db),
    ]);
    const t = record.totals;
    return {
      simulated: record.simulated,
      returns:
        t.count > 0 && t.first_expiry && t.last_expiry
          ? { ...record.on_collateral, first_expiry: t.first_expiry, last_expiry: t.last_expiry, at_mid: t.at_mid }
          : null,
      expired_worthless: {
        share: t.count ? t.expired_worthless / t.count : null,
        count: t.count,
        first_expiry: t.first_expiry,
        last_expiry: t.last_expiry,
      },
      scored: t.count,
      tickers_scored: record.by_ticker.length,
      latest_session: { day: session.day, puts_priced: session.puts },
      stocks_followed: followed,
    };
  });

  router.on(calls.trackRecord, () => trackRecord());
  router.on(calls.landingStats, () => landingStats());
}

function wire(g: Group) {
  return {
    count: g.count,
    expired_worthless: g.expiredWorthless,
    assigned: g.assigned,
    profitable: g.profitable,
    mean_predicted: g.meanPredicted,
    observed_profit_rate: g.observedProfitRate,
    mean_promised_return: g.meanPromisedReturn,
    mean_realised_return: g.meanRealisedReturn,
    pnl_per_contract: g.pnlPerContract,
  };
}

/** One computation shared by concurrent callers, reused for CACHE_MS; a failure is not kept. */
function cached<T>(compute: () => Promise<T>): () => Promise<T> {
  let entry: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (entry && Date.now() - entry.at < CACHE_MS) return entry.value;
    const value = compute();
    const current = { at: Date.now(), value };
    entry = current;
    value.catch(() => {
      if (entry === current) entry = null;
    });
    return value;
  };
}

/** A scored pick as the contract sends it. */
function pickRow(p: StoredTrackRecord["recent"][number]) {
  return {
    ticker: p.ticker,
    option_symbol: p.optionSymbol,
    shown_day: p.shownDay,
    expiration: p.expiration,
    strike: p.strike,
    premium: p.premium,
    probability_of_profit: p.probabilityOfProfit,
    close_at_expiry: p.closeAtExpiry,
    outcome: p.outcome,
    pnl_per_share: p.pnlPerShare,
    source: p.source,
  };
}
