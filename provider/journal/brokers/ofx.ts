import sax from "sax";
import { CsvFormatError, type ParsedLine } from "./csv.ts";
import { positionOf, type PositionsRead } from "./positions.ts";
import { zonedToIso } from "./zone.ts";

/**
 * OFX/QFX investment statements (INVSTMTRS), OFX 1.x SGML (leaf elements without end tags) and 2.x
 * XML, read with sax's loose streaming parser in 16 kB slices so a big file lets other requests run
 * (docs/decisions/0089-ofx-investment-statements.md). Each transaction aggregate is one "line" (its
 * line number is where it opens; its FITID recognises it in a later import). The options' underlying,
 * strike, expiry and type are in the SECLIST, which follows the transactions, so lines are made at the end.
 */

/** A parsed element: its leaf values by name (the first of each) and its child aggregates. */
interface Node {
  name: string;
  text: string;
  children: Node[];
  line: number;
  start: number;
}

const SLICE_CHARS = 16 * 1024;
const MAX_DEPTH = 64;

/** Transaction aggregates of INVTRANLIST (OFX 2.2 §13.9.2.4). */
const TRANSACTIONS = new Set([
  "BUYDEBT",
  "BUYMF",
  "BUYOPT",
  "BUYOTHER",
  "BUYSTOCK",
  "CLOSUREOPT",
  "INCOME",
  "INVEXPENSE",
  "JRNLFUND",
  "JRNLSEC",
  "MARGININTEREST",
  "REINVEST",
  "RETOFCAP",
  "SELLDEBT",
  "SELLMF",
  "SELLOPT",
  "SELLOTHER",
  "SELLSTOCK",
  "SPLIT",
  "TRANSFER",
  "INVBANKTRAN",
]);

interface Security {
  ticker: string;
  option?: { type: string; strike: string; expiry: string; underlying: string | null };
}

/** A leaf's text in `node` or any aggregate under it, depth first (the first found). */
function find(node: Node, name: string): string | undefined {
  for (const child of node.children) {
    if (child.name === name) return child.text;
    const deeper = find(child, name);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

function child(node: Node, name: string): Node | undefined {
  return node.children.find((c) => c.name === name);
}

function secId(node: Node | undefined): string | null {
  if (!node) return null;
  const id = find(node, "UNIQUEID");
  return id ? `${find(node, "UNIQUEIDTYPE") ?? ""}:${id}` : null;
}

/**
 * An OFX date and time, `YYYYMMDD[HHMMSS[.XXX]][[±h[.mm]:TZ]]`; without a zone the spec says GMT.
 * A date alone (no time) is taken as the US market's close, 16:00 New York time.
 */
export function ofxInstant(text: string): string | null {
  const m =
    /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?(?:\.\d{1,3})?)?\s*(?:\[\s*([+-]?\d{1,2})(?:\.(\d{1,2}))?(?::[^\]]*)?\])?$/.exec(
      text.trim(),
    );
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, offH, offM] = m;
  const date = `${y}-${mo}-${d}`;
  if (hh === undefined) return zonedToIso(date, "16:00:00");
  const wall = Date.UTC(+y!, +mo! - 1, +d!, +hh, +mi!, +(ss ?? 0));
  if (Number.isNaN(wall) || new Date(wall).getUTCDate() !== +d!) return null;
  const hours = offH === undefined ? 0 : Number(offH);
  const minutes = offM === undefined ? 0 : Number(offM) * Math.sign(hours || 1);
  return new Date(wall - (hours * 60 + minutes) * 60_000).toISOString();
}

