import type { CallRecord } from "#contract/track-record.ts";
import { formatPercent } from "#app/lib/format.ts";
import { formatCount, formatDay, formatDollars, formatReturn } from "#app/lib/track-record.ts";

/**
 * The covered calls the screen suggested, scored at expiry beside the puts (docs/decisions/0088):
 * totals only, since each call was priced against one trader's own holding.
 */
export function CallTotals({ calls }: { calls: CallRecord }) {
  const period =
    calls.first_shown && calls.last_expiry
      ? ` suggested from ${formatDay(calls.first_shown)}, expiring up to ${formatDay(calls.last_expiry)}`
      : "";
  return (
    <section aria-labelledby="tr-calls">
      <h2 id="tr-calls">Covered calls suggested</h2>
      <p className="tr-note">
        Every call the covered-call screen listed for a trader&apos;s shares, once per trader, call and day, scored
        against the adjusted basis it was shown with.
        {calls.simulated ? " Simulated: priced and scored in the simulated market." : ""}
      </p>
      {calls.count === 0 ? (
        <p className="tr-empty">
          No suggested call has expired yet.
          {calls.pending > 0 ? ` ${formatCount(calls.pending)} suggested calls are waiting for their expiry.` : ""}
        </p>
      ) : (
        <>
          <p className="tr-period">{`${formatCount(calls.count)} calls${period}.`}</p>
          <dl className="tr-totals">
            <div>
              <dt>Called away</dt>
              <dd>{`${formatPercent(calls.called_away / calls.count, 0)} (${formatCount(calls.called_away)})`}</dd>
            </div>
            <div>
              <dt>Kept, premium and shares</dt>
              <dd>{`${formatPercent(calls.kept / calls.count, 0)} (${formatCount(calls.kept)})`}</dd>
            </div>
            {calls.mean_chance_called !== null ? (
              <div>
                <dt>Chance of being called shown (mean, risk-neutral)</dt>
                <dd>{formatPercent(calls.mean_chance_called)}</dd>
              </div>
            ) : null}
            <div>
              <dt>Premium on the basis (mean, at the bid)</dt>
              <dd>{formatReturn(calls.mean_promised_return)}</dd>
            </div>
            <div>
              <dt>Realised return on the basis (mean, gross)</dt>
              <dd>{formatReturn(calls.mean_realised_return)}</dd>
            </div>
            <div>
              <dt>P&amp;L, one contract of each (gross)</dt>
              <dd>{formatDollars(calls.pnl_per_contract)}</dd>
            </div>
          </dl>
          {calls.pending > 0 ? (
            <p className="tr-note">{`${formatCount(calls.pending)} more suggested calls are waiting for their expiry.`}</p>
          ) : null}
        </>
      )}
    </section>
  );
}
