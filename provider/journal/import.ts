import { createHash } from "node:crypto";
import type { Db } from "#provider/db/client.ts";
import { TradeInput, type Broker, type ImportPreview, type TradeInput as TradeInputType } from "#contract/entities.ts";
import { describeZodError, HttpError } from "#provider/http/errors.ts";
import { BROKER_SNAPSHOT_SOURCES, type BrokerSnapshot, type BrokerSnapshotSource } from "#contract/broker-positions.ts";
import { saveBrokerSnapshot } from "#provider/broker/snapshot-store.ts";
import { CsvFormatError, readCsv, type CsvLine, type ParsedLine } from "./brokers/csv.ts";
import { parseEtrade } from "./brokers/etrade.ts";
import { parseFidelity } from "./brokers/fidelity.ts";
import { parseIbkr } from "./brokers/ibkr.ts";
import { flexPositions, isFlexQuery } from "./brokers/ibkr-flex.ts";
import { ibkrPositions } from "./brokers/ibkr-positions.ts";
import { schwabPositions } from "./brokers/schwab-positions.ts";
import { tastytradePositions } from "./brokers/tastytrade-positions.ts";
import type { PositionsRead } from "./brokers/positions.ts";
import { parseRobinhood } from "./brokers/robinhood.ts";
import { parseSchwab } from "./brokers/schwab.ts";
import { parseOfxStatement } from "./brokers/ofx.ts";
import { parseTastytrade } from "./brokers/tastytrade.ts";
import { parseTdAmeritrade } from "./brokers/td-ameritrade.ts";
import { parseWebull } from "./brokers/webull.ts";
import type { MarketData } from "#provider/market/port.ts";
import { expiriesFromCloses, isFromClose, resolvedIn } from "./import-expiries.ts";
import { KIND_WORDS } from "./journal.ts";
import { pacer } from "./pace.ts";
import * as store from "./store.ts";
import { CONTRACT_SIZE, inTimeOrder, startReplay, type WheelTrade } from "./wheel.ts";

/**
 * Broker files into the journal: parse, recognise lines imported before, check every new line
 * against the journal in time order, and store what passes in one transaction. The work is linear
 * in the file and the journal and yields the event loop between slices, so a large file never
 * stalls other traders (docs/decisions/0073-imports-in-linear-time.md).
 */

/** Trade lines read from one file at most (README "Security and limits"); a longer file is refused whole. */
export const MAX_IMPORT_LINES = 10_000;
/**
 * Trades one import may replay to check its lines against the journal's later trades (a file older
 * than trades already entered); about a second of work, in slices. Lines past it are refused.
 */
const TRIAL_BUDGET = 2_000_000;

/** Where imported lines come from: a broker's file, or a broker's API (Tradier, read by a sync). */
export type ImportSource = Broker | "tradier";

/** What an import of lines did or would do (a file's preview names its broker besides). */
export type LinesPreview = Omit<ImportPreview, "broker">;

/** Reads a source's lines, with the open positions it lists when it lists them (docs/decisions/0094). */
export type LineReader = (
  pace: () => Promise<void> | undefined,
) => Promise<{ lines: ParsedLine[]; positions: PositionsRead | null }>;

const isSnapshotSource = (source: ImportSource): source is BrokerSnapshotSource =>
  (BROKER_SNAPSHOT_SOURCES as readonly string[]).includes(source);

/** CSV brokers: a reader of the file's records, one line at a time. */
const PARSERS: Record<Exclude<Broker, "ofx">, (records: readonly CsvLine[]) => Iterable<ParsedLine>> = {
  ibkr: parseIbkr,
  tastytrade: parseTastytrade,
  schwab: parseSchwab,
  fidelity: parseFidelity,
  robinhood: parseRobinhood,
  tdameritrade: parseTdAmeritrade,
  etrade: parseEtrade,
  webull: parseWebull,
};

/** Brokers whose positions export is a file of its own, told apart from their transactions by its header. */
const POSITIONS_FILES: Partial<Record<Broker, (records: readonly CsvLine[], now: number) => PositionsRead | null>> = {
  tastytrade: tastytradePositions,
  schwab: schwabPositions,
};

/**
 * A broker file's lines, and the open positions it lists (docs/decisions/0094): OFX/QFX statements are
 * XML or SGML, the others CSV (docs/decisions/0089-ofx-investment-statements.md).
 */
