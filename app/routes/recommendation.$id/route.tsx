import { lazy, useEffect, useRef } from "react";
import { Form, Link, useLoaderData, useLocation, useNavigate, useRouteLoaderData, useSearchParams } from "react-router";
import type { Route } from "./+types/route";
import type { loader as listLoader } from "#app/routes/insights/route.tsx";
import type { TradeRecommendation } from "#contract/entities.ts";
import { loadRecommendation } from "./server.ts";
import { messages } from "#app/lib/messages.ts";
import { AI_ROUTES, type AiStreamState } from "#app/lib/ai-stream.ts";
import { formatDateTime, formatGreek, formatPercent, formatPrice } from "#app/lib/format.ts";
import { EXPLAIN_PARAM, INSIGHTS_PARAM, INSIGHTS_PATH, insightsSearch } from "#app/lib/insights.ts";
import { RECORD_TRADE_TEXT, recordTradeHref } from "#app/lib/record-trade.ts";
import {
  explainGreeks,
  expiryLong,
  LAST_TRADE_NOTE,
  premiumLabel,
  pricingInputs,
  quoteProvenance,
  strikeDistance,
  underlyingOf,
} from "#app/lib/option-card.ts";
import { Modal } from "#app/components/modal.tsx";
import { AiText } from "#app/components/ai-text.tsx";
import { openedHere } from "#app/components/confirm-dialog.tsx";
import { ivStanding, MoneynessBadge } from "#app/components/option-card.tsx";
import { SparklesIcon } from "#app/components/icons.tsx";

import type { PlanFitData } from "#app/server/plan-fit.server.ts";
import { useAiStream } from "#app/hooks/use-ai-stream.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { orUnavailable } from "#app/server/unavailable.server.ts";

// The plan's fit block (ADR 0081) loads with its data; hydration waits for it (ADR 0052).
const PlanFitBlock = lazy(() =>
  import("#app/components/plan-fit-block.tsx").then((m) => ({ default: m.PlanFitBlock })),
);

