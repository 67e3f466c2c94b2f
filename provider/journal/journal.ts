import { createHash } from "node:crypto";
import type { Db } from "#provider/db/client.ts";
import {
  TradeInput,
  type Broker,
  type ImportPreview,
  type Journal,
  type Trade,
  type TradeInput as TradeInputType,
} from "#contract/entities.ts";
import { describeZodError, HttpError, notFound } from "#provider/http/errors.ts";
import type { MarketData } from "#provider/market/port.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import { CsvFormatError, type ParsedLine } from "./brokers/csv.ts";
import { parseIbkr } from "./brokers/ibkr.ts";
import { parseTastytrade } from "./brokers/tastytrade.ts";
import { positionKey, sentAlertsOf } from "#provider/alerts/position-alerts.ts";
import type { PositionAlertsByOption } from "#contract/position-alerts.ts";
import * as store from "./store.ts";
import { testedOrLosing } from "./rolls.ts";
import { CONTRACT_SIZE, cycleFigures, legAtMark, periodStats, replay, type WheelTrade } from "./wheel.ts";

/**
 * The journal's use cases: add a trade (or a roll, or a broker file) only when the whole journal
 * still replays with it, and the journal screen's figures. Every write runs in one transaction
 * under the user's journal lock.
 */

const KIND_WORDS: Record<Trade["kind"], string> = {
  stock_buy: "share purchase",
  stock_sell: "share sale",
  sell_to_open: "sell-to-open",
  buy_to_close: "buy-to-close",
  expire: "expiry",
  assignment: "assignment",
  exercise: "called away",
};

interface Candidate {
  trade: store.NewTrade;
  /** Links a sell-to-open to the candidate at this index (a roll's buy-to-close). */
  rollOf?: number;
  importKey?: string;
  source?: Trade["source"];
}

/** The refusal that replaying `existing` with `candidates` (ids −1, −2, …) gives, as a reason; null when it replays. */
function refusalOf(existing: Trade[], candidates: Candidate[], now: number): string | null {
  const trial: WheelTrade[] = [
    ...existing.map(store.wheelTrade),
    ...candidates.map((c, i) =>
      store.wheelTrade({ ...c.trade, id: -(i + 1), rolled_from: c.rollOf === undefined ? null : -(c.rollOf + 1) }),
    ),
  ];
  const result = replay(trial, now);
  if (result.ok) return null;
  const { tradeId, reason } = result.refusal;
  if (tradeId < 0) return reason;
  const later = existing.find((t) => t.id === tradeId)!;
  return `It would leave the ${KIND_WORDS[later.kind]} of ${later.ticker} on ${later.traded_at.slice(0, 10)} impossible: ${reason}`;
}

/** Stores the trades if the journal replays with them; 422 with the reason otherwise. */
export async function addTrades(db: Db, userId: number, candidates: Candidate[], now = Date.now()): Promise<Trade[]> {
  return db.transaction().execute(async (tx) => {
    await store.lockJournal(tx, userId);
    const existing = await store.listTrades(tx, userId);
    const refusal = refusalOf(existing, candidates, now);
    if (refusal) throw new HttpError(422, refusal);
    const added: Trade[] = [];
    for (const candidate of candidates) {
      const rolledFrom = candidate.rollOf === undefined ? undefined : added[candidate.rollOf]!.id;
      added.push(
        await store.insertTrade(tx, userId, candidate.trade, {
          ...(rolledFrom === undefined ? {} : { rolledFrom }),
          ...(candidate.importKey ? { importKey: candidate.importKey, source: candidate.source ?? "manual" } : {}),
        }),
      );
    }
    return added;
  });
}

/** Removes a trade unless a later trade needs it (e.g. the put an assignment closed): 409 then. */
export async function removeTrade(db: Db, userId: number, id: number, now = Date.now()): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await store.lockJournal(tx, userId);
    const existing = await store.listTrades(tx, userId);
    if (!existing.some((t) => t.id === id)) throw notFound("Trade not found");
    const rest = existing
      .filter((t) => t.id !== id)
      .map((t) => (t.rolled_from === id ? { ...t, rolled_from: null } : t));
    const result = replay(rest.map(store.wheelTrade), now);
    if (!result.ok) {
      throw new HttpError(409, `A later trade needs this one: ${result.refusal.reason}`);
    }
    await store.deleteTrade(tx, userId, id);
  });
}

/** The mid of the option's bid and ask (null when the market has no quote for it), and the stock's price. */
async function markOf(
  market: MarketData,
  leg: { ticker: string; optionType: "put" | "call"; strike: number; expiry: string },
): Promise<{ mark: number | null; spot: number | null }> {
  try {
    const chain = await market.optionChain(leg.ticker);
    const expiration = chain.expirations.find((e) => e.expiration === leg.expiry);
    const option = expiration?.options.find((o) => o.type === leg.optionType && Math.abs(o.strike - leg.strike) < 1e-6);
    if (!option || option.ask <= 0) return { mark: null, spot: chain.spot };
    return { mark: Math.round(((option.bid + option.ask) / 2) * 100) / 100, spot: chain.spot };
  } catch {
    return { mark: null, spot: null };
  }
}