async function readLines(
  broker: Broker,
  text: string,
  pace: () => Promise<void> | undefined,
  now: number,
  market: MarketData | null,
): Promise<{ lines: ParsedLine[]; positions: PositionsRead | null }> {
  if (broker === "ofx") return parseOfxStatement(text, pace, now);
  const { records, unreadable } = await readCsv(text, pace);
  const lines: ParsedLine[] = [];
  // A positions export arrives on the same form as the broker's transactions (ADR 0098): its lines are
  // not trades, its positions become the broker's book.
  const held = POSITIONS_FILES[broker]?.(records, now);
  if (held) {
    for (const { line, text: raw } of records) lines.push({ line, text: raw, skipped: true });
    if (unreadable) lines.push(unreadable);
    return { lines, positions: held };
  }
  for (const line of PARSERS[broker](records)) {
    lines.push(line);
    await pace();
  }
  if (unreadable) lines.push(unreadable);
  // Webull's orders file has no expiries or assignments: they are read from the close (ADR 0095).
  if (broker === "webull" && market) lines.push(...(await expiriesFromCloses(lines, market, now, pace)));
  const positions =
    broker !== "ibkr" ? null : isFlexQuery(records) ? flexPositions(records, now) : ibkrPositions(records, now);
  return { lines, positions };
}

interface Planned {
  line: number;
  key: string;
  trade: store.NewTrade;
  /** The trade as the replay sees it: id −1, −2, … in time order, after every stored trade's. */
  wheel: WheelTrade;
  /** The buy-to-close this sell-to-open rolls (issue 43: a roll keeps the cycle whole). */
  rollOf?: Planned;
}

type Valid = Omit<Planned, "wheel" | "rollOf"> & { rollOf?: Valid };

/**
 * Links each sell-to-open to a buy-to-close of the same ticker and option type in the same minute,
 * on another contract: the two legs of a roll, which brokers write as two lines (often with one
 * timestamp). Linked, the buy-to-close does not end the cycle (docs/decisions/0074-broker-imports-keep-the-wheel-whole.md).
 * `valid` is in time order; answers it with each roll's buy-to-close just before its sell-to-open.
 */
function linkRolls(valid: Valid[]): Valid[] {
  const minute = (v: Valid) => Math.floor(Date.parse(v.trade.traded_at) / 60_000);
  const closes = new Map<string, Valid[]>();
  for (const v of valid) {
    if (v.trade.kind !== "buy_to_close") continue;
    const key = `${v.trade.ticker}|${v.trade.option_type}|${minute(v)}`;
    closes.set(key, [...(closes.get(key) ?? []), v]);
  }
  const linked = new Set<Valid>();
  for (const v of valid) {
    if (v.trade.kind !== "sell_to_open") continue;
    const candidates = closes.get(`${v.trade.ticker}|${v.trade.option_type}|${minute(v)}`) ?? [];
    const close = candidates.find(
      (c) => !linked.has(c) && (c.trade.strike !== v.trade.strike || c.trade.expiry !== v.trade.expiry),
    );
    if (!close) continue;
    linked.add(close);
    v.rollOf = close;
  }
  const at = (v: Valid) => Date.parse(v.trade.traded_at);
  return [...valid].sort((a, b) => at(a) - at(b) || (a.rollOf === b ? 1 : b.rollOf === a ? -1 : a.line - b.line));
}

/**
 * What importing `csv` would do: each trade line checked by the contract and, in time order, against
 * the journal with the lines accepted before it (and with the journal's later trades, which must
 * still replay). A line imported before (same text, same occurrence in its file) is a duplicate.
 */
