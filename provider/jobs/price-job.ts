/**
 * Live prices (docs/product.md#states-live, #entities-config): while the admin switch is on,
 * the leader quotes every stock on someone's watchlist or on the UIP list every
 * PRICE_REFRESH_SECONDS, stores what changed (stocks.current_price/updated_at and the session's
 * price_history bar), tells the users whose buy levels the move crossed, and publishes one
 * `stock_price_update` with the changed quotes on the bus for /ws/stock-updates; then raises the
 * alerts on open short puts (provider/alerts/position-alerts.ts). On a PostgreSQL server every
 * provider process shares the refresh instead, stock by stock (refreshClaimedPrices, ADR 0085).
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "#provider/db/schema.ts";
import { StockPriceUpdate, type PriceQuote } from "#contract/ws.ts";
import { STOCK_UPDATES_CHANNEL } from "#provider/bus/channels.ts";
import type { ProviderContext } from "#provider/context.ts";
import { isoDateOf, nyClock } from "#provider/market/calendar.ts";
import { MarketDataError, type Quote } from "#provider/market/port.ts";
import { notifyPriceCrossings } from "#provider/push/alerts.ts";
import { raisePositionAlerts } from "#provider/alerts/position-alerts.ts";
import { configFlag } from "#provider/store/config-flag.ts";
import { isFollowed } from "#provider/store/followed-stocks.ts";
import type { Job } from "./scheduler.ts";
import { claimPartitions, completePartition, LeaseLost, releasePartitions, syncPartitions } from "./partitions.ts";

export const PRICE_JOB = "prices";

export type PriceContext = Pick<ProviderContext, "db" | "market" | "bus" | "push">;

export interface PriceJobOptions {
  /** Pause between the end of one refresh and the start of the next (PRICE_REFRESH_SECONDS). */
  intervalMs: number;
  /** Quotes asked of the vendor at once. */
  concurrency?: number | undefined;
}