const cents = (value: number) => Math.round(value * 100) / 100;
const ratio = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

export async function buildJournal(
  db: Db,
  market: MarketData,
  userId: number,
  from: number | null,
  now = Date.now(),
): Promise<Journal & { position_alerts: PositionAlertsByOption }> {
  const trades = await store.listTrades(db, userId);
  const wheelTrades = trades.map(store.wheelTrade);
  const result = replay(wheelTrades, now);
  // Stored trades always replayed when they were stored; a clock set back is the only way here.
  if (!result.ok) throw new HttpError(500, `The journal does not add up: ${result.refusal.reason}`);
  const { wheel } = result;
  const [marks, alerts] = await Promise.all([
    Promise.all(wheel.legs.map((leg) => markOf(market, leg))),
    sentAlertsOf(db, userId),
  ]);
  const stats = periodStats(wheelTrades, wheel, from, now);
  return {
    as_of: new Date(now).toISOString(),
    rows: trades
      .filter((t) => from === null || Date.parse(t.traded_at) >= from)
      .reverse()
      .map((t) => ({
        ...t,
        realised_pnl: wheel.results.get(t.id)?.pnl ?? null,
        cycle_id: wheel.results.get(t.id)!.cycleId,
      })),
    open_options: wheel.legs.map((leg, i) => {
      const { mark, spot } = marks[i]!;
      const figures = legAtMark(leg, mark, now);
      const roll =
        leg.optionType === "put"
          ? testedOrLosing({
              strike: leg.strike,
              spot,
              mark,
              premiumPerShare: leg.premium / (leg.contracts * CONTRACT_SIZE),
            })
          : { tested: false, losing: false };
      return {
        ticker: leg.ticker,
        option_type: leg.optionType,
        strike: leg.strike,
        expiry: leg.expiry,
        occ_symbol: formatOccSymbol({
          ticker: leg.ticker,
          expiration: leg.expiry,
          type: leg.optionType,
          strike: leg.strike,
        }),
        contracts: leg.contracts,
        opened_at: new Date(leg.openedAt).toISOString(),
        trade_ids: leg.tradeIds,
        collateral: cents(figures.collateral),
        premium_kept: cents(figures.premiumKept),
        days_held: Math.floor(figures.daysHeld),
        mark,
        pnl_at_mark: figures.pnlAtMark === null ? null : cents(figures.pnlAtMark),
        pct_max_profit: ratio(figures.pctMaxProfit),
        tested: roll.tested,
        losing: roll.losing,
      };
    }),
    position_alerts: Object.fromEntries(
      wheel.legs.flatMap((leg) => {
        const occSymbol = formatOccSymbol({
          ticker: leg.ticker,
          expiration: leg.expiry,
          type: leg.optionType,
          strike: leg.strike,
        });
        const sent = alerts.get(positionKey(occSymbol, leg.tradeIds));
        return sent ? [[occSymbol, sent]] : [];
      }),
    ),
    share_lots: wheel.lots.map((lot) => {
      const cycle = wheel.cycles.find((c) => c.ticker === lot.ticker && c.closedAt === null);
      return {
        ticker: lot.ticker,
        shares: lot.shares,
        average_cost: cents(lot.cost / lot.shares),
        adjusted_cost_basis: cents(cycle?.adjustedCostBasis ?? lot.cost / lot.shares),
      };
    }),
    cycles: wheel.cycles
      .filter((c) => from === null || c.closedAt === null || c.closedAt >= from)
      .reverse()
      .map((c) => {
        const figures = cycleFigures(c);
        return {
          id: c.id,
          ticker: c.ticker,
          opened_at: new Date(c.openedAt).toISOString(),
          closed_at: c.closedAt === null ? null : new Date(c.closedAt).toISOString(),
          trade_ids: c.tradeIds,
          realised_pnl: cents(c.realisedPnl),
          premium_net: cents(c.premiumNet),
          capital: cents(c.capital),
          return_on_capital: ratio(figures.returnOnCapital),
          collateral_days: Math.round(c.collateralDays),
          annualised_return: ratio(figures.annualisedReturn),
          adjusted_cost_basis: c.adjustedCostBasis === null ? null : cents(c.adjustedCostBasis),
        };
      }),
    stats: {
      realised_pnl: stats.realisedPnl,
      closing_trades: stats.closingTrades,
      closed_cycles: stats.closedCycles,
      win_rate: ratio(stats.winRate),
      premium_month: stats.premiumMonth,
      premium_year: stats.premiumYear,
      by_ticker: stats.byTicker.map((t) => ({ ticker: t.ticker, realised_pnl: t.realisedPnl })),
    },
  };
}