async function planImport(
  tx: Db,
  userId: number,
  broker: ImportSource,
  read: LineReader,
  now: number,
  openingPrices: Readonly<Record<string, number>> = {},
) {
  const pace = pacer();
  const mark = await store.journalMark(tx, userId);
  let lines: ParsedLine[];
  let positions: PositionsRead | null;
  try {
    ({ lines, positions } = await read(pace));
  } catch (error) {
    if (error instanceof CsvFormatError) throw new HttpError(422, error.message);
    throw error;
  }
  const tradeLines = lines.reduce((n, line) => n + ("skipped" in line ? 0 : 1), 0);
  if (tradeLines > MAX_IMPORT_LINES) {
    throw new HttpError(
      422,
      `This file has ${tradeLines.toLocaleString("en-US")} trade lines; at most ${MAX_IMPORT_LINES.toLocaleString("en-US")} are read in one import. Export a shorter period and import the parts one after another.`,
    );
  }
  await pace();

  const seen = new Map<string, number>();
  const keyed: (ParsedLine & { key: string })[] = [];
  for (const line of lines) {
    const digest = createHash("sha256").update(line.text.replace(/\s+/g, " ").trim()).digest("base64url");
    const occurrence = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, occurrence);
    keyed.push({ ...line, key: `${broker}:${digest}:${occurrence}` });
    await pace();
  }
  const done = await store.importedKeys(
    tx,
    userId,
    keyed.filter((l) => !("skipped" in l)).map((l) => l.key),
  );
  const preview: LinesPreview = { added: [], duplicates: [], refused: [], skipped: 0, openings: [], positions: null };
  // A book missing a position would show it as a difference: one unreadable line and none is saved.
  for (const refused of positions?.refused ?? []) {
    preview.refused.push({ ...refused, reason: `${refused.reason}; the file's positions are not saved` });
  }
  const snapshot: BrokerSnapshot | null =
    positions && positions.refused.length === 0 && isSnapshotSource(broker)
      ? { source: broker, as_of: positions.as_of, positions: positions.positions, cash: positions.cash }
      : null;
  if (snapshot) preview.positions = { as_of: snapshot.as_of, count: snapshot.positions.length, cash: snapshot.cash };
  const valid: Valid[] = [];
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
    await pace();
  }
  valid.sort((a, b) => Date.parse(a.trade.traded_at) - Date.parse(b.trade.traded_at) || a.line - b.line);

  // Only the tickers the file trades need checking: a wheel's positions are per ticker.
  const tickers = [...new Set(valid.map((v) => v.trade.ticker))];
  const existing = groupBy(await store.listTradesOn(tx, userId, tickers), (t) => t.ticker);
  // An expiry read from the close that the journal already records is in it already (ADR 0095).
  const resolved = resolvedIn([...existing.values()].flat());
  const recordedBefore = new Set(valid.filter((v) => isFromClose(v.trade) && resolved(v.trade)));
  if (recordedBefore.size > 0) {
    for (const v of recordedBefore)
      preview.duplicates.push({ line: v.line, reason: "Already in the journal: how this option ended is recorded" });
    const kept = valid.filter((v) => !recordedBefore.has(v));
    valid.length = 0;
    valid.push(...kept);
  }

  // A file that starts mid-cycle: what was open before its first line, added when the trader gives its price.
  const needs = openingsNeeded(valid.filter((v) => !existing.has(v.trade.ticker)));
  preview.openings = needs.map(({ first: _first, ...need }) => ({ ...need, price: openingPrices[need.key] ?? null }));
  for (const need of needs) {
    const price = openingPrices[need.key];
    if (price === undefined) continue;
    const { key, first, ...trade } = need;
    valid.unshift({
      line: 0,
      key: `${broker}:opening:${key}:${first.key}`,
      trade: TradeInput.parse({ ...trade, price, fees: 0, notes: OPENING_NOTE }),
    });
  }
  valid.sort((a, b) => Date.parse(a.trade.traded_at) - Date.parse(b.trade.traded_at) || a.line - b.line);
  await pace();
  const ordered = linkRolls(valid);
  await pace();
  const idOf = new Map(ordered.map((v, i) => [v, -(i + 1)]));
  const planned: Planned[] = ordered.map((item, i) => ({
    line: item.line,
    key: item.key,
    trade: item.trade,
    wheel: store.wheelTrade({
      ...item.trade,
      id: -(i + 1),
      rolled_from: item.rollOf ? idOf.get(item.rollOf)! : null,
    }),
  }));
  await pace();
  const plannedOf = new Map(ordered.map((v, i) => [v, planned[i]!]));
  ordered.forEach((v, i) => {
    if (v.rollOf) planned[i]!.rollOf = plannedOf.get(v.rollOf);
  });

  const accepted = new Set<Planned>();
  const budget = { left: TRIAL_BUDGET };
  for (const [ticker, candidates] of groupBy(planned, (p) => p.trade.ticker)) {
    const journal = inTimeOrder((existing.get(ticker) ?? []).map(store.wheelTrade));
    const verdicts = await checkTicker(journal, candidates, now, pace, budget);
    for (const candidate of candidates) {
      const refusal = verdicts.get(candidate);
      if (refusal === undefined) accepted.add(candidate);
      else preview.refused.push({ line: candidate.line, reason: refusal });
    }
  }
  // A roll's sell-to-open whose buy-to-close is refused is stored as a plain sell-to-open.
  for (const p of planned) if (p.rollOf && !accepted.has(p.rollOf)) delete p.rollOf;
  const added = planned.filter((p) => accepted.has(p));
  preview.added = added.map((p) => ({ ...(p.trade as TradeInputType), line: p.line }));
  preview.refused.sort((a, b) => a.line - b.line);
  return { preview, added, mark, snapshot };
}

