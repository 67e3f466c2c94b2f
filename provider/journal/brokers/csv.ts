/** A CSV reader for broker exports (RFC 4180: quoted fields, doubled quotes, CRLF or LF). */
export interface CsvLine {
  /** 1-based line number in the file where the record starts. */
  line: number;
  cells: string[];
  /** The record's text, for recognising the same line in a later import. */
  text: string;
}

export function readCsv(text: string): CsvLine[] {
  const records: CsvLine[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  let raw = "";
  const body = text.replace(/^\uFEFF/, "");
  const finish = () => {
    cells.push(cell);
    if (cells.some((c) => c.trim() !== "")) records.push({ line: start, cells: cells.map((c) => c.trim()), text: raw });
    cells = [];
    cell = "";
    raw = "";
  };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        raw += '""';
        i++;
        continue;
      }
      if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        cell += ch;
      }
      raw += ch;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      raw += ch;
    } else if (ch === ",") {
      cells.push(cell);
      cell = "";
      raw += ch;
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && body[i + 1] === "\n") i++;
      finish();
      line++;
      start = line;
    } else {
      cell += ch;
      raw += ch;
    }
  }
  if (cell !== "" || cells.length > 0) finish();
  return records;
}

/** A number as brokers write it: "1,234.50", "-5.00", "(5.00)", "$2.00"; NaN otherwise. */
export function brokerNumber(text: string | undefined): number {
  if (text === undefined) return Number.NaN;
  let t = text.trim().replace(/[$,\s]/g, "");
  // tastytrade writes "--" for no commission.
  if (t === "--") return 0;
  let sign = 1;
  if (/^\(.*\)$/.test(t)) {
    sign = -1;
    t = t.slice(1, -1);
  }
  if (!/^[-+]?\d+(\.\d+)?$/.test(t)) return Number.NaN;
  return sign * Number(t);
}

/** What a broker line became: a trade to add, a refusal, or nothing (not a trade). */
export type ParsedLine =
  | { line: number; text: string; trade: Record<string, unknown> }
  | { line: number; text: string; refused: string }
  | { line: number; text: string; skipped: true };

export class CsvFormatError extends Error {}

/** The index of each header column; throws when one of `required` is missing. */
export function columns(header: string[], required: readonly string[], what: string): Map<string, number> {
  const index = new Map(header.map((name, i) => [name.trim(), i]));
  const missing = required.filter((name) => !index.has(name));
  if (missing.length > 0) {
    throw new CsvFormatError(`This is not ${what}: the columns ${missing.join(", ")} are missing`);
  }
  return index;
}
