import { parse, type Info } from "csv-parse";

/**
 * Broker exports read with csv-parse (RFC 4180: quoted fields, doubled quotes, CRLF, LF or CR; a
 * row may have fewer or more cells than the header), fed in slices so a large file lets other
 * requests run between them (docs/decisions/0073-imports-in-linear-time.md).
 */
export interface CsvLine {
  /** 1-based line number in the file where the record starts. */
  line: number;
  cells: string[];
  /** The record's text, for recognising the same line in a later import. */
  text: string;
}

/** What could be read: the records, and where reading stopped when the file is not valid CSV past some line. */
interface CsvRead {
  records: CsvLine[];
  unreadable: { line: number; text: string; refused: string } | null;
}

const SLICE_CHARS = 16 * 1024;

export async function readCsv(text: string, pace: () => Promise<void> | undefined = () => undefined): Promise<CsvRead> {
  const parser = parse({
    bom: true,
    raw: true,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    record_delimiter: ["\r\n", "\n", "\r"],
  });
  let failure: Error | null = null;
  parser.on("error", (error: Error) => {
    failure = error;
  });
  const records: CsvLine[] = [];
  let lastLine = 0;
  const drain = () => {
    let item: { record: string[]; raw: string; info: Info } | null;
    while ((item = parser.read() as typeof item) !== null) {
      const raw = item.raw.replace(/(\r\n|\r|\n)$/, "");
      lastLine = item.info.lines;
      const line = item.info.lines - (raw.match(/\r\n|\r|\n/g)?.length ?? 0);
      const cells = item.record.map((c) => c.trim());
      if (cells.some((c) => c !== "")) records.push({ line, cells, text: raw });
    }
  };
  for (let i = 0; i < text.length && !failure; i += SLICE_CHARS) {
    parser.write(text.slice(i, i + SLICE_CHARS));
    drain();
    await pace();
  }
  if (!failure) {
    parser.end();
    drain();
  }
  // csv-parse reports a fault as an event on the next turn.
  await new Promise((resolve) => setImmediate(resolve));
  if (!failure) return { records, unreadable: null };
  const from = lastLine + 1;
  const rest = text
    .split(/\r\n|\r|\n/)
    .slice(from - 1)
    .join("\n");
  const fault = failure as Error & { code?: string };
  const refused =
    fault.code === "CSV_QUOTE_NOT_CLOSED"
      ? "A quote opened here is never closed, so the file cannot be read from this line on (is it cut short?)"
      : `The file cannot be read as CSV from this line on: ${fault.message}`;
  return { records, unreadable: { line: from, text: rest, refused } };
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