/**
 * One ticker's lines against its stored trades (a wheel's positions are per ticker, so tickers are
 * checked apart), in time order, a stored trade before a line of the same moment (as they will be
 * stored). One replay runs through both: a line is accepted when it can happen there — and, when the
 * journal has trades of the ticker dated after it, when those still replay with it (checked by a
 * trial replay; the lines' share of such trials is bounded by `budget`). Answers each refused line's reason.
 */
async function checkTicker(
  journal: readonly WheelTrade[],
  candidates: readonly Planned[],
  now: number,
  pace: () => Promise<void> | undefined,
  budget: { left: number },
): Promise<Map<Planned, string>> {
  const refused = new Map<Planned, string>();
  const known = [...journal, ...candidates.map((c) => c.wheel)];
  const run = startReplay(now, known);
  /** What `run` was fed, in order. */
  const fed: WheelTrade[] = [];
  let j = 0;
  for (const candidate of candidates) {
    for (; j < journal.length && journal[j]!.tradedAt <= candidate.wheel.tradedAt; j++) {
      const refusal = run.feed(journal[j]!);
      if (refusal) {
        // Accepted lines were checked against every later stored trade, so the journal does not replay
        // on its own (a clock set back): none of the ticker's lines is added.
        const why = impossible(journal[j]!, refusal.reason);
        for (const c of candidates) if (!refused.has(c)) refused.set(c, why);
        return refused;
      }
      fed.push(journal[j]!);
    }
    const later = journal.length - j;
    if (later === 0) {
      const refusal = run.feed(candidate.wheel);
      if (refusal) refused.set(candidate, refusal.reason);
      else fed.push(candidate.wheel);
    } else {
      const cost = fed.length + 1 + later;
      if (cost > budget.left) {
        refused.set(
          candidate,
          `It is dated before ${later} ${later === 1 ? "trade" : "trades"} of ${candidate.trade.ticker} already in the journal, more than one import can check it against: import older history in smaller files, or before newer trades`,
        );
        continue;
      }
      budget.left -= cost;
      const trial = startReplay(now, known);
      let refusal: string | null = null;
      for (const trade of [...fed, candidate.wheel, ...journal.slice(j)]) {
        const failed = trial.feed(trade);
        if (failed) {
          refusal = trade === candidate.wheel ? failed.reason : impossible(trade, failed.reason);
          break;
        }
        const wait = pace();
        if (wait) await wait;
      }
      if (refusal) refused.set(candidate, refusal);
      else {
        run.feed(candidate.wheel);
        fed.push(candidate.wheel);
      }
    }
    const wait = pace();
    if (wait) await wait;
  }
  return refused;
}