export interface RefreshResult {
  /** The quotes that changed, as published. */
  updated: PriceQuote[];
  failed: { ticker: string; error: Error }[];
  /** True when the vendor said to slow down and the rest of the run was skipped. */
  rateLimited: boolean;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Stocks someone looks at: on an active watchlist row or an active UIP row. */
async function watchedStocks(db: PriceContext["db"]) {
  return db
    .selectFrom("stocks as s")
    .select(["s.id", "s.ticker", "s.current_price", "s.updated_at"])
    .where(isFollowed)
    .orderBy("s.ticker")
    .execute();
}

type Watched = Awaited<ReturnType<typeof watchedStocks>>[number];

/** Called for every stock quoted well, inside the transaction that stores its change if there is one. */
type Settle = (db: Kysely<Database> | Transaction<Database>, stock: Watched) => Promise<void>;

/** Stores one changed quote: the stock's price and the session's bar (merged with what is there). */
async function store(db: PriceContext["db"], stock: Watched, quote: Quote, price: number, settle?: Settle) {
  const day = quote.session?.time ?? isoDateOf(nyClock(quote.asOf).dayNumber);
  const bar = quote.session ?? { open: price, high: price, low: price, close: price, volume: 0 };
  await db.transaction().execute(async (tx) => {
    await settle?.(tx, stock);
    await tx
      .updateTable("stocks")
      .set({ current_price: price, updated_at: quote.asOf, price_source: quote.source })
      .where("id", "=", stock.id)
      .execute();
    // The demo market's replay (ADR 0037) moves the live price only: the session's stored bar stays
    // the real one, which the charts and the history read.
    if (quote.replay) return;
    // The first write of a session keeps the source's open; later ones widen the range and move the
    // close. The at-the-money IV that generation records on the same row is left alone.
    await tx
      .insertInto("price_history")
      .values({
        stock_id: stock.id,
        day,
        open: bar.open,
        high: Math.max(bar.high, price),
        low: Math.min(bar.low, price),
        close: price,
        volume: Math.round(bar.volume),
      })
      .onConflict((oc) =>
        oc.columns(["stock_id", "day"]).doUpdateSet({
          high: sql<number>`greatest(price_history.high, excluded.high)`,
          low: sql<number>`least(price_history.low, excluded.low)`,
          close: (eb) => eb.ref("excluded.close"),
          volume: sql<number>`greatest(price_history.volume, excluded.volume)`,
        }),
      )
      .execute();
  });
}

/**
 * One refresh: quotes the watched stocks a few at a time, stores and announces those whose price
 * or time changed, and publishes them in one message. A vendor failure skips that ticker; a rate
 * limit ends the run (the next one is an interval away).
 */
export async function refreshPrices(
  context: PriceContext,
  options: { signal?: AbortSignal | undefined; concurrency?: number | undefined } = {},
): Promise<RefreshResult> {
  const result: RefreshResult = { updated: [], failed: [], rateLimited: false };
  await quoteAndStore(context, await watchedStocks(context.db), options, result);
  await publish(context, result.updated);
  return result;
}

async function publish(context: PriceContext, updated: PriceQuote[]): Promise<void> {
  if (!updated.length) return;
  await context.bus.publish(
    STOCK_UPDATES_CHANNEL,
    StockPriceUpdate.parse({ type: "stock_price_update", data: updated }),
  );
}

/** Quotes `stocks` a few at a time and stores what changed; `settle` runs for each stock quoted well. */
async function quoteAndStore(
  context: PriceContext,
  stocks: Watched[],
  options: { signal?: AbortSignal | undefined; concurrency?: number | undefined; settle?: Settle | undefined },
  result: RefreshResult,
): Promise<void> {
  const { db, market } = context;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  for (let i = 0; i < stocks.length && !options.signal?.aborted && !result.rateLimited; i += concurrency) {
    const batch = stocks.slice(i, i + concurrency);
    const quotes = await Promise.all(
      batch.map((stock) =>
        market.quote(stock.ticker).then(
          (quote) => ({ stock, quote }),
          (error: Error) => ({ stock, error }),
        ),
      ),
    );
    for (const outcome of quotes) {
      if ("error" in outcome) {
        if (outcome.error instanceof MarketDataError && outcome.error.status === 429) result.rateLimited = true;
        result.failed.push({ ticker: outcome.stock.ticker, error: outcome.error });
        continue;
      }
      const { stock, quote } = outcome;
      const price = round2(quote.price);
      if (!(price > 0)) continue;
      const stored = stock.updated_at ? new Date(stock.updated_at).getTime() : null;
      try {
        if (price === stock.current_price && stored === quote.asOf.getTime()) {
          await options.settle?.(db, stock);
          continue;
        }
        await store(db, stock, quote, price, options.settle);
      } catch (error) {
        // Another process took this stock over (our lease ran out): its run counts, ours is undone.
        if (error instanceof LeaseLost) continue;
        throw error;
      }
      result.updated.push({ ticker: stock.ticker, current_price: price, updated_at: quote.asOf.toISOString() });
      if (stock.current_price > 0 && price !== stock.current_price) {
        await notifyPriceCrossings(context, { stockId: stock.id, previousPrice: stock.current_price, price }).catch(
          (error: Error) => console.error(`[prices] alerts for ${stock.ticker} failed: ${error.message}`),
        );
      }
    }
  }
}

export function priceRefreshJob(context: PriceContext, options: PriceJobOptions): Job {
  return {
    name: PRICE_JOB,
    intervalMs: options.intervalMs,
    async run(signal) {
      if (!(await configFlag(context.db, "auto_refresh_enabled"))) return;
      const { failed, rateLimited } = await refreshPrices(context, { signal, concurrency: options.concurrency });
      // Alerts on open short puts follow every refresh (ADR 0034); their own failure is logged only.
      if (!rateLimited) {
        await raisePositionAlerts(context, { signal }).catch((error: Error) =>
          console.error(`[alerts] position alerts failed: ${error.message}`),
        );
      }
      if (failed.length) {
        const tickers = failed.map((f) => f.ticker).join(", ");
        console.error(`[prices] no quote for ${tickers}: ${failed[0]!.error.message}`);
      }
      if (rateLimited)
        console.error("[prices] the market-data vendor is rate limiting; the rest waits for the next run");
    },
  };
}

export interface PartitionedPriceOptions {
  /** PRICE_REFRESH_SECONDS: a stock is due again this long after it was last claimed. */
  intervalMs: number;
  /** This process's name on its claims (unique among the processes). */
  owner: string;
  /** Stocks claimed, and quoted, at once; a dead process holds at most this many until its lease expires. */
  batch?: number | undefined;
  /** How long a claim is held before another process may take it over. */
  leaseMs?: number | undefined;
  concurrency?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Whether to add and drop partitions for stocks newly followed or no longer followed first. */
  sync?: boolean | undefined;
}

/**
 * One pass of the price refresh shared by every provider process on a PostgreSQL server (ADR
 * 0085): claims due stocks a batch at a time until none is due, stores each changed quote in the
 * transaction that completes its claim, and publishes each batch's changes.
 */
export async function refreshClaimedPrices(context: PriceContext, options: PartitionedPriceOptions) {
  const { db } = context;
  const { owner, intervalMs } = options;
  const batch = options.batch ?? 20;
  const leaseMs = options.leaseMs ?? 60_000;
  const result: RefreshResult = { updated: [], failed: [], rateLimited: false };
  if (options.sync !== false) await syncPartitions(db, "prices", isFollowed);
  try {
    while (!options.signal?.aborted && !result.rateLimited) {
      const claims = await claimPartitions(db, { job: "prices", owner, limit: batch, leaseMs });
      if (!claims.length) break;
      const stocks = await db
        .selectFrom("stocks as s")
        .select(["s.id", "s.ticker", "s.current_price", "s.updated_at"])
        .where(
          "s.id",
          "in",
          claims.map((c) => c.stockId),
        )
        .orderBy("s.ticker")
        .execute();
      const settled = new Set<number>();
      const batchResult: RefreshResult = { updated: [], failed: [], rateLimited: false };
      await quoteAndStore(
        context,
        stocks,
        {
          signal: options.signal,
          // The whole batch at once: a vendor that joins concurrent quotes (Tradier) asks for it in one
          // request (docs/capacity.md, the vendor's limit); Yahoo's client queues its own four.
          concurrency: options.concurrency ?? batch,
          settle: async (tx, stock) => {
            await completePartition(tx, { job: "prices", owner, stockId: stock.id, intervalMs, done: true });
            settled.add(stock.id);
          },
        },
        batchResult,
      );
      // A failed quote, or one skipped by a rate limit, waits for the next round as it does in one process.
      if (!options.signal?.aborted) {
        for (const claim of claims) {
          if (settled.has(claim.stockId)) continue;
          await completePartition(db, { job: "prices", owner, stockId: claim.stockId, intervalMs, done: false }).catch(
            (error: unknown) => {
              if (!(error instanceof LeaseLost)) throw error;
            },
          );
        }
      }
      await publish(context, batchResult.updated);
      result.updated.push(...batchResult.updated);
      result.failed.push(...batchResult.failed);
      result.rateLimited ||= batchResult.rateLimited;
    }
  } finally {
    // Stopping: what this process still holds is due at once for the others.
    if (options.signal?.aborted) await releasePartitions(db, { job: "prices", owner }).catch(() => {});
  }
  return result;
}

/**
 * The price refresh on a PostgreSQL server: every process runs it, every `pollMs` looking for due
 * stocks; the alerts on open short puts stay with the leader (positionAlertsJob).
 */
export function partitionedPriceJob(
  context: PriceContext,
  options: Omit<PartitionedPriceOptions, "signal"> & { pollMs?: number | undefined },
): Job {
  // The followed stocks are listed again (a scan of the lists) once a minute at most, and when the
  // switch comes on: a stock added meanwhile waits at most that long, as it waited for the next round.
  const syncEveryMs = Math.min(60_000, options.intervalMs);
  let syncedAt = -Infinity;
  return {
    name: PRICE_JOB,
    everyProcess: true,
    intervalMs: Math.min(options.pollMs ?? 5_000, options.intervalMs),
    async run(signal) {
      if (!(await configFlag(context.db, "auto_refresh_enabled"))) {
        syncedAt = -Infinity;
        return;
      }
      const sync = Date.now() - syncedAt >= syncEveryMs;
      if (sync) syncedAt = Date.now();
      const { failed, rateLimited } = await refreshClaimedPrices(context, { ...options, signal, sync });
      if (failed.length) {
        const tickers = failed.map((f) => f.ticker).join(", ");
        console.error(`[prices] no quote for ${tickers}: ${failed[0]!.error.message}`);
      }
      if (rateLimited)
        console.error("[prices] the market-data vendor is rate limiting; the rest waits for the next round");
    },
  };
}

const POSITION_ALERTS_JOB = "position-alerts";

/** With the refresh partitioned, the alerts on open short puts run in the leader on the refresh's beat (ADR 0034). */
export function positionAlertsJob(context: PriceContext, options: { intervalMs: number }): Job {
  return {
    name: POSITION_ALERTS_JOB,
    intervalMs: options.intervalMs,
    async run(signal) {
      if (!(await configFlag(context.db, "auto_refresh_enabled"))) return;
      await raisePositionAlerts(context, { signal }).catch((error: Error) =>
        console.error(`[alerts] position alerts failed: ${error.message}`),
      );
    },
  };
}
