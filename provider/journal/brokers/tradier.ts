import type { TradierHistoryEvent } from "#provider/broker/tradier-brokerage.ts";
import { InvalidOccSymbolError, parseOccSymbol } from "#provider/options/occ-symbol.ts";
import type { ParsedLine } from "./csv.ts";
import { zonedToIso } from "./zone.ts";

/**
 * A Tradier account's history (GET /accounts/{id}/history) as import lines, so a sync goes through
 * the broker-file import's checks, roll links and idempotent keys
 * (docs/decisions/0093-tradier-sync-through-the-import.md). Events are oldest first, numbered from 1.
 *
 * - `trade` of an OCC option symbol: a sale is a sell-to-open, a purchase a buy-to-close (the
 *   journal holds short puts and calls only; a long option's purchase is refused by the replay).
 * - `trade` of shares: a purchase or sale, unless it is the share leg of an assignment (below).
 * - `option` events: expirations (OPEXP) and assignments; an assignment's shares come as a share
 *   trade of the underlying on the same day at the strike, which is the option line's leg and
 *   gives it its commission (as the OFX import does, ADR 0074).
 * - `dividend`: a dividend of the named symbol. Everything else (ach, wire, journal, interest, fee,
 *   tax, transfer…) is not a trade.
 *
 * Tradier dates history by day only: trades are placed at noon New York time and option events
 * (expirations and assignments, which the OCC settles after the close) at 16:00, so on a day with
 * both the assignment comes after that day's trades, and a roll's two legs share a minute.
 */

const TRADE_TIME = "12:00:00";
const SETTLEMENT_TIME = "16:00:00";

const cents = (n: number) => Math.round(n * 100) / 100;
const num = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : Number.NaN);

/** The day of a history event ("2026-09-01T00:00:00Z" → 2026-09-01), or null. */
function dayOf(event: TradierHistoryEvent): string | null {
  const m = typeof event.date === "string" ? /^(\d{4}-\d{2}-\d{2})/.exec(event.date) : null;
  return m ? m[1]! : null;
}

/** The event as one stable line of text: what recognises it in a later sync. */
function eventText(event: TradierHistoryEvent): string {
  const detail = (event.trade ?? event.option ?? event.dividend ?? {}) as Record<string, unknown>;
  const fields = ["symbol", "quantity", "price", "commission", "option_type", "trade_type", "description"];
  return [
    "tradier",
    event.date ?? "",
    event.type ?? "",
    event.amount ?? "",
    ...fields.map((f) => (detail[f] === undefined ? "" : String(detail[f]))),
  ].join("|");
}

/** What the trader reads of an event: Tradier's own description, else its type and symbol. */
export function eventSummary(event: TradierHistoryEvent): string {
  const detail = (event.trade ?? event.option ?? event.dividend ?? {}) as { description?: unknown; symbol?: unknown };
  const described = typeof detail.description === "string" ? detail.description.trim() : "";
  const symbol = typeof detail.symbol === "string" ? detail.symbol : "";
  return (described || `${event.type ?? "event"} ${symbol}`.trim()).slice(0, 120);
}

type OptionAction = "expire" | "assign" | "exercise" | null;

/**
 * Tradier's option event codes: its documentation's example spells an expiration OPTEXP, and
 * accounts have been seen with OPEXP; assignment (OPTASG…/OPASG…) and exercise codes are not
 * documented, so the event's words decide too.
 */
function optionAction(event: TradierHistoryEvent): OptionAction {
  const code = (event.option?.option_type ?? "").toUpperCase();
  const words = (event.option?.description ?? "").toLowerCase();
  if (/^OPT?EXP/.test(code) || /expir/.test(words)) return "expire";
  if (/^OPT?AS/.test(code) || /assign/.test(words)) return "assign";
  if (/^OPT?EX/.test(code) || /exercis/.test(words)) return "exercise";
  return null;
}

function occ(symbol: unknown) {
  if (typeof symbol !== "string") return null;
  try {
    return parseOccSymbol(symbol);
  } catch (error) {
    if (error instanceof InvalidOccSymbolError) return null;
    throw error;
  }
}

/** An option named in Tradier's words, as its trade descriptions are: "PUT  KO     09/18/26    65". */
const DESCRIBED = /\b(PUT|CALL)\s+([A-Z][A-Z0-9.]*)\s+(\d{2})\/(\d{2})\/(\d{2})\s+(\d+(?:\.\d+)?)/i;

