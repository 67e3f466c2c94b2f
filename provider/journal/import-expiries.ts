import { nyClock } from "#provider/market/calendar.ts";
import type { MarketData } from "#provider/market/port.ts";
import { formatOccSymbol } from "#provider/options/occ-symbol.ts";
import type { ParsedLine } from "./brokers/csv.ts";
import { expiryCloseOf, expiryOutcome, legName } from "./expiry.ts";
import { closesFrom } from "./expiry-resolution.ts";

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

/** The contracts `lines` leave short, in the order first sold. Linear in the lines. */
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
  const closeOf = closesFrom(market, nyClock(new Date(now)).dayNumber);
  const out: ParsedLine[] = [];
  for (const contract of openContracts(lines)) {
    const closeAt = expiryCloseOf(contract.expiry);
    if (closeAt > now) continue;
    const symbol = formatOccSymbol({
      ticker: contract.ticker,
      expiration: contract.expiry,
      type: contract.optionType,
      strike: contract.strike,
    });
    const text = `Expiry of ${symbol}, from the close`;
    const name = `${legName(contract)} of ${contract.expiry}`;
    const close = await closeOf(contract.ticker, contract.expiry);
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
