import type { Difference, Reconciliation } from "#contract/reconcile.ts";

/**
 * The reconciliation's sentences (docs/product.md#screens-reconcile): a position's name, a side's
 * holding, a difference and its fix, each saying which figure it is (cost a share, premium a share).
 */
type Position = Pick<Difference, "ticker" | "kind" | "option_type" | "strike" | "expiry">;
type Holding = NonNullable<Difference["journal"]>;

const usd = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});
const whole = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });
const money = (value: number) => usd.format(value);
const count = (value: number) => whole.format(value);

export const positionName = (p: Position) =>
  p.kind === "shares" ? `${p.ticker} shares` : `${p.ticker} ${count(p.strike!)} ${p.option_type} ${p.expiry}`;

/** "100 shares at $49.50 a share", "1 short at $0.85 premium a share", with "(past expiry)". */
export function holdingText(p: Position, h: Holding | null): string {
  if (!h) return "none";
  const amount =
    p.kind === "shares"
      ? `${count(h.quantity)} ${Math.abs(h.quantity) === 1 ? "share" : "shares"}`
      : `${count(Math.abs(h.quantity))} ${h.quantity < 0 ? "short" : "long"}`;
  const basis =
    h.cost_basis === null ? "" : ` at ${money(h.cost_basis)} ${p.kind === "shares" ? "a share" : "premium a share"}`;
  return `${amount}${basis}${h.awaiting_resolution ? " (past expiry)" : ""}`;
}

export function differenceText(d: Difference, broker: string): string {
  const name = positionName(d);
  switch (d.issue) {
    case "missing":
      return `${broker} holds ${name} (${holdingText(d, d.broker)}); your journal has none.`;
    case "stale":
      return `Your journal holds ${name} (${holdingText(d, d.journal)}); ${broker} has none.`;
    case "quantity":
      return `${name}: your journal holds ${holdingText(d, d.journal)}, ${broker} ${holdingText(d, d.broker)}.`;
    case "basis":
      return `${name}: the same amount, but your journal's cost is ${money(d.journal!.cost_basis!)} ${d.kind === "shares" ? "a share (paid, fees included)" : "premium a share (net of fees)"} and ${broker}'s ${money(d.broker!.cost_basis!)}. Nothing is changed for it: check the trades' prices and fees.`;
    case "unsupported":
      return `${broker} holds ${name} (${holdingText(d, d.broker)}): a wheel journal records short options and bought shares only, so there is nothing to fix here.`;
  }
}

const VERBS: Record<NonNullable<Difference["fix"]>["trade_kind"], string> = {
  stock_buy: "Add a purchase of",
  sell_to_open: "Add a sale to open of",
  stock_sell: "Record a sale of",
  buy_to_close: "Record a buy-back of",
  expire: "Record as expired:",
};

/** The fix button's words: what it records, and at what price when the broker gives it. */
export function fixText(d: Difference): string {
  const fix = d.fix!;
  const what =
    d.kind === "shares"
      ? `${count(fix.quantity)} ${d.ticker} ${fix.quantity === 1 ? "share" : "shares"}`
      : `${count(fix.quantity)} ${positionName(d)}`;
  const price = fix.action === "expire" || fix.price === null ? "" : ` at ${money(fix.price)}`;
  return `${VERBS[fix.trade_kind]} ${what}${price}`;
}

type Totals = Reconciliation["totals"]["journal"];

/** The two books' sums, row by row: what the Plan and the alerts see against what the broker holds. */
export const TOTAL_ROWS: { label: string; value: (t: Totals) => string }[] = [
  {
    label: "Shares (at cost)",
    value: (t) => `${count(t.shares)}${t.shares_cost === null ? "" : ` (${money(t.shares_cost)})`}`,
  },
  { label: "Short puts (contracts)", value: (t) => count(t.short_puts) },
  { label: "Short calls (contracts)", value: (t) => count(t.short_calls) },
  { label: "Cash committed (put collateral)", value: (t) => money(t.put_collateral) },
];

/**
 * The cash check's sentence (ADR 0098): the journal's cash-secured puts' collateral against the
 * broker's cash, the verdict in words ("short", "covered"), never in colour alone.
 */
export function cashText(cover: Reconciliation["cash"], broker: string): { covered: boolean | null; text: string } {
  const committed = money(cover.committed);
  if (cover.broker === null || cover.short === null) {
    return {
      covered: null,
      text: `${broker} did not state the account's cash with these positions, so the ${committed} your puts commit is not checked against it.`,
    };
  }
  const held = `${broker} holds ${money(cover.broker)} cash`;
  if (cover.short > 0) return { covered: false, text: `${committed} committed, ${held}: ${money(cover.short)} short.` };
  return {
    covered: true,
    text: `${committed} committed, ${held}: covered, ${money(cover.broker - cover.committed)} to spare.`,
  };
}