/** The option an event is about: its OCC symbol, else the contract its description names. */
function optionOf(event: TradierHistoryEvent) {
  const bySymbol = occ(event.option?.symbol);
  if (bySymbol) return bySymbol;
  const m = DESCRIBED.exec(event.option?.description ?? "");
  if (!m) return null;
  const [, type, ticker, month, day, year, strike] = m;
  const expiration = `20${year}-${month}-${day}`;
  const date = new Date(`${expiration}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== expiration) return null;
  return {
    ticker: ticker!.toUpperCase(),
    type: type!.toUpperCase() === "PUT" ? ("put" as const) : ("call" as const),
    strike: Number(strike),
    expiration,
  };
}

/** The events oldest first, as they are numbered: Tradier sends the newest first, so a day's events are turned back too. */
export function inHistoryOrder(events: readonly TradierHistoryEvent[]): TradierHistoryEvent[] {
  return [...events].reverse().sort((a, b) => (dayOf(a) ?? "").localeCompare(dayOf(b) ?? ""));
}

export async function parseTradierHistory(
  events: readonly TradierHistoryEvent[],
  pace: () => Promise<void> | undefined = () => undefined,
): Promise<ParsedLine[]> {
  const ordered = inHistoryOrder(events);

  // Each assignment's share leg: a share trade of the underlying on its day, strike × 100 × contracts.
  const legOf = new Map<TradierHistoryEvent, TradierHistoryEvent>();
  const legs = new Set<TradierHistoryEvent>();
  for (const event of ordered) {
    if (event.type !== "option") continue;
    const action = optionAction(event);
    const contract = optionOf(event);
    if ((action !== "assign" && action !== "exercise") || !contract) continue;
    const shares = Math.abs(num(event.option?.quantity)) * 100;
    const leg = ordered.find(
      (e) =>
        e.type === "trade" &&
        !legs.has(e) &&
        dayOf(e) === dayOf(event) &&
        (e.trade?.symbol ?? "").toUpperCase() === contract.ticker &&
        Math.abs(num(e.trade?.quantity)) === shares &&
        Math.abs(num(e.trade?.price) - contract.strike) < 0.005,
    );
    if (leg) {
      legOf.set(event, leg);
      legs.add(leg);
    }
    await pace();
  }

  const lines: ParsedLine[] = [];
  for (const [i, event] of ordered.entries()) {
    lines.push(lineOf(event, { line: i + 1, text: eventText(event) }));
    await pace();
  }
  return lines;

  function lineOf(event: TradierHistoryEvent, base: { line: number; text: string }): ParsedLine {
    if (legs.has(event)) return { ...base, skipped: true };
    if (event.type !== "trade" && event.type !== "option" && event.type !== "dividend")
      return { ...base, skipped: true };
    const day = dayOf(event);
    if (!day) return { ...base, refused: `Tradier dated it "${String(event.date)}", which is not a day` };

    if (event.type === "dividend") {
      const symbol = (event.dividend?.symbol ?? "").trim().toUpperCase();
      if (!symbol) return { ...base, refused: "Tradier did not name the dividend's stock; enter it by hand" };
      const amount = num(event.amount);
      if (!(amount > 0))
        return { ...base, refused: "A dividend reversal is not recorded in the journal; enter the change by hand" };
      return {
        ...base,
        trade: {
          kind: "dividend",
          ticker: symbol,
          quantity: 1,
          price: cents(amount),
          fees: 0,
          traded_at: zonedToIso(day, TRADE_TIME),
        },
      };
    }

    if (event.type === "option") {
      const action = optionAction(event);
      const contract = optionOf(event);
      if (!contract)
        return {
          ...base,
          refused: event.option?.symbol
            ? `"${String(event.option.symbol)}" is not an OCC option symbol`
            : "Tradier did not name the option (no symbol, no contract in its description); enter it by hand",
        };
      if (!action)
        return {
          ...base,
          refused: `Tradier's option event "${event.option?.option_type ?? ""}" is not one the journal records`,
        };
      const quantity = Math.abs(num(event.option?.quantity));
      if (!(quantity > 0)) return { ...base, refused: "Tradier gave no number of contracts" };
      const common = {
        ticker: contract.ticker,
        option_type: contract.type,
        strike: contract.strike,
        expiry: contract.expiration,
        quantity,
        price: 0,
        traded_at: zonedToIso(day, SETTLEMENT_TIME),
      };
      if (action === "expire") return { ...base, trade: { kind: "expire", ...common, fees: 0 } };
      if (action === "exercise" && contract.type === "put")
        return {
          ...base,
          refused: "A long option exercised is not part of the wheel journal (short puts and calls only)",
        };
      const leg = legOf.get(event);
      return {
        ...base,
        trade: {
          kind: contract.type === "put" ? "assignment" : "exercise",
          ...common,
          fees: cents(Math.abs(num(leg?.trade?.commission)) || 0),
        },
      };
    }

    const trade = event.trade ?? {};
    const quantity = num(trade.quantity);
    const price = num(trade.price);
    const fees = cents(Math.abs(num(trade.commission)) || 0);
    if (!(quantity !== 0 && Number.isFinite(quantity))) return { ...base, refused: "Tradier gave no quantity" };
    if (!(price >= 0)) return { ...base, refused: "Tradier gave no price" };
    const at = zonedToIso(day, TRADE_TIME);
    const contract = occ(trade.symbol);
    if (contract) {
      return {
        ...base,
        trade: {
          kind: quantity < 0 ? "sell_to_open" : "buy_to_close",
          ticker: contract.ticker,
          option_type: contract.type,
          strike: contract.strike,
          expiry: contract.expiration,
          quantity: Math.abs(quantity),
          price,
          fees,
          traded_at: at,
        },
      };
    }
    if ((trade.trade_type ?? "").toLowerCase() === "option")
      return { ...base, refused: `"${String(trade.symbol ?? "")}" is not an OCC option symbol` };
    const ticker = (trade.symbol ?? "").trim().toUpperCase();
    if (!ticker) return { ...base, refused: "Tradier did not name the stock" };
    return {
      ...base,
      trade: {
        kind: quantity > 0 ? "stock_buy" : "stock_sell",
        ticker,
        quantity: Math.abs(quantity),
        price,
        fees,
        traded_at: at,
      },
    };
  }
}
