import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import {
  data,
  Form,
  Link,
  Outlet,
  redirect,
  useFetcher,
  useLoaderData,
  useNavigate,
  useNavigation,
  useRevalidator,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/insights";
import * as calls from "#contract/calls.ts";
import { WS_TRADE_UPDATES } from "#contract/ws-paths.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { FILTER_BOUNDS, FILTER_LABELS, type NumericFilter } from "#contract/filter-labels.ts";
import { messages } from "#app/lib/messages.ts";
import { logoUrl } from "#app/lib/logo.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { SEARCH_DEBOUNCE_MS } from "#app/lib/stock-list.ts";
import {
  expiryDates,
  filterByName,
  generatedTicker,
  INSIGHTS_PARAM as PARAM,
  INSIGHTS_PATH,
  insightsSearch,
  LIVE_COUNT_RELOAD_MS,
  parseMaxStrike,
  passingStrike,
  selectedDate,
  type GenerateReply,
} from "#app/lib/insights.ts";
import { expiryChip, expiryLong } from "#app/lib/option-card.ts";
import { formatPercent, formatPrice } from "#app/lib/format.ts";
import { filtersDiffer, filtersInUrl, formOf, providerQuery, type FilterForm } from "#app/lib/trader-filters.ts";
import { INSIGHTS_INTENT } from "#app/lib/insights-intents.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { InsightCard } from "#app/components/insight-card.tsx";
import { OptionCard } from "#app/components/option-card.tsx";
import { EnhancedField } from "#app/components/enhanced-field.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import { RefreshIcon, SearchIcon, SparklesIcon } from "#app/components/icons.tsx";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { useNow } from "#app/hooks/use-now.ts";
import { useReplyToast } from "#app/hooks/use-reply-toast.ts";
import { useLiveRecommendations } from "#app/hooks/use-live-recommendations.ts";
import { useTradeUpdates } from "#app/hooks/use-live-updates.ts";
import { LiveStatusBadge } from "#app/components/live-status.tsx";

/** Entering /insights always shows fresh recommendations: no cache may keep a copy (docs/product.md#screens-insights, docs/architecture.md#browser-state). */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

const openTicker = (value: string | null) => (value ? sanitizeTicker(value) || null : null);

/**
 * The Recommendations list (docs/product.md#screens-insights), the layout of /insights and of the option detail
 * (/recommendation/{id}), which opens over it. Loads the top line and the expanded stock's
 * options, each with its own docs/product.md#states-data failure text.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context);
  const url = new URL(request.url);
  // The search form without JavaScript sends empty fields too: keep the address clean and shareable.
  if (url.pathname === INSIGHTS_PATH && Object.values(PARAM).some((name) => url.searchParams.get(name) === "")) {
    throw redirect(INSIGHTS_PATH + insightsSearch(url.searchParams), { headers: NO_STORE });
  }
  const open = openTicker(url.searchParams.get(PARAM.open));
  // The trader's filters: the URL's (the filter form), else their saved ones, which the provider applies.
  const inUrl = filtersInUrl(url.searchParams);
  let query = inUrl ? providerQuery(inUrl) : undefined;
  let filtersError: string | null = null;
  // With the provider out of reach the screen still renders and says so (the lists below fail the same way).
  const saved = await userCall(context, calls.traderFilters).catch((error: unknown) => {
    if (!(error instanceof ProviderError)) throw error;
    return null;
  });
  if (query) {
    try {
      await userCall(context, calls.topLineRecommendations, { query });
    } catch (error) {
      if (!(error instanceof ProviderError) || error.status !== 422) throw error;
      // Filters the provider refuses: say why, and show the list with the saved ones.
      filtersError = error.detail ?? messages.unexpected;
      query = undefined;
    }
  }

  const [top, options] = await Promise.all([
    userCall(context, calls.topLineRecommendations, { query }).then(
      (items) => ({ items, error: null }),
      (error: unknown) => {
        if (!(error instanceof ProviderError)) throw error;
        return { items: [], error: messages.fetchTopLineFailed };
      },
    ),
    open
      ? userCall(context, calls.tradeRecommendations, { params: { symbol: open }, query }).then(
          (items) => ({ items, error: null }),
          (error: unknown) => {
            if (!(error instanceof ProviderError)) throw error;
            // A ticker the provider does not know has no recommendations; that is not a failure.
            if (error.status === 404) return { items: [] as TradeRecommendation[], error: null };
            return { items: null, error: messages.fetchRecommendationsFailed };
          },
        )
      : { items: null, error: null },
  ]);

  return data(
    {
      topLine: top.items,
      topLineError: top.error,
      open,
      options: options.items,
      optionsError: options.error,
      filters: { ...(saved ? formOf(saved) : {}), ...(filtersError ? {} : inUrl) } as FilterForm,
      filtersError,
      logoTemplate: appEnv().LOGO_URL_TEMPLATE || null,
      now: Date.now(),
    },
    { headers: NO_STORE },
  );
}

export const headers: Route.HeadersFunction = () => NO_STORE;

const isListPath = (url: URL) => url.pathname === INSIGHTS_PATH || url.pathname.startsWith("/recommendation/");

/**
 * Data is reloaded when a stock is expanded (its options), by fetch all, after a generation, and
 * on entering the screen. Search, the strike filter, the date chips, collapsing and opening or
 * closing the option detail only change the URL.
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  actionResult,
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  const nextOpen = openTicker(nextUrl.searchParams.get(PARAM.open));
  if (formMethod && formMethod !== "GET") {
    // A refused generation changed nothing; reloading could only lose what is on screen.
    if (actionStatus !== undefined && actionStatus >= 400) return false;
    // A generation that expands its stock next: that navigation loads it.
    const generated = generatedTicker(actionResult);
    if (generated && generated !== nextOpen) return false;
    return defaultShouldRevalidate;
  }
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  if (!isListPath(currentUrl) || !isListPath(nextUrl)) return defaultShouldRevalidate;
  if (filtersDiffer(currentUrl.searchParams, nextUrl.searchParams)) return true;
  const currentOpen = openTicker(currentUrl.searchParams.get(PARAM.open));
  return nextOpen !== null && nextOpen !== currentOpen;
}

export default function Insights() {
  const loaded = useLoaderData<typeof loader>();
  const { topLineError, optionsError, logoTemplate } = loaded;
  const [searchParams, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const now = useNow(loaded.now);

  // Live updates (docs/product.md#states-live, /ws/trade-updates): each valid update changes the cards in place.
  // A broadcast's buy-level flags follow the shared UIP levels, not this trader's own: the open
  // stock's new rows are then read again for the trader (the others are read when expanded).
  // A top-line update carries the default view's count: the trader's own counts (their levels,
  // their filters and those in the address) are read again once per burst (LIVE_COUNT_RELOAD_MS).
  const { live, apply: applyLiveUpdate } = useLiveRecommendations(loaded);
  const countsReload = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestRevalidator = useRef(revalidator);
  useEffect(() => {
    latestRevalidator.current = revalidator;
  });
  useEffect(
    () => () => {
      if (countsReload.current) clearTimeout(countsReload.current);
    },
    [],
  );
  useTradeUpdates((update) => {
    applyLiveUpdate(update);
    if (update.type === "trade_recommendations_update" && update.ticker === loaded.open) {
      void revalidator.revalidate();
    }
    if (update.type === "trade_recommendations_top_line_update" && countsReload.current === null) {
      countsReload.current = setTimeout(() => {
        countsReload.current = null;
        void latestRevalidator.current.revalidate();
      }, LIVE_COUNT_RELOAD_MS);
    }
  });

  // While a stock is being expanded, show it expanded at once with a spinner for its options.
  const pending =
    navigation.state === "loading" && navigation.location.pathname === INSIGHTS_PATH
      ? new URLSearchParams(navigation.location.search)
      : null;
  const open = openTicker((pending ?? searchParams).get(PARAM.open));
  const maxStrike = parseMaxStrike(searchParams.get(PARAM.maxStrike));
  const urlQuery = searchParams.get(PARAM.query) ?? "";

  // Search and filter: typed text shows at once, the list follows 300 ms later (docs/product.md#constants-timings).
  const [draft, setDraft] = useState({ query: urlQuery, max: searchParams.get(PARAM.maxStrike) ?? "" });
  const [applied, setApplied] = useState(draft);
  const openOptions = open ? live.options[open] : undefined;
  useEffect(() => {
    if (draft.query === applied.query && draft.max === applied.max) return;
    const timer = setTimeout(() => {
      setApplied(draft);
      setSearchParams(
        (current) =>
          new URLSearchParams(
            insightsSearch(current, (params) => {
              setOrDelete(params, PARAM.query, draft.query.trim());
              setOrDelete(params, PARAM.maxStrike, draft.max.trim());
              // docs/product.md#states-option-card: the chosen date resets when the filter leaves it without options.
              const chosen = params.get(PARAM.date);
              if (chosen && openOptions) {
                const dates = expiryDates(passingStrike(openOptions, parseMaxStrike(draft.max)));
                if (!dates.includes(chosen)) params.delete(PARAM.date);
              }
            }),
          ),
        { replace: true, preventScrollReset: true },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, applied, setSearchParams, openOptions]);

  const query = hydrated ? applied.query : urlQuery;
  const cards = filterByName(live.topLine, query);
  const listSearch = (change?: (params: URLSearchParams) => void) => insightsSearch(searchParams, change);
  const listUrl = (change?: (params: URLSearchParams) => void) => INSIGHTS_PATH + listSearch(change);
  const reloading = revalidator.state === "loading";

  // The expanded stock's options once loaded (null while they load), and its selected date.
  const options = open && loaded.open === open ? (live.options[open] ?? null) : null;
  const dates = options ? expiryDates(passingStrike(options, maxStrike)) : [];
  const date = selectedDate(dates, searchParams.get(PARAM.date));

  return (
    <>
      <header className="page-header">
        <div className="page-header__title">
          <h1>Recommendations</h1>
          <LiveStatusBadge path={WS_TRADE_UPDATES} />
        </div>
        <div className="page-header__actions">
          <Link
            to={listUrl()}
            replace
            preventScrollReset
            className="icon-button ins-fetch-all"
            aria-label="Fetch all recommendations"
            title="Fetch all recommendations"
            aria-disabled={reloading || undefined}
            onClick={(event) => {
              if (!hydrated) return;
              event.preventDefault();
              if (!reloading) void revalidator.revalidate();
            }}
          >
            {reloading ? <Spinner label="Fetching all recommendations" /> : <RefreshIcon />}
          </Link>
        </div>
      </header>

      <div className="ins-tools">
        <Form
          method="get"
          action={INSIGHTS_PATH}
          role="search"
          className="ins-filters"
          onSubmit={(event: FormEvent) => {
            // With JavaScript the list already follows the typing; Enter just puts the keyboard away.
            if (!hydrated) return;
            event.preventDefault();
            (document.activeElement as HTMLElement | null)?.blur();
          }}
        >
          <div className="ins-field ins-field--search">
            <label htmlFor="ins-search">Search by name</label>
            <span className="ins-input">
              <SearchIcon aria-hidden="true" />
              <input
                id="ins-search"
                name={PARAM.query}
                type="search"
                placeholder="Company or ticker"
                autoComplete="off"
                spellCheck={false}
                value={draft.query}
                onChange={(event) => setDraft((d) => ({ ...d, query: event.target.value }))}
                onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
                  if (event.key === "Escape") {
                    event.preventDefault();
                    setDraft((d) => ({ ...d, query: "" }));
                  }
                }}
              />
            </span>
          </div>
          <div className="ins-field ins-field--strike">
            <label htmlFor="ins-max-strike">Max strike</label>
            <span className="ins-input">
              <span aria-hidden="true">$</span>
              <input
                id="ins-max-strike"
                name={PARAM.maxStrike}
                type="number"
                inputMode="decimal"
                min={0}
                step={0.01}
                placeholder="Any"
                value={draft.max}
                onChange={(event) => setDraft((d) => ({ ...d, max: event.target.value }))}
              />
            </span>
          </div>
          {open ? <input type="hidden" name={PARAM.open} value={open} /> : null}
          {open && date ? <input type="hidden" name={PARAM.date} value={date} /> : null}
          <noscript>
            <button type="submit" className="button ins-filters__apply">
              Apply
            </button>
          </noscript>
        </Form>
        <GenerateForm action={listUrl()} />
      </div>
      <FiltersForm
        values={loaded.filters}
        error={loaded.filtersError}
        open={open}
        query={urlQuery}
        max={searchParams.get(PARAM.maxStrike)}
      />

      {topLineError ? (
        <p className="list-error" role="alert">
          {topLineError}
        </p>
      ) : null}

      {!topLineError && live.topLine.length === 0 ? (
        <div className="ins-empty">
          <p>No recommendations yet.</p>
          <p className="ins-empty__hint">
            Generate them above for a stock in your watchlist whose Recs switch is on, or switch it on in{" "}
            <Link to="/user-stocks">your watchlist</Link>.
          </p>
        </div>
      ) : null}
      {live.topLine.length > 0 && cards.length === 0 ? (
        <p className="ins-empty" role="status">
          No stock matches “{query}”.
        </p>
      ) : null}

      <ul className="ins-list" aria-label="Recommended stocks" aria-busy={reloading || undefined}>
        {cards.map((item) => {
          const expanded = item.ticker === open;
          return (
            <InsightCard
              key={item.ticker}
              item={item}
              logoSrc={logoUrl(logoTemplate, item.ticker)}
              now={now}
              expanded={expanded}
              toggleHref={listUrl((p) => {
                p.delete(PARAM.date);
                if (expanded) p.delete(PARAM.open);
                else p.set(PARAM.open, item.ticker);
              })}
            >
              {expanded ? (
                <OptionsPanel
                  ticker={item.ticker}
                  options={options}
                  error={loaded.open === item.ticker ? optionsError : null}
                  maxStrike={maxStrike}
                  dates={dates}
                  date={date}
                  listSearch={listSearch}
                />
              ) : null}
            </InsightCard>
          );
        })}
      </ul>

      <Outlet />
    </>
  );
}

function setOrDelete(params: URLSearchParams, name: string, value: string) {
  if (value) params.set(name, value);
  else params.delete(name);
}

/**
 * The expanded stock: date chips (MM/DD) for the expirations with options passing the strike
 * filter, and the option cards of the selected date (the first such date unless one was chosen).
 */
function OptionsPanel({
  ticker,
  options,
  error,
  maxStrike,
  dates,
  date,
  listSearch,
}: {
  ticker: string;
  /** null while they load. */
  options: TradeRecommendation[] | null;
  error: string | null;
  maxStrike: number | null;
  /** The expirations with options passing the strike filter, soonest first. */
  dates: string[];
  /** The selected one (docs/product.md#states-option-card), null when no option passes. */
  date: string | null;
  listSearch: (change?: (params: URLSearchParams) => void) => string;
}) {
  if (error) {
    return (
      <p className="list-error ins-panel__message" role="alert">
        {error}
      </p>
    );
  }
  if (!options) {
    return (
      <div className="ins-panel__loading">
        <Spinner label={`Loading recommendations for ${ticker}`} />
      </div>
    );
  }
  if (options.length === 0) {
    return <p className="ins-panel__message">No put of {ticker} passes your filters right now.</p>;
  }
  const nearest = options[0]!.nearest_above_conservative ? options[0]! : null;
  if (nearest) {
    // The conservative-value filter left nothing: say so, and show what the nearest strike would pay.
    return (
      <>
        <p className="ins-panel__message" role="status" data-testid="nearest-message">
          No put of {ticker} at or below your conservative value passes your filters. The nearest strike above it is $
          {formatPrice(nearest.strike_price)} ({expiryLong(nearest.expiration_date)}): bid ${formatPrice(nearest.bid)},{" "}
          {formatPercent(nearest.net_monthly_return)} a month net.
        </p>
        <div className="ins-options">
          <OptionCard
            option={nearest}
            href={`/recommendation/${nearest.id}${listSearch((p) => p.set(PARAM.open, ticker))}`}
          />
        </div>
      </>
    );
  }
  if (!date) {
    return (
      <p className="ins-panel__message" role="status">
        No recommended put of {ticker} has a strike at or below ${formatPrice(maxStrike ?? 0)}.
      </p>
    );
  }
  const shown = passingStrike(options, maxStrike).filter((o) => o.expiration_date === date);
  const withDate = (chosen: string) =>
    listSearch((p) => {
      p.set(PARAM.open, ticker);
      p.set(PARAM.date, chosen);
    });

  return (
    <>
      <nav className="ins-dates" aria-label={`${ticker} expiration dates`}>
        <ul>
          {dates.map((d) => (
            <li key={d}>
              <Link
                to={INSIGHTS_PATH + withDate(d)}
                replace
                preventScrollReset
                className="ins-chip"
                aria-current={d === date ? "true" : undefined}
                aria-label={expiryLong(d)}
              >
                {expiryChip(d)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="ins-options" data-date={date}>
        {shown.map((option) => (
          <OptionCard key={option.id} option={option} href={`/recommendation/${option.id}${withDate(date)}`} />
        ))}
      </div>
    </>
  );
}

/** The numeric filters in the form's order, with their step; labels and bounds come from the contract. */
const FILTER_INPUTS: { field: NumericFilter; step: string }[] = [
  { field: "delta_min", step: "0.01" },
  { field: "delta_max", step: "0.01" },
  { field: "dte_min", step: "1" },
  { field: "dte_max", step: "1" },
  { field: "min_bid", step: "0.01" },
  { field: "min_open_interest", step: "1" },
  { field: "max_spread", step: "0.1" },
  { field: "commission", step: "0.01" },
];

/**
 * The trader's filters (ADR 0022): a GET form, so the values sit in the URL and it works without
 * JavaScript; "Save as my defaults" posts the same fields. Booleans send a hidden 0 before the
 * checkbox's 1 (the last one counts), so unticking is kept too.
 */
function FiltersForm({
  values,
  error,
  open,
  query,
  max,
}: {
  values: FilterForm;
  error: string | null;
  open: string | null;
  query: string;
  max: string | null;
}) {
  return (
    <details className="ins-trader-filters" open={error ? true : undefined}>
      <summary>Your filters</summary>
      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}
      <Form method="get" action={INSIGHTS_PATH} className="ins-trader-filters__form" key={JSON.stringify(values)}>
        {query ? <input type="hidden" name={PARAM.query} value={query} /> : null}
        {max ? <input type="hidden" name={PARAM.maxStrike} value={max} /> : null}
        {open ? <input type="hidden" name={PARAM.open} value={open} /> : null}
        <label className="ins-check">
          <input type="hidden" name="at_or_below_conservative" value="0" />
          <input
            type="checkbox"
            name="at_or_below_conservative"
            value="1"
            defaultChecked={values.at_or_below_conservative === "1"}
          />
          Only strikes at or below my conservative value
        </label>
        <label className="ins-check">
          <input type="hidden" name="skip_earnings" value="0" />
          <input type="checkbox" name="skip_earnings" value="1" defaultChecked={values.skip_earnings === "1"} />
          Skip expiries that span the next earnings report
        </label>
        <div className="ins-trader-filters__grid">
          {FILTER_INPUTS.map(({ field, step }) => {
            const { min, max: top, percent } = FILTER_BOUNDS[field];
            // The spread is a fraction in the call and a percentage on the form.
            const shown = (n: number) => (percent ? Math.round(n * 10_000) / 100 : n);
            return (
              <div className="ins-field" key={field}>
                <label htmlFor={`filter-${field}`}>{FILTER_LABELS[field]}</label>
                <span className="ins-input">
                  <input
                    id={`filter-${field}`}
                    name={field}
                    type="number"
                    inputMode="decimal"
                    step={step}
                    min={shown(min)}
                    max={shown(top)}
                    defaultValue={values[field]}
                  />
                </span>
              </div>
            );
          })}
        </div>
        <div className="ins-trader-filters__actions">
          <button type="submit" className="button">
            Apply filters
          </button>
          <button type="submit" className="button" formMethod="post" name="intent" value={INSIGHTS_INTENT.saveFilters}>
            Save as my defaults
          </button>
        </div>
      </Form>
    </details>
  );
}

/**
 * Generate recommendations for one ticker (docs/product.md#screens-insights, #errors-ai). A plain form without JavaScript (the
 * answer comes back as a toast on the reloaded list); with it, posted in place. Either way a
 * successful generation expands its stock.
 */
function GenerateForm({ action }: { action: string }) {
  const fetcher = useFetcher<GenerateReply>();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const formRef = useRef<HTMLFormElement>(null);
  useReplyToast(fetcher.data);

  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    const ticker = generatedTicker(fetcher.data);
    if (!ticker) return;
    formRef.current?.reset();
    if (openTicker(searchParams.get(PARAM.open)) !== ticker) {
      void navigate(
        INSIGHTS_PATH +
          insightsSearch(searchParams, (p) => {
            p.set(PARAM.open, ticker);
            p.delete(PARAM.date);
          }),
        { replace: true, preventScrollReset: true },
      );
    }
  });
  const busy = fetcher.state !== "idle";

  return (
    <fetcher.Form method="post" action={action} className="ins-generate" ref={formRef}>
      <div className="ins-field">
        <label htmlFor="ins-generate-ticker">Generate for a ticker</label>
        <span className="ins-input">
          <input
            id="ins-generate-ticker"
            name="ticker"
            placeholder="E.g., AAPL"
            required
            maxLength={10}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            onInput={(event) => {
              // docs/product.md#validation-stock: only letters and digits, upper case.
              const input = event.currentTarget;
              const clean = sanitizeTicker(input.value);
              if (clean !== input.value) input.value = clean;
            }}
          />
        </span>
      </div>
      <EnhancedField />
      <input type="hidden" name="intent" value={INSIGHTS_INTENT.generate} />
      <button type="submit" className="button button--primary ins-generate__submit" disabled={busy}>
        {busy ? <Spinner label="Generating" /> : <SparklesIcon aria-hidden="true" />}
        Generate
      </button>
    </fetcher.Form>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Recommendations · PutSeller" }];
