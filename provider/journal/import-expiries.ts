import { dayNumberOf, nyClock, tradingIndexOf } from "#provider/market/calendar.ts";
import type { MarketData } from "#provider/market/port.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import type { ParsedLine } from "./brokers/csv.ts";
import { expiryCloseOf, expiryOutcome, legName } from "./expiry.ts";

/**
 * A file of orders only (Webull's) says nothing of how its short options ended: each one the file
 * leaves open past its expiry day's close is resolved here from that day's close, as the journal's
 * own expiry resolution would (ADR 0078), and becomes one more line of the file — so the preview
 * shows the assignment, and the covered call sold after it finds its shares
 * (docs/decisions/0095-webull-orders-and-expiries-from-the-close.md).
 *
 * Each such line's text names only its contract, so importing the file again finds it imported
 * before. Pin risk (a close within 1 % of the strike) or a day without a close is not guessed: the
 * line is refused with the way out, and the journal's daily resolution asks the trader once imported.
 */

interface OpenContract {
  ticker: string;
  optionType: "put" | "call";
  strike: number;
  expiry: string;
  /** Sold less bought, over the whole file. */
  contracts: number;
  /** The last line that sold it, where a refusal is shown. */
  line: number;
}

/** The contracts `lines` leave short, in the file's order. Linear in the lines. */
function openContracts(lines: readonly ParsedLine[]): OpenContract[] {
  const open = new Map<string, OpenContract>();
  for (const line of lines) {
    if (!("trade" in line)) continue;
    const t = line.trade as {
      kind: string;
      ticker: string;
      option_type?: "put" | "call";
      strike?: number;
      expiry?: string;
      quantity: number;
    };
    if (t.kind !== "sell_to_open" && t.kind !== "buy_to_close") continue;
    if (!t.option_type || t.strike === undefined || !t.expiry) continue;
    const key = `${t.ticker}|${t.option_type}|${t.strike}|${t.expiry}`;
    const contract = open.get(key) ?? {
      ticker: t.ticker,
      optionType: t.option_type,
      strike: t.strike,
      expiry: t.expiry,
      contracts: 0,
      line: line.line,
    };
    contract.contracts += t.kind === "sell_to_open" ? t.quantity : -t.quantity;
    if (t.kind === "sell_to_open") contract.line = line.line;
    open.set(key, contract);
  }
  return [...open.values()].filter((c) => c.contracts > 0);
}

/** Trading days of daily bars one ticker's request asks for at most (as the expiry resolution, ADR 0078). */
const MAX_DAYS = 400;

/**
 * Each ticker's closes from the oldest of its expiries to today, in one request a ticker (a year of
 * weekly options is one request, not fifty). A ticker the market has no bars for has no closes.
 */
async function dailyCloses(market: MarketData, contracts: readonly OpenContract[], now: number) {
  const today = tradingIndexOf(nyClock(new Date(now)).dayNumber);
  const oldest = new Map<string, string>();
  for (const c of contracts) {
    const seen = oldest.get(c.ticker);
    if (seen === undefined || c.expiry < seen) oldest.set(c.ticker, c.expiry);
  }
  const closes = new Map<string, number>();
  for (const [ticker, expiry] of oldest) {
    const days = Math.min(MAX_DAYS, Math.max(5, today - tradingIndexOf(dayNumberOf(expiry)) + 2));
    try {
      for (const bar of await market.dailyHistory(ticker, days))
        if (bar.close > 0) closes.set(`${ticker}|${bar.time}`, bar.close);
    } catch (error) {
      console.error(`[import] no daily bars for ${ticker}: ${(error as Error).message}`);
    }
  }
  return (ticker: string, expiry: string) => closes.get(`${ticker}|${expiry}`) ?? null;
}

const money = (n: number) => `$${n.toFixed(2)}`;

const NOTE = "Recorded from the close";

/** Whether an import line is one of these: an expiry read from the close, not a line of the file. */
export const isFromClose = (trade: { notes?: string | null | undefined }) => trade.notes?.startsWith(NOTE) === true;

const RESOLUTIONS = new Set(["expire", "assignment", "exercise"]);
type ContractOf = {
  kind: string;
  ticker: string;
  option_type?: string | null;
  strike?: number | null;
  expiry?: string | null;
};
const contractKey = (t: ContractOf) => `${t.ticker}|${t.option_type}|${t.strike}|${t.expiry}`;

/**
 * The contracts whose end the journal already has (its own expiry resolution ran after an earlier
 * import, or the trader entered it): an expiry read from the close of one of them is not added again.
 */
export function resolvedIn(journal: readonly ContractOf[]): (trade: ContractOf) => boolean {
  const resolved = new Set(journal.filter((t) => RESOLUTIONS.has(t.kind)).map(contractKey));
  return (trade) => resolved.has(contractKey(trade));
}

/**
 * The lines that end the short options `lines` leave open past their expiry, read from the market's
 * close of each expiry day: an expiry, an assignment or a call-away at 16:00 New York (or the early
 * close), with no fees; or a refusal saying why not and what to do.
 */
export async function expiriesFromCloses(
  lines: readonly ParsedLine[],
  market: MarketData,
  now: number,
  pace: () => Promise<void> | undefined,
): Promise<ParsedLine[]> {
  const expired = openContracts(lines).filter((c) => expiryCloseOf(c.expiry) <= now);
  const closeOf = await dailyCloses(market, expired, now);
  const out: ParsedLine[] = [];
  for (const contract of expired) {
    const closeAt = expiryCloseOf(contract.expiry);
    const symbol = formatOccSymbol({
      ticker: contract.ticker,
      expiration: contract.expiry,
      type: contract.optionType,
      strike: contract.strike,
    });
    const text = `Expiry of ${symbol}, from the close`;
    const name = `${legName(contract)} of ${contract.expiry}`;
    const close = closeOf(contract.ticker, contract.expiry);
    const outcome = close === null ? "confirm" : expiryOutcome(contract, close);
    if (close === null || outcome === "confirm") {
      const why =
        close === null
          ? `the market has no close of ${contract.ticker} for that day`
          : `${contract.ticker} closed at ${money(close)}, within 1 % of the strike, so it may have gone either way`;
      out.push({
        line: contract.line,
        text,
        refused: `The ${name} was still open at its expiry and the Webull file does not say how it ended: ${why}. Record its expiry or assignment on Trades (or confirm it when the journal asks), then import the file again`,
      });
    } else {
      out.push({
        line: 0,
        text,
        trade: {
          kind: outcome,
          ticker: contract.ticker,
          option_type: contract.optionType,
          strike: contract.strike,
          expiry: contract.expiry,
          quantity: contract.contracts,
          price: 0,
          fees: 0,
          traded_at: new Date(closeAt).toISOString(),
          notes: `${NOTE} of ${money(close)} on ${contract.expiry}: the Webull file has no expiries or assignments`,
        },
      });
    }
    await pace();
  }
  return out;
}
