/**
 * How a recommended put sits in the trader's plan (docs/product.md#plan-fit, ADR 0081), in words:
 * pure, shared by the put cards, the option detail and the Plan screen's best puts.
 */
import type { PutFit } from "#contract/plan.ts";

const dollars = (n: number) => `$${Math.round(n).toLocaleString("en-US")}`;
const pct = (share: number) => `${Math.round(share * 100)} %`;

/** One put's fit as the browser shows it (app/server/plan-fit.server.ts writes it). */
export interface FitMark {
  fits: boolean;
  notes: string[];
  sizing: string;
  contracts_allowed: number;
}

export interface FitBook {
  capital: number | null;
  free_cash: number | null;
  ticker_limit: number;
  sector_limit: number;
}

/** The fit's sentences: the cash one contract uses against the free cash, then any limit it would break. */
export function fitNotes(fit: PutFit, book: FitBook): string[] {
  const free = book.free_cash ?? 0;
  const notes: string[] = [];
  const cash = `uses ${dollars(fit.collateral_per_contract)} of your ${dollars(Math.max(0, free))} free`;
  notes.push(fit.by_cash >= 1 ? cash : `${cash} — does not fit`);
  if (fit.by_ticker < 1) {
    notes.push(`${fit.ticker} would be ${pct(fit.ticker_share)} of capital, over your ${pct(book.ticker_limit)} limit`);
  }
  if (fit.by_sector < 1) {
    notes.push(
      `${fit.sector} would be ${pct(fit.sector_share)} of capital, over your ${pct(book.sector_limit)} sector limit`,
    );
  }
  return notes;
}

/** The contract count the plan allows, and which limit holds it there. */
export function sizingText(fit: PutFit): string {
  if (fit.contracts_allowed < 1) return "Your plan allows no contract of this put.";
  const holding =
    fit.contracts_allowed === fit.by_cash
      ? "free cash"
      : fit.contracts_allowed === fit.by_ticker
        ? "ticker limit"
        : "sector limit";
  const n = fit.contracts_allowed;
  return `Your plan allows ${n} ${n === 1 ? "contract" : "contracts"} (held by your ${holding}: cash ${fit.by_cash}, ticker ${fit.by_ticker}, sector ${fit.by_sector}).`;
}

export const FIT_TEXT = {
  fits: "Fits your plan",
  doesNotFit: "Does not fit your plan",
  setCapital: "Set your capital on your profile to see whether a put fits your plan.",
  onlyFitting: "Only puts that fit my free cash and limits",
  showAll: "Show all puts",
  hidden: (n: number) =>
    `${n} ${n === 1 ? "put does" : "puts do"} not fit your plan and ${n === 1 ? "is" : "are"} hidden.`,
} as const;
