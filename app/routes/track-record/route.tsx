import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import { useLoaderData } from "react-router";
import type { Route } from "./+types/route";
import { LogoMark } from "#app/components/signed-out-icons.tsx";
import { CalibrationChart } from "./components/calibration-chart.tsx";
import { CallTotals } from "./components/call-totals.tsx";
import { CalibrationTable, GroupTable, RecentTable } from "./components/track-record-tables.tsx";
import { formatPercent } from "#app/lib/format.ts";
import { formatCount, formatDay, formatDollars, formatMonth, formatReturn } from "#app/lib/track-record.ts";
import { readSession } from "#app/server/session.server.ts";
import { loadTrackRecord } from "#app/server/track-record.server.ts";

/** Public: how the recommended puts turned out (nobody's own data). */
export async function loader({ request }: Route.LoaderArgs) {
  const [record, session] = await Promise.all([loadTrackRecord(), readSession(request)]);
  // ?outcome=assigned or expired_worthless: the latest scored puts of that outcome (issue 46).
  const wanted = new URL(request.url).searchParams.get("outcome");
  const outcome = wanted === "assigned" || wanted === "expired_worthless" ? wanted : null;
  return { record, signedIn: Boolean(session), outcome };
}

const OUTCOME_FILTERS = [
  { value: null, label: "All" },
  { value: "expired_worthless", label: "Expired worthless" },
  { value: "assigned", label: "Assigned" },
] as const;

