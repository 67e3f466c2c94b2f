import type { Href } from "#app/lib/href.ts";
import type { CoveredCall, HoldingCalls } from "#contract/covered-calls.ts";
import { formatPercent, formatPrice } from "#app/lib/format.ts";
import { longDate } from "#app/routes/covered-calls/dates.ts";
import { CallCard } from "./call-card.tsx";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** The calls grouped by expiry, in the order the provider ranked them (soonest expiry first). */
function byExpiry(calls: readonly CoveredCall[]): [string, CoveredCall[]][] {
  const groups = new Map<string, CoveredCall[]>();
  for (const call of calls) groups.set(call.expiry, [...(groups.get(call.expiry) ?? []), call]);
  return [...groups];
}

/**
 * One holding (docs/product.md#screens-covered-calls): the shares, the journal's adjusted basis, how
 * many calls they still cover, the next ex-dividend, and the calls to sell per expiry; or, when the
 * strike floor leaves none, the nearest call below it, as the put list names its nearest strike.
 */
export function HoldingCard({
  holding,
  commission,
  floorName,
  recordHrefs,
}: {
  holding: HoldingCalls;
  commission: number;
  floorName: string;
  recordHrefs: Record<string, string>;
}) {
  const card = (call: CoveredCall) => (
    <CallCard
      key={call.occ_symbol}
      call={call}
      ticker={holding.ticker}
      spot={holding.spot ?? 0}
      adjustedBasis={holding.adjusted_basis}
      commission={commission}
      exDividend={holding.ex_dividend}
      earningsDate={holding.earnings_date}
      recordHref={recordHrefs[call.occ_symbol] ?? ("/add-trade" satisfies Href)}
    />
  );
  return (
    <li className="ins-card cc-holding" data-testid="holding" data-ticker={holding.ticker}>
      <header className="ins-card__head">
        <div className="ins-card__id">
          <h2 className="ins-card__ticker">
            {plural(holding.shares, "share")} of {holding.ticker}
          </h2>
          {holding.spot !== null ? (
            <span className="ins-card__price" data-testid="spot">
              ${formatPrice(holding.spot)}
            </span>
          ) : null}
        </div>
      </header>
      <dl className="ins-figures ins-figures--extra cc-holding__figures">
        <div className="ins-figure ins-figure--strong">
          <dt>Adjusted cost basis per share (net of the cycle&apos;s premiums and fees)</dt>
          <dd data-testid="adjusted-basis">${formatPrice(holding.adjusted_basis)}</dd>
        </div>
        <div className="ins-figure">
          <dt>Average cost per share</dt>
          <dd data-testid="average-cost">${formatPrice(holding.average_cost)}</dd>
        </div>
        <div className="ins-figure">
          <dt>Calls the shares still cover</dt>
          <dd data-testid="contracts-available">
            {plural(holding.contracts_available, "contract")}
            {holding.open_call_contracts > 0 ? ` (${holding.open_call_contracts} already sold)` : ""}
          </dd>
        </div>
        <div className="ins-figure">
          <dt>Next ex-dividend</dt>
          <dd data-testid="ex-dividend">
            {holding.ex_dividend
              ? `${longDate(holding.ex_dividend.date)} ($${formatPrice(holding.ex_dividend.amount)} a share)`
              : "None known"}
          </dd>
        </div>
        {holding.base_value !== null ? (
          <div className="ins-figure">
            <dt>Your base value</dt>
            <dd data-testid="base-value">${formatPrice(holding.base_value)}</dd>
          </div>
        ) : null}
      </dl>

      <div className="ins-card__panel">
        {holding.error ? (
          <p className="list-error" role="alert">
            {holding.error}
          </p>
        ) : holding.contracts_available === 0 ? (
          <p className="ins-panel__message" data-testid="fully-covered">
            Every 100 shares of {holding.ticker} already back a call you sold.
          </p>
        ) : holding.calls.length === 0 && holding.nearest ? (
          <>
            <p className="ins-panel__message" data-testid="nearest-call">
              No call of {holding.ticker} at or above your {floorName} passes your filters. The nearest strike below it
              is ${formatPrice(holding.nearest.strike)} ({longDate(holding.nearest.expiry)}): bid $
              {formatPrice(holding.nearest.bid)},{" "}
              {holding.nearest.return_if_called === null
                ? "no return if called away"
                : `${formatPercent(holding.nearest.return_if_called)} if called away`}
              , net.
            </p>
            <div className="ins-options">{card(holding.nearest)}</div>
          </>
        ) : holding.calls.length === 0 ? (
          <p className="ins-panel__message" data-testid="no-calls">
            No call of {holding.ticker} passes your filters right now.
          </p>
        ) : (
          byExpiry(holding.calls).map(([expiry, calls]) => (
            <section key={expiry} className="cc-expiry" aria-label={`Calls expiring ${longDate(expiry)}`}>
              <h3 className="cc-expiry__title">
                {longDate(expiry)} · {plural(calls[0]!.days_to_expiry, "day")}
              </h3>
              <div className="ins-options">{calls.map(card)}</div>
            </section>
          ))
        )}
      </div>
    </li>
  );
}
