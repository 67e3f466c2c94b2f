import { BrokerPosition } from "#contract/broker-positions.ts";
import { describeZodError } from "#provider/http/errors.ts";

/**
 * The open positions a broker file lists (issue 43): what the reconciliation compares the journal with
 * (docs/decisions/0094-reconciling-the-journal-with-the-broker.md). Each reader answers the file's
 * positions checked by the contract, with a refusal per line that could not be read.
 */
export interface PositionsRead {
  /** When the positions were true: the statement's end. */
  as_of: string;
  positions: BrokerPosition[];
  /**
   * The account's cash as the file states it (docs/decisions/0098-positions-files-and-broker-cash.md);
   * null when it does not say.
   */
  cash: number | null;
  refused: { line: number; reason: string }[];
}

/** A position read from a line, or the reason it could not be: the contract's checks included. */
export function positionOf(
  line: number,
  fields: Record<string, unknown>,
): { position: BrokerPosition } | { refused: { line: number; reason: string } } {
  const parsed = BrokerPosition.safeParse(fields);
  if (parsed.success) return { position: parsed.data };
  return { refused: { line, reason: `Open position: ${describeZodError(parsed.error, "")}` } };
}