/** Reads the OFX text into its transaction aggregates and securities; throws CsvFormatError when it is not an investment statement. */
async function readOfx(text: string, pace: () => Promise<void> | undefined) {
  const at = text.search(/<OFX>/i);
  if (at < 0) throw new CsvFormatError("This is not an OFX or QFX file: it has no <OFX> element");
  const lineOffset = text.slice(0, at).split(/\r\n|\r|\n/).length - 1;
  const body = text.slice(at);

  const parser = sax.parser(false, { trim: true, position: true });
  const root: Node = { name: "", text: "", children: [], line: 0, start: 0 };
  const stack: Node[] = [root];
  const transactions: { node: Node; raw: string; open: boolean }[] = [];
  const entryOf = new Map<Node, { node: Node; raw: string; open: boolean }>();
  let inList = 0;
  const securities: Node[] = [];
  const holdings: Node[] = [];
  let positionList = false;
  let balance: Node | undefined;
  let asOf: string | undefined;
  let statements = 0;
  const top = () => stack[stack.length - 1]!;

  /** Closes the innermost element named `name` and all opened inside it. */
  const close = (name: string) => {
    const index = stack.findLastIndex((n) => n.name === name);
    if (index <= 0) return;
    for (const node of stack.splice(index).reverse()) closed(node);
  };
  const closed = (node: Node) => {
    if (TRANSACTIONS.has(node.name)) {
      const entry = entryOf.get(node);
      if (entry) {
        entry.open = false;
        entry.raw = body.slice(node.start, parser.position);
      }
    }
    if (node.name === "STOCKINFO" || node.name === "OPTINFO") securities.push(node);
    if (node.name === "INVSTMTRS") {
      statements += 1;
      asOf ??= child(node, "DTASOF")?.text;
    }
    if (node.name === "INVPOSLIST") positionList = true;
    if (node.name === "INVBAL") balance ??= node;
    if (node.name === "POSSTOCK" || node.name === "POSOPT") holdings.push(node);
    if (node.name === "INVTRANLIST") inList -= 1;
  };

  parser.onopentag = (tag) => {
    // SGML leaves have no end tag: an element that already holds text ends where the next tag opens.
    if (top().text !== "" && top().children.length === 0) closed(stack.pop()!);
    const node: Node = {
      name: tag.name,
      text: "",
      children: [],
      line: parser.line + 1 + lineOffset,
      start: parser.startTagPosition - 1,
    };
    // The whole tree is kept (a file is under 1 MB): the SECLIST at the end describes the transactions before it.
    top().children.push(node);
    stack.push(node);
    // OFX nests about ten deep; a far deeper file is not OFX, and would make each end tag's search long.
    if (stack.length > MAX_DEPTH)
      throw new CsvFormatError(`This is not an OFX file: its elements nest more than ${MAX_DEPTH} deep`);
    if (tag.name === "INVTRANLIST") inList += 1;
    else if (TRANSACTIONS.has(tag.name) && inList > 0) {
      const entry = { node, raw: "", open: true };
      transactions.push(entry);
      entryOf.set(node, entry);
    }
  };
  parser.ontext = (t) => {
    top().text += t;
  };
  parser.oncdata = parser.ontext;
  parser.onclosetag = (name) => close(name);
  // Loose mode reports oddities (an unmatched end tag, text outside elements) and carries on.
  parser.onerror = () => {
    parser.resume();
  };
  // An end tag closes the innermost open element of its name (`close`); one that names none does nothing.
  for (let i = 0; i < body.length; i += SLICE_CHARS) {
    parser.write(body.slice(i, i + SLICE_CHARS));
    await pace();
  }
  parser.close();
  if (statements === 0 && transactions.length === 0) {
    throw new CsvFormatError(
      "This OFX file has no investment statement (INVSTMTRS): export the brokerage account's statement, not a bank one",
    );
  }
  return { transactions, securities, positions: positionList ? { holdings, asOf, balance } : null };
}