/** The reason a line is refused when a later stored trade could not happen with it. */
function impossible(later: WheelTrade, reason: string): string {
  const day = new Date(later.tradedAt).toISOString().slice(0, 10);
  return `It would leave the ${KIND_WORDS[later.kind]} of ${later.ticker} on ${day} impossible: ${reason}`;
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

export async function previewImport(
  db: Db,
  userId: number,
  broker: Broker,
  csv: string,
  openings: Readonly<Record<string, number>> = {},
  now = Date.now(),
  market: MarketData | null = null,
): Promise<ImportPreview> {
  const plan = await planImport(db, userId, broker, (pace) => readLines(broker, csv, pace, now, market), now, openings);
  return { broker, ...plan.preview };
}

/**
 * Adds what the preview lists as added, in one transaction: all of it or, on an error, none. The file
 * is planned before the transaction, which only writes: on PGlite a transaction holds the one
 * connection every request shares. A journal changed in between is planned again under the lock.
 */
export async function importTrades(
  db: Db,
  userId: number,
  broker: Broker,
  csv: string,
  openings: Readonly<Record<string, number>> = {},
  now = Date.now(),
  market: MarketData | null = null,
): Promise<ImportPreview> {
  const preview = await importLines(
    db,
    userId,
    broker,
    (pace) => readLines(broker, csv, pace, now, market),
    openings,
    now,
  );
  return { broker, ...preview };
}

/**
 * Adds lines read from a broker's API (a Tradier sync) the way a file's are added: the same keys,
 * checks, roll links and one transaction (docs/decisions/0093-tradier-sync-through-the-import.md).
 */
export async function importLines(
  db: Db,
  userId: number,
  source: ImportSource,
  read: LineReader,
  openings: Readonly<Record<string, number>> = {},
  now = Date.now(),
): Promise<LinesPreview> {
  const broker = source;
  const plan = await planImport(db, userId, broker, read, now, openings);
  return db.transaction().execute(async (tx) => {
    await store.lockJournal(tx, userId);
    const unchanged = (await store.journalMark(tx, userId)) === plan.mark;
    const { preview, added, snapshot } = unchanged ? plan : await planImport(tx, userId, broker, read, now, openings);
    if (snapshot) await saveBrokerSnapshot(tx, userId, snapshot);
    await store.insertImported(
      tx,
      userId,
      added.map((item) => ({
        trade: item.trade,
        importKey: item.key,
        source: broker,
        ...(item.rollOf ? { rolledFromKey: item.rollOf.key } : {}),
      })),
    );
    return preview;
  });
}

/** The note an opening position carries in the journal. */
const OPENING_NOTE = "Opening position: held before the imported file begins";

interface OpeningNeed {
  /** `KO|shares` or `KO|put|50|2026-01-30`: how the trader's price is matched to it. */
  key: string;
  kind: "stock_buy" | "sell_to_open";
  ticker: string;
  option_type: "put" | "call" | null;
  strike: number | null;
  expiry: string | null;
  quantity: number;
  /** A second before the ticker's first line. */
  traded_at: string;
  /** The ticker's first line. */
  first: Valid;
}

/**
 * What a file that starts mid-cycle must have had open before its first line, per ticker the journal
 * does not have: the shares it sells or delivers on a call-away beyond what it buys, and the short
 * options it closes beyond what it opens (issue 43). `valid` is in time order.
 */
function openingsNeeded(valid: readonly Valid[]): OpeningNeed[] {
  const needs: OpeningNeed[] = [];
  for (const [ticker, lines] of groupBy(valid, (v) => v.trade.ticker)) {
    let shares = 0;
    let sharesShort = 0;
    const contracts = new Map<string, { open: number; short: number; trade: store.NewTrade }>();
    for (const { trade } of lines) {
      const q = trade.quantity;
      if (trade.kind === "stock_buy") shares += q;
      else if (trade.kind === "stock_sell") shares -= q;
      else if (trade.kind === "assignment") shares += q * CONTRACT_SIZE;
      else if (trade.kind === "exercise") shares -= q * CONTRACT_SIZE;
      sharesShort = Math.max(sharesShort, -shares);
      if (trade.option_type && trade.strike != null && trade.expiry) {
        const key = `${ticker}|${trade.option_type}|${trade.strike}|${trade.expiry}`;
        const leg = contracts.get(key) ?? { open: 0, short: 0, trade };
        leg.open += trade.kind === "sell_to_open" ? q : -q;
        leg.short = Math.max(leg.short, -leg.open);
        contracts.set(key, leg);
      }
    }
    const first = lines[0]!;
    const at = new Date(Date.parse(first.trade.traded_at) - 1000).toISOString();
    for (const [key, leg] of contracts) {
      if (leg.short === 0) continue;
      needs.push({
        key,
        kind: "sell_to_open",
        ticker,
        option_type: leg.trade.option_type ?? null,
        strike: leg.trade.strike ?? null,
        expiry: leg.trade.expiry ?? null,
        quantity: leg.short,
        traded_at: at,
        first,
      });
    }
    // (An assignment in the file delivers its shares whether or not its put opened in the file.)
    if (sharesShort > 0) {
      needs.push({
        key: `${ticker}|shares`,
        kind: "stock_buy",
        ticker,
        option_type: null,
        strike: null,
        expiry: null,
        quantity: sharesShort,
        traded_at: at,
        first,
      });
    }
  }
  return needs;
}