export default function TrackRecordPage() {
  const { record, signedIn, outcome } = useLoaderData<typeof loader>();
  const recent =
    outcome === "assigned"
      ? (record.recent_assigned ?? [])
      : outcome === "expired_worthless"
        ? (record.recent_expired ?? [])
        : record.recent;
  const c = record.on_collateral;
  const t = record.totals;
  const period =
    t.first_shown && t.last_expiry
      ? `recommended from ${formatDay(t.first_shown)}, expiring up to ${formatDay(t.last_expiry)}`
      : null;

  return (
    <div className="track-record">
      <header className="landing-nav">
        <a href={signedIn ? ("/insights" satisfies Href) : ("/login" satisfies Href)} className="landing-nav__brand">
          <LogoMark />
          PutSeller
        </a>
        <a href={signedIn ? ("/insights" satisfies Href) : ("/login" satisfies Href)} className="landing-nav__link">
          {signedIn ? "Recommendations" : "Sign in"}
        </a>
      </header>
      <main>
        <h1>Track record</h1>
        <p className="tr-lead">
          Every put PutSeller recommended, scored once its expiry day closed: did it expire worthless, or was the seller
          assigned, and for how much? Each put counts once per day it was recommended.
        </p>
        {record.simulated ? (
          <p className="tr-simulated" role="note">
            <strong>Simulated.</strong> These figures come from the simulated market, not from real prices or real
            trades:
            {t.backtest > 0
              ? ` ${formatCount(t.backtest)} of the scored puts are a back-test (the engine run at the close of one past session a week),`
              : ""}{" "}
            scored against the simulated closes.
          </p>
        ) : null}

        {t.count === 0 ? (
          <p className="tr-empty">
            Nothing is scored yet: a put is scored after the close of its expiry day.
            {t.pending > 0 ? ` ${formatCount(t.pending)} recommended puts are waiting for their expiry.` : ""}
          </p>
        ) : (
          <>
            <section aria-labelledby="tr-totals">
              <h2 id="tr-totals">In total</h2>
              {period ? <p className="tr-period">{`${formatCount(t.count)} puts ${period}.`}</p> : null}
              {/* The headline (ADR 0097): what the cash earned, against what was promised and T-bills. */}
              <p className="tr-headline" data-testid="tr-headline">
                Realised <strong>{formatReturn(c.realised)} a year</strong> on the cash set aside, against{" "}
                <strong>{formatReturn(c.promised)}</strong> promised and <strong>{formatReturn(c.tbills)}</strong> in
                T-bills on the same cash over the same days.
              </p>
              <p className="tr-note">
                {`Weighted by collateral-days: each put's strike × 100 for the days from when it was shown to its expiry (${formatCount(Math.round(c.collateral_days))} dollar-days). Gross of commission, premium at the bid${t.at_mid > 0 ? ` (${formatCount(t.at_mid)} at the mid)` : ""}, assigned shares valued at the expiry close; T-bills at the rate each put was priced with.`}
              </p>
              <dl className="tr-totals">
                <div>
                  <dt>Expired worthless</dt>
                  <dd>{formatPercent(t.expired_worthless / t.count, 0)}</dd>
                </div>
                <div>
                  <dt>Chance of profit shown (mean)</dt>
                  <dd>{formatPercent(t.mean_predicted)}</dd>
                </div>
                <div>
                  <dt>Ended profitable</dt>
                  <dd>{formatPercent(t.observed_profit_rate)}</dd>
                </div>
                <div>
                  <dt>Promised return (mean)</dt>
                  <dd>{formatReturn(t.mean_promised_return)}</dd>
                </div>
                <div>
                  <dt>Realised return (mean)</dt>
                  <dd>{formatReturn(t.mean_realised_return)}</dd>
                </div>
                <div>
                  <dt>Realised, promised and T-bills, a year on the cash set aside</dt>
                  <dd>
                    Each put ties up its strike × 100 from the day it was shown to its expiry: its collateral-days. The
                    realised figure is the P&amp;L of all scored puts ÷ their collateral-days × 365, so a long put
                    weighs by its days and an assignment&apos;s loss counts in full; promised is the premiums the same
                    way; T-bills is what the same cash would have earned over the same days at the T-bill rate the
                    engine priced each put with (continuous). The means per put in the tables below give every put one
                    vote whatever its life.
                  </dd>
                  <dt>P&amp;L, one contract of each</dt>
                  <dd>{formatDollars(t.pnl_per_contract)}</dd>
                </div>
              </dl>
              {t.pending > 0 ? (
                <p className="tr-note">{`${formatCount(t.pending)} more recommended puts are waiting for their expiry.`}</p>
              ) : null}
            </section>

            <section aria-labelledby="tr-calibration">
              <h2 id="tr-calibration">Chance of profit against what happened</h2>
              <p className="tr-note">
                Puts grouped by the chance of profit shown when they were recommended. In a calibrated model the share
                that ended profitable matches the chance shown, within its 95% interval.
              </p>
              <CalibrationChart buckets={record.calibration} />
              <CalibrationTable buckets={record.calibration} />
            </section>

            <section aria-labelledby="tr-by-ticker">
              <h2 id="tr-by-ticker">By ticker</h2>
              <GroupTable
                caption="Scored puts by ticker"
                first="Ticker"
                groups={record.by_ticker}
                keyOf={(g) => g.ticker}
                label={(g) => g.ticker}
              />
            </section>

            <section aria-labelledby="tr-by-month">
              <h2 id="tr-by-month">By month of expiry</h2>
              <GroupTable
                caption="Scored puts by month of expiry"
                first="Month"
                groups={record.by_month}
                keyOf={(g) => g.month}
                label={(g) => formatMonth(g.month)}
              />
            </section>

            <section aria-labelledby="tr-recent">
              <h2 id="tr-recent">Latest scored</h2>
              <nav aria-label="Outcome" className="tr-outcomes">
                {OUTCOME_FILTERS.map((f) => (
                  <a
                    key={f.label}
                    href={
                      f.value
                        ? (`/track-record?outcome=${f.value}#tr-recent` satisfies HrefWithSearch)
                        : ("/track-record#tr-recent" satisfies HrefWithSearch)
                    }
                    aria-current={outcome === f.value ? "true" : undefined}
                  >
                    {f.label}
                  </a>
                ))}
              </nav>
              {recent.length > 0 ? (
                <RecentTable picks={recent} />
              ) : (
                <p role="status">No scored put has this outcome yet.</p>
              )}
            </section>
          </>
        )}

        <CallTotals calls={record.calls} />

        <section aria-labelledby="tr-definitions" className="tr-definitions">
          <h2 id="tr-definitions">What each figure is</h2>
          <dl>
            <dt>Chance of profit shown</dt>
            <dd>
              The engine&apos;s figure when the put was recommended: the risk-neutral probability that the stock closes
              above the breakeven (strike − premium) at expiry, from a lognormal model at the put&apos;s implied
              volatility, with the premium at the bid. It is not a forecast of the real drift.
            </dd>
            <dt>Expired worthless, assigned</dt>
            <dd>
              From the stock&apos;s close on the expiry day: at or above the strike the put expires worthless; below it
              the seller is assigned and buys at the strike shares worth the close. Early assignment is not modelled.
            </dd>
            <dt>Ended profitable</dt>
            <dd>The premium kept was more than any assignment loss: the close was above the breakeven.</dd>
            <dt>Promised return</dt>
            <dd>
              Premium at the bid ÷ strike: what the put pays on the cash set aside if it expires worthless, over its
              life (not annualised).
            </dd>
            <dt>Realised return</dt>
            <dd>
              Premium kept at the bid, less (strike − close) when assigned, ÷ strike; gross of commission, with assigned
              shares valued at the expiry close.
            </dd>
            <dt>Realised, promised and T-bills, a year on the cash set aside</dt>
            <dd>
              Each put ties up its strike × 100 from the day it was shown to its expiry: its collateral-days. The
              realised figure is the P&amp;L of all scored puts ÷ their collateral-days × 365, so a long put weighs by
              its days and an assignment&apos;s loss counts in full; promised is the premiums the same way; T-bills is
              what the same cash would have earned over the same days at the T-bill rate the engine priced each put with
              (continuous). The means per put in the tables below give every put one vote whatever its life.
            </dd>
            <dt>P&amp;L, one contract of each</dt>
            <dd>
              The sum, in dollars, of 100 × the realised profit or loss a share of every scored put, gross of
              commission.
            </dd>
            <dt>Covered calls: called away, kept</dt>
            <dd>
              From the stock&apos;s close on the call&apos;s expiry day: above the strike the shares are called away at
              the strike; at or below it the call expires, and the premium and the shares are kept. Early assignment is
              not modelled.
            </dd>
            <dt>Covered calls: realised return</dt>
            <dd>
              Called away: (premium at the bid + strike − adjusted basis) ÷ adjusted basis, the whole cycle&apos;s gain
              on the shares. Kept: premium at the bid ÷ adjusted basis; the kept shares&apos; change in value is not
              realised and not counted. Gross of commission, over the call&apos;s life (not annualised). The adjusted
              basis is the trader&apos;s journal figure when the call was shown: what the shares cost less the
              cycle&apos;s net premiums.
            </dd>
          </dl>
          {t.at_mid > 0 ? (
            <p className="tr-note">{`${formatCount(t.at_mid)} puts were recommended at the mid instead of the bid; their premium and breakeven use the mid.`}</p>
          ) : null}
        </section>
      </main>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [
  { title: "Track record · PutSeller" },
  { name: "description", content: "How PutSeller's recommended puts turned out at expiry: calibration and returns." },
];