// ── Broker files ──────────────────────────────────────────────────────────────

const PARSERS: Record<Broker, (csv: string) => ParsedLine[]> = { ibkr: parseIbkr, tastytrade: parseTastytrade };

/**
 * What importing `csv` would do: each trade line checked by the contract and, in time order, against
 * the journal with the lines accepted before it. A line imported before (same text, same occurrence
 * in its file) is a duplicate.
 */
async function planImport(tx: Db, userId: number, broker: Broker, csv: string, now: number) {
  let lines: ParsedLine[];
  try {
    lines = PARSERS[broker](csv);
  } catch (error) {
    if (error instanceof CsvFormatError) throw new HttpError(422, error.message);
    throw error;
  }
  const seen = new Map<string, number>();
  const keyed = lines.map((line) => {
    const digest = createHash("sha256").update(line.text.replace(/\s+/g, " ").trim()).digest("base64url");
    const occurrence = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, occurrence);
    return { ...line, key: `${broker}:${digest}:${occurrence}` };
  });
  const done = await store.importedKeys(
    tx,
    userId,
    keyed.map((l) => l.key),
  );
  const preview: ImportPreview = { broker, added: [], duplicates: [], refused: [], skipped: 0 };
  const valid: { line: number; key: string; trade: store.NewTrade }[] = [];
  for (const line of keyed) {
    if ("skipped" in line) preview.skipped += 1;
    else if ("refused" in line) preview.refused.push({ line: line.line, reason: line.refused });
    else if (done.has(line.key)) preview.duplicates.push({ line: line.line, reason: "Imported before" });
    else {
      const parsed = TradeInput.safeParse(line.trade);
      if (parsed.success) valid.push({ line: line.line, key: line.key, trade: parsed.data });
      else
        preview.refused.push({
          line: line.line,
          reason: describeZodError(parsed.error, "line").replace(/^line\.?/, ""),
        });
    }
  }
  const existing = await store.listTrades(tx, userId);
  const accepted: (Candidate & { line: number })[] = [];
  valid.sort((a, b) => Date.parse(a.trade.traded_at) - Date.parse(b.trade.traded_at) || a.line - b.line);
  for (const item of valid) {
    const candidate = { trade: item.trade, importKey: item.key, source: broker, line: item.line };
    const refusal = refusalOf(existing, [...accepted, candidate], now);
    if (refusal) preview.refused.push({ line: item.line, reason: refusal });
    else accepted.push(candidate);
  }
  preview.added = accepted.map((c) => ({ ...(c.trade as TradeInputType), line: c.line }));
  preview.refused.sort((a, b) => a.line - b.line);
  return { preview, accepted };
}

export async function previewImport(db: Db, userId: number, broker: Broker, csv: string, now = Date.now()) {
  return (await planImport(db, userId, broker, csv, now)).preview;
}

/** Adds what the preview lists as added, in one transaction: all of it or, on an error, none. */
export async function importTrades(db: Db, userId: number, broker: Broker, csv: string, now = Date.now()) {
  return db.transaction().execute(async (tx) => {
    await store.lockJournal(tx, userId);
    const { preview, accepted } = await planImport(tx, userId, broker, csv, now);
    for (const candidate of accepted) {
      await store.insertTrade(tx, userId, candidate.trade, { importKey: candidate.importKey!, source: broker });
    }
    return preview;
  });
}

// ── Export ────────────────────────────────────────────────────────────────────

const EXPORT_COLUMNS = [
  "id",
  "traded_at",
  "kind",
  "ticker",
  "option_type",
  "strike",
  "expiry",
  "occ_symbol",
  "quantity",
  "price",
  "fees",
  "realised_pnl",
  "rolled_from",
  "portfolio",
  "strategy",
  "notes",
  "source",
] as const;

/** A CSV cell; text a spreadsheet would run as a formula is prefixed with a quote. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole journal as CSV, oldest first, with each closing trade's realised P/L (net of fees). */
export async function exportCsv(db: Db, userId: number, now = Date.now()): Promise<string> {
  const trades = await store.listTrades(db, userId);
  const result = replay(trades.map(store.wheelTrade), now);
  const pnl = (id: number) => (result.ok ? (result.wheel.results.get(id)?.pnl ?? null) : null);
  const lines = trades.map((t) => {
    const row: Record<(typeof EXPORT_COLUMNS)[number], unknown> = { ...t, realised_pnl: pnl(t.id) };
    return EXPORT_COLUMNS.map((name) => csvCell(row[name])).join(",");
  });
  return [EXPORT_COLUMNS.join(","), ...lines].join("\r\n") + "\r\n";
}