/**
 * The option detail 'Sell Put Options' (docs/product.md#screens-option-detail) at /recommendation/{id}, over the list: it
 * opens directly (a shared link, a notification) and without JavaScript. A recommendation a newer
 * run replaced still opens, marked as such.
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return orUnavailable(loadRecommendation(request, params, context));
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function RecommendationDetail() {
  const { recommendation, error, explanation, planFit } = useLoaderData<typeof loader>();
  const list = useRouteLoaderData<typeof listLoader>("routes/insights/route");
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();

  const ticker = recommendation ? underlyingOf(recommendation.option_identifier) : null;
  // Opened directly: closing shows the list with this option's stock and date.
  const closeTo =
    INSIGHTS_PATH +
    insightsSearch(searchParams, (p) => {
      if (!recommendation || !ticker || p.get(INSIGHTS_PARAM.open)) return;
      p.set(INSIGHTS_PARAM.open, ticker);
      p.set(INSIGHTS_PARAM.date, recommendation.expiration_date);
    });
  const close = () => {
    if (openedHere(location.state)) void navigate(-1);
    else void navigate(closeTo, { replace: true, preventScrollReset: true });
  };
  const name = recommendation
    ? [...(list?.topLine ?? []), ...(list?.page.pinned ? [list.page.pinned] : [])].find(
        (t) => t.stock_id === recommendation.stock_id,
      )?.stock_name
    : undefined;

  // Closing returns focus to the option card that opened the detail, when the list shows it.
  const opener = useRef<HTMLElement | null>(null);
  const id = recommendation?.id;
  useEffect(() => {
    opener.current = document.querySelector<HTMLElement>(`.ins-option[data-id="${id}"] .ins-option__link`);
  }, [id]);

  return (
    <Modal
      title="Sell Put Options"
      closeTo={closeTo}
      onClose={close}
      returnFocusRef={opener}
      className="modal--sheet ins-detail-modal"
    >
      {recommendation && ticker ? (
        <OptionDetail
          // A new option starts with no explanation.
          key={recommendation.id}
          recommendation={recommendation}
          ticker={ticker}
          name={name}
          explanation={explanation}
          planFit={planFit}
          explainSearch={insightsSearch(searchParams, (p) => p.set(EXPLAIN_PARAM, "1"))}
        />
      ) : (
        <div className="ins-detail">
          <p className="list-error" role="alert">
            {error ?? messages.notFound}
          </p>
          <Link to={INSIGHTS_PATH} className="button">
            Back to Recommendations
          </Link>
        </div>
      )}
    </Modal>
  );
}

function OptionDetail({
  recommendation: r,
  ticker,
  name,
  explanation,
  planFit,
  explainSearch,
}: {
  recommendation: TradeRecommendation;
  ticker: string;
  name: string | undefined;
  explanation: { text: string; error: string | null } | null;
  /** Whether it fits the trader's plan and the contracts it allows (ADR 0081). */
  planFit: PlanFitData | null;
  explainSearch: string;
}) {
  const hydrated = useHydrated();
  const ai = useAiStream();
  const distance = strikeDistance(r.strike_price, r.current_stock_price);
  // The browser's stream, once started, replaces what the server wrote into the page.
  const state: AiStreamState =
    ai.status === "idle" && !ai.text && explanation
      ? { text: explanation.text, status: explanation.error ? "error" : "done", error: explanation.error }
      : ai;
  const thinking = ai.status === "streaming";

  return (
    <div className="ins-detail">
      <p className="ins-detail__subtitle">
        <strong>{ticker}</strong>
        {name ? ` · ${name}` : null} · stock ${formatPrice(r.current_stock_price)} ·{" "}
        <span data-testid="detail-source" suppressHydrationWarning>
          {quoteProvenance(r)}
        </span>
      </p>
      {r.active === 0 ? (
        <p className="ins-detail__notice" role="note">
          A newer run has replaced this recommendation. Its figures are from {formatDateTime(r.created_at)}.
        </p>
      ) : null}

      <div className="ins-detail__cards">
        <section className="ins-stat" aria-labelledby="ins-stat-strike">
          <h3 id="ins-stat-strike">Strike</h3>
          <p className="ins-stat__value" data-testid="detail-strike">
            ${formatPrice(r.strike_price)}
          </p>
          <p className="ins-stat__note">
            <MoneynessBadge strike={r.strike_price} stockPrice={r.current_stock_price} /> {distance.percentText}{" "}
            {distance.side === "at" ? "at the price" : `${distance.side} the price`}
          </p>
        </section>
        <section className="ins-stat" aria-labelledby="ins-stat-expiry">
          <h3 id="ins-stat-expiry">Expiry</h3>
          <p className="ins-stat__value" data-testid="detail-expiry">
            {expiryLong(r.expiration_date)}
          </p>
          <p className="ins-stat__note">
            {r.days_to_expiry} {r.days_to_expiry === 1 ? "day" : "days"} to go
          </p>
        </section>
        <section className="ins-stat" aria-labelledby="ins-stat-iv">
          <h3 id="ins-stat-iv">Implied volatility</h3>
          <p className="ins-stat__value" data-testid="detail-iv">
            {formatPercent(r.implied_volatility, 2)}
          </p>
          <p className="ins-stat__note">Historical {formatPercent(r.historical_volatility, 2)}</p>
        </section>
        <section className="ins-stat" aria-labelledby="ins-stat-price">
          <h3 id="ins-stat-price">{premiumLabel(r.bid_source)}</h3>
          <p className="ins-stat__value" data-testid="detail-price">
            ${formatPrice(r.current_option_price)}
          </p>
          <p className="ins-stat__note">
            {r.bid_source === "last" ? <span data-testid="detail-last-trade">{LAST_TRADE_NOTE} · </span> : null}
            Mid ${formatPrice(r.mid)} · Ask ${formatPrice(r.ask)} · spread {formatPercent(r.spread)} of the mid
          </p>
        </section>
        <section className="ins-stat" aria-labelledby="ins-stat-net">
          <h3 id="ins-stat-net">Return, net of commission</h3>
          <p className="ins-stat__value" data-testid="detail-net">
            {formatPercent(r.net_monthly_return)}/month
          </p>
          <p className="ins-stat__note">
            {formatPercent(r.net_annualized_return)}/year · {formatPercent(r.excess_return)} above T-bills (
            {formatPercent(r.tbill_return, 2)} for {r.days_to_expiry} days) · ${formatPrice(r.commission)} a contract
            {r.intrinsic_value > 0
              ? ` · on the $${formatPrice(r.time_value)} time value; $${formatPrice(r.intrinsic_value)} is intrinsic`
              : ""}
          </p>
        </section>
        <section className="ins-stat" aria-labelledby="ins-stat-risk">
          <h3 id="ins-stat-risk">Chance of assignment</h3>
          <p className="ins-stat__value" data-testid="detail-assignment">
            {r.probability_of_assignment === null ? "—" : formatPercent(r.probability_of_assignment)}
          </p>
          <p className="ins-stat__note">
            Risk-neutral N(−d2) · |delta| {formatGreek(Math.abs(r.delta))} (a trader's shortcut) · chance of profit{" "}
            {formatPercent(r.probability_of_profit)}
          </p>
        </section>
        <section className="ins-stat" aria-labelledby="ins-stat-ivrank">
          <h3 id="ins-stat-ivrank">IV rank</h3>
          <p className="ins-stat__value" data-testid="detail-iv-rank">
            {ivStanding(r)}
          </p>
          <p className="ins-stat__note">Against a year of daily at-the-money IV</p>
        </section>
        <PricedWith recommendation={r} />
      </div>

      <section className="ins-greeks" aria-labelledby="ins-greeks-title">
        <h3 id="ins-greeks-title">The greeks, in plain words</h3>
        <dl>
          {explainGreeks({
            ticker,
            delta: r.delta,
            theta: r.theta,
            vega: r.vega,
            assignment: r.probability_of_assignment,
          }).map((g) => (
            <div key={g.name} className="ins-greek" data-testid={`greek-${g.name.toLowerCase()}`}>
              <dt>
                {g.name} <span className="ins-greek__value">{g.value}</span>
              </dt>
              <dd>{g.text}</dd>
            </div>
          ))}
        </dl>
      </section>

      {planFit ? <PlanFitBlock capitalSet={planFit.book.capital !== null} mark={planFit.marks[r.id]} sizing /> : null}
      <p className="ins-detail__record">
        <Link
          className="button"
          to={recordTradeHref({
            ticker: underlyingOf(r.option_identifier),
            strike: r.strike_price,
            expiry: r.expiration_date,
            bid: r.bid,
            quantity: planFit?.marks[r.id]?.contracts_allowed || undefined,
          })}
        >
          {RECORD_TRADE_TEXT.link}
        </Link>
        <span className="ins-detail__record-hint">{RECORD_TRADE_TEXT.hint}</span>
      </p>

      <section className="ins-explain" aria-labelledby="ins-explain-title">
        <div className="ins-explain__head">
          <h3 id="ins-explain-title">AI explanation</h3>
          {/* Without JavaScript a GET to this page with ?explain=1; with it, streamed in place. */}
          <Form method="get" preventScrollReset replace>
            {[...new URLSearchParams(explainSearch)].map(([key, value]) => (
              <input key={key} type="hidden" name={key} value={value} />
            ))}
            <button
              type="submit"
              className="button button--primary ins-explain__button"
              disabled={thinking}
              aria-busy={thinking || undefined}
              onClick={(event) => {
                if (!hydrated) return;
                event.preventDefault();
                ai.start(AI_ROUTES.summarize, r);
              }}
            >
              <SparklesIcon aria-hidden="true" />
              {thinking ? messages.aiThinking : messages.aiExplain}
            </button>
          </Form>
        </div>
        {state.status !== "idle" || state.text ? (
          <AiText state={state} className="ins-explain__text" />
        ) : (
          <p className="ins-explain__hint">An explanation of this trade, written from the numbers above.</p>
        )}
      </section>
    </div>
  );
}

/** The dividend yield and rate the put was priced with, and their source (issue 46). */
function PricedWith({ recommendation: r }: { recommendation: TradeRecommendation }) {
  const inputs = pricingInputs(r);
  return (
    <section className="ins-stat ins-stat--wide" aria-labelledby="ins-stat-priced">
      <h3 id="ins-stat-priced">Priced with</h3>
      <p className="ins-stat__value" data-testid="detail-dividend-yield">
        Dividend yield {inputs.dividendYield}
      </p>
      <p className="ins-stat__note" data-testid="detail-pricing-source">
        T-bill rate {inputs.rate} · a year, continuous · from {inputs.source}
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Sell Put Options · PutSeller" }];