/** Number of a leaf; NaN when missing or not a number. */
function num(node: Node, name: string): number {
  const t = find(node, name);
  if (t === undefined || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(t.trim())) return Number.NaN;
  return Number(t.trim());
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** The statement's transactions as lines. */
export async function parseOfx(
  text: string,
  pace: () => Promise<void> | undefined = () => undefined,
): Promise<ParsedLine[]> {
  return (await parseOfxStatement(text, pace)).lines;
}

/** The statement's transactions as lines, and its open positions when it lists them (INVPOSLIST). */
export async function parseOfxStatement(
  text: string,
  pace: () => Promise<void> | undefined = () => undefined,
  now = Date.now(),
): Promise<{ lines: ParsedLine[]; positions: PositionsRead | null }> {
  const { transactions, securities, positions } = await readOfx(text, pace);
  const byId = new Map<string, Security>();
  for (const node of securities) {
    const info = child(node, "SECINFO");
    const id = secId(info ? child(info, "SECID") : undefined);
    if (!id || !info) continue;
    const ticker = (find(info, "TICKER") ?? "").trim().toUpperCase();
    if (node.name === "STOCKINFO") byId.set(id, { ticker });
    else
      byId.set(id, {
        ticker,
        option: {
          type: (find(node, "OPTTYPE") ?? "").toUpperCase(),
          strike: find(node, "STRIKEPRICE") ?? "",
          expiry: find(node, "DTEXPIRE") ?? "",
          // The underlying's SECID is OPTINFO's own, after SECINFO's.
          underlying: secId(child(node, "SECID")),
        },
      });
  }

  // The shares an assignment delivers are a BUYSTOCK/SELLSTOCK the CLOSUREOPT names by RELFITID (or,
  // without one, of the same ticker and day); they are the option line's share leg and carry its fees (ADR 0074).
  const closures = transactions.filter((t) => t.node.name === "CLOSUREOPT" && !t.open);
  const legOf = new Map<Node, Node>();
  const legs = new Set<Node>();
  const shareLines = new Map<string, Node[]>();
  const secIdOf = (n: Node) => secId(child(child(n, "INVBUY") ?? child(n, "INVSELL") ?? n, "SECID"));
  for (const { node } of transactions) {
    if (node.name !== "BUYSTOCK" && node.name !== "SELLSTOCK") continue;
    const fitid = find(node, "FITID")?.trim();
    const keys = [
      `${secIdOf(node)}|${(find(node, "DTTRADE") ?? "").slice(0, 8)}`,
      ...(fitid ? [`FITID ${fitid}`] : []),
    ];
    for (const key of keys) {
      const list = shareLines.get(key);
      if (list) list.push(node);
      else shareLines.set(key, [node]);
    }
  }
  for (const { node } of closures) {
    if ((find(node, "OPTACTION") ?? "").toUpperCase() !== "ASSIGN") continue;
    const rel = find(node, "RELFITID")?.trim();
    const underlying = byId.get(secId(child(node, "SECID")) ?? "")?.option?.underlying;
    const key = rel ? `FITID ${rel}` : `${underlying}|${(find(node, "DTTRADE") ?? "").slice(0, 8)}`;
    const leg = (shareLines.get(key) ?? []).find((s) => !legs.has(s));
    if (leg) {
      legOf.set(node, leg);
      legs.add(leg);
    }
    await pace();
  }

  const lines: ParsedLine[] = [];
  for (const { node, raw, open } of transactions) {
    const fitid = find(node, "FITID");
    const base = { line: node.line, text: fitid ? `OFX ${node.name} FITID ${fitid.trim()}` : raw };
    lines.push(
      open ? { ...base, refused: "The file ends inside this transaction (is it cut short?)" } : lineOf(node, base),
    );
    await pace();
  }
  return { lines, positions: positions && positionsOf(positions.holdings, positions.asOf, positions.balance) };

  /**
   * INVPOSLIST's POSSTOCK and POSOPT (OFX 2.2 §13.9.2.6.1): UNITS held, POSTYPE SHORT for a written
   * option; OFX gives no cost, so the broker's basis is unknown. As of the statement's DTASOF. The
   * cash is INVBAL's AVAILCASH (§13.9.2.7: cash available, sweep funds included; ADR 0098).
   */
  function positionsOf(nodes: Node[], dtasof: string | undefined, balance: Node | undefined): PositionsRead {
    const read: PositionsRead = {
      as_of: (dtasof && ofxInstant(dtasof)) || new Date(now).toISOString(),
      positions: [],
      cash: null,
      refused: [],
    };
    const available = balance && child(balance, "AVAILCASH");
    if (available) {
      const cash = num(balance, "AVAILCASH");
      if (Number.isFinite(cash)) read.cash = cents(cash);
      else read.refused.push({ line: available.line, reason: `AVAILCASH "${available.text}" is not a number` });
    }
    for (const node of nodes) {
      const id = secId(child(child(node, "INVPOS") ?? node, "SECID"));
      const security = id ? byId.get(id) : undefined;
      if (!security) {
        read.refused.push({
          line: node.line,
          reason: `Open position: security ${id ?? "(none)"} is not in the SECLIST`,
        });
        continue;
      }
      const units = Math.abs(num(node, "UNITS"));
      const quantity = (find(node, "POSTYPE") ?? "").toUpperCase() === "SHORT" ? -units : units;
      const option = security.option;
      const expiry = option && /^(\d{4})(\d{2})(\d{2})/.exec(option.expiry);
      const fields =
        node.name === "POSSTOCK"
          ? { ticker: security.ticker, kind: "shares", option_type: null, strike: null, expiry: null }
          : {
              ticker:
                (option?.underlying ? byId.get(option.underlying)?.ticker : undefined) ||
                /^([A-Z.]{1,6})\s*\d{6}[CP]\d{8}$/.exec(security.ticker)?.[1],
              kind: "option",
              option_type: option?.type === "PUT" ? "put" : option?.type === "CALL" ? "call" : null,
              strike: option ? Number(option.strike) : null,
              expiry: expiry ? `${expiry[1]}-${expiry[2]}-${expiry[3]}` : null,
            };
      const result = positionOf(node.line, { ...fields, quantity, cost_basis: null });
      if ("position" in result) read.positions.push(result.position);
      else read.refused.push(result.refused);
    }
    return read;
  }

  function lineOf(node: Node, base: { line: number; text: string }): ParsedLine {
    if (legs.has(node) || node.name === "INVBANKTRAN") return { ...base, skipped: true };
    const dttrade = find(node, "DTTRADE") ?? "";
    const when = ofxInstant(dttrade);
    if (!when) return { ...base, refused: `DTTRADE "${dttrade}" is not an OFX date like 20260504101500.000[-4:EDT]` };
    const id = secIdOf(node);
    const security = id ? byId.get(id) : undefined;
    if (!security)
      return {
        ...base,
        refused: `Security ${id ?? "(none)"} is not described in the file's SECLIST (is the file cut short?)`,
      };
    const fees = (n: Node) =>
      ["COMMISSION", "FEES", "TAXES"].reduce((sum, name) => sum + (Math.abs(num(n, name)) || 0), 0);

    switch (node.name) {
      case "BUYSTOCK":
      case "SELLSTOCK": {
        const units = Math.abs(num(node, "UNITS"));
        const price = num(node, "UNITPRICE");
        if (!(units > 0)) return { ...base, refused: `UNITS "${find(node, "UNITS")}" is not a number of shares` };
        if (!(price >= 0)) return { ...base, refused: `UNITPRICE "${find(node, "UNITPRICE")}" is not a price` };
        return {
          ...base,
          trade: {
            kind: node.name === "BUYSTOCK" ? "stock_buy" : "stock_sell",
            ticker: security.ticker,
            quantity: units,
            price,
            fees: cents(fees(node)),
            traded_at: when,
          },
        };
      }
      case "INCOME": {
        const type = (find(node, "INCOMETYPE") ?? "").toUpperCase();
        const memo = find(node, "MEMO") ?? "";
        const cashInLieu = /cash[\s-]*in[\s-]*lieu/i.test(memo) || type === "CASH-IN-LIEU";
        if (type !== "DIV" && !cashInLieu) return { ...base, skipped: true };
        const total = num(node, "TOTAL");
        if (!Number.isFinite(total)) return { ...base, refused: `TOTAL "${find(node, "TOTAL")}" is not a number` };
        if (total <= 0)
          return { ...base, refused: "A dividend reversal is not recorded in the journal; enter the change by hand" };
        return {
          ...base,
          trade: { kind: "dividend", ticker: security.ticker, quantity: 1, price: total, fees: 0, traded_at: when },
        };
      }
      case "BUYOPT":
      case "SELLOPT":
      case "CLOSUREOPT": {
        const option = security.option;
        if (!option) return { ...base, refused: `Security ${id} is not an option (no OPTINFO in the SECLIST)` };
        const underlying = option.underlying ? byId.get(option.underlying)?.ticker : undefined;
        // Without the underlying in the SECLIST, the OCC symbol's root names it ("KO    260612P00065000").
        const ticker = underlying || /^([A-Z.]{1,6})\s*\d{6}[CP]\d{8}$/.exec(security.ticker)?.[1];
        if (!ticker) return { ...base, refused: `The option ${id} names no underlying the file describes` };
        const strike = Number(option.strike);
        if (!(strike > 0)) return { ...base, refused: `STRIKEPRICE "${option.strike}" is not a price` };
        if (option.type !== "PUT" && option.type !== "CALL")
          return { ...base, refused: `OPTTYPE "${option.type}" is neither PUT nor CALL` };
        const expiry = /^(\d{4})(\d{2})(\d{2})/.exec(option.expiry);
        if (!expiry) return { ...base, refused: `DTEXPIRE "${option.expiry}" is not a date` };
        const contract = {
          ticker,
          option_type: option.type === "PUT" ? "put" : "call",
          strike,
          expiry: `${expiry[1]}-${expiry[2]}-${expiry[3]}`,
        };
        const units = Math.abs(num(node, "UNITS"));
        if (!(units > 0)) return { ...base, refused: `UNITS "${find(node, "UNITS")}" is not a number of contracts` };
        const common = { ...contract, quantity: units, traded_at: when };
        if (node.name === "CLOSUREOPT") {
          const action = (find(node, "OPTACTION") ?? "").toUpperCase();
          if (action === "EXPIRE") return { ...base, trade: { kind: "expire", ...common, price: 0, fees: 0 } };
          if (action === "ASSIGN") {
            const leg = legOf.get(node);
            return {
              ...base,
              trade: {
                kind: contract.option_type === "put" ? "assignment" : "exercise",
                ...common,
                price: 0,
                fees: cents(leg ? fees(leg) : 0),
              },
            };
          }
          return {
            ...base,
            refused: `OPTACTION "${action}" (a long option exercised) is not part of the wheel journal (short puts and calls only)`,
          };
        }
        const price = num(node, "UNITPRICE");
        if (!(price >= 0)) return { ...base, refused: `UNITPRICE "${find(node, "UNITPRICE")}" is not a price` };
        const type =
          node.name === "BUYOPT"
            ? (find(node, "OPTBUYTYPE") ?? "").toUpperCase()
            : (find(node, "OPTSELLTYPE") ?? "").toUpperCase();
        if (node.name === "SELLOPT" && type === "SELLTOOPEN")
          return { ...base, trade: { kind: "sell_to_open", ...common, price, fees: cents(fees(node)) } };
        if (node.name === "BUYOPT" && type === "BUYTOCLOSE")
          return { ...base, trade: { kind: "buy_to_close", ...common, price, fees: cents(fees(node)) } };
        return {
          ...base,
          refused: `${node.name} of type "${type}" is not part of the wheel journal (short puts and calls only)`,
        };
      }
      default:
        return { ...base, refused: `${node.name} is not a trade the wheel journal records` };
    }
  }
}
