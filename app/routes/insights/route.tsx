import type { Href } from "#app/lib/href.ts";
import { lazy, useEffect, useState } from "react";
import {
  Link,
  Outlet,
  useLoaderData,
  useNavigation,
  useRevalidator,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import type { Route } from "./+types/route";
import { WS_TRADE_UPDATES } from "#contract/ws-paths.ts";
import { logoUrl } from "#app/lib/logo.ts";
import { SEARCH_DEBOUNCE_MS } from "#app/lib/stock-list.ts";
import {
  expiryDates,
  filterByName,
  generatedTicker,
  INSIGHTS_PAGE,
  INSIGHTS_PARAM as PARAM,
  INSIGHTS_PATH,
  insightsSearch,
  openTicker,
  parseMaxStrike,
  passingStrike,
  selectedDate,
  showingText,
} from "#app/lib/insights.ts";
import { filtersDiffer } from "#app/lib/trader-filters.ts";
import { fitFilterOn, fittingOnly } from "./plan-fit-filter.ts";

import { requireUser } from "#app/server/auth.server.ts";
import { loadInsights, NO_STORE } from "./server.ts";
import { GenerateForm } from "./components/generate-form.tsx";
import { InsightCard } from "./components/insight-card.tsx";
import { OptionsPanel } from "./components/insight-options-panel.tsx";
import {
  InsightsSearchForm,
  MAX_STRIKE_FIELD_ID,
  SEARCH_FIELD_ID,
  type InsightsDraft,
} from "./components/insights-search-form.tsx";
import { TraderFiltersForm } from "./components/trader-filters-form.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import { RefreshIcon } from "#app/components/icons.tsx";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { announceTyped, fieldAtHydration } from "#app/hooks/use-field-at-hydration.ts";
import { useInsightsLive } from "./components/use-insights-live.ts";
import { LiveStatusBadge } from "#app/components/live-status.tsx";

/**
 * The plan's fit block and filter (ADR 0081) show only with a stock expanded: their code loads
 * then, not with the list. No Suspense boundary: a server-rendered one is in the page, and
 * hydration waits for its code (ADR 0052).
 */
const loadPlanFit = () => import("#app/components/plan-fit-block.tsx");
const PlanFitBlock = lazy(() => loadPlanFit().then((m) => ({ default: m.PlanFitBlock })));
const FitFilter = lazy(() => loadPlanFit().then((m) => ({ default: m.FitFilter })));

/**
 * The Recommendations list (docs/product.md#screens-insights), the layout of /insights and of the option detail
 * (/recommendation/{id}), which opens over it (app/server/insights.server.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context);
  return loadInsights(request, context);
}

export const headers: Route.HeadersFunction = () => NO_STORE;

const isListPath = (url: URL) =>
  url.pathname === INSIGHTS_PATH || url.pathname.startsWith("/recommendation/" satisfies Href);

/**
 * Data is reloaded when a stock is expanded (its options), by fetch all, after a generation, on
 * entering the screen, and for another search or 'Show more' (the provider pages and searches the
 * list, ADR 0102). The strike filter, the date chips, collapsing and opening or closing the option
 * detail only change the URL.
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
  for (const name of [PARAM.query, PARAM.shown]) {
    if ((currentUrl.searchParams.get(name) ?? "").trim() !== (nextUrl.searchParams.get(name) ?? "").trim()) return true;
  }
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

  const live = useInsightsLive(loaded, revalidator);

  // While a stock is being expanded, show it expanded at once with a spinner for its options.
  const pending =
    navigation.state === "loading" && navigation.location.pathname === INSIGHTS_PATH
      ? new URLSearchParams(navigation.location.search)
      : null;
  const open = openTicker((pending ?? searchParams).get(PARAM.open));
  const maxStrike = parseMaxStrike(searchParams.get(PARAM.maxStrike));
  const urlQuery = searchParams.get(PARAM.query) ?? "";

  // Search and filter: typed text shows at once, the list follows 300 ms later (docs/product.md#constants-timings).
  // Text typed before the scripts ran is where the search starts (ADR 0084); the list follows it
  // as it follows any typing, the applied values being the URL's.
  const [draft, setDraft] = useState<InsightsDraft>(() => ({
    query: fieldAtHydration(SEARCH_FIELD_ID) ?? urlQuery,
    max: fieldAtHydration(MAX_STRIKE_FIELD_ID) ?? searchParams.get(PARAM.maxStrike) ?? "",
  }));
  const [applied, setApplied] = useState<InsightsDraft>({
    query: urlQuery,
    max: searchParams.get(PARAM.maxStrike) ?? "",
  });
  // A letter typed while React hydrated (a transition) reaches the fields' onChange at the commit.
  useEffect(() => {
    announceTyped(SEARCH_FIELD_ID, draft.query);
    announceTyped(MAX_STRIKE_FIELD_ID, draft.max);
    // Once, at mount: later typing reaches the draft through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
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
  // The open stock's card first when the page does not hold it, then the page (ADR 0102); typed
  // text narrows what is on screen at once, the server's search follows.
  const cards = filterByName(live.pinned ? [live.pinned, ...live.topLine] : live.topLine, query);
  const total = live.total ?? live.topLine.length;
  const more = Math.min(INSIGHTS_PAGE, total - live.topLine.length);
  const listSearch = (change?: (params: URLSearchParams) => void) => insightsSearch(searchParams, change);
  const listUrl = (change?: (params: URLSearchParams) => void) => INSIGHTS_PATH + listSearch(change);
  const reloading = revalidator.state === "loading";

  // The expanded stock's options once loaded (null while they load), and its selected date; the
  // fit filter (ADR 0081) drops those known not to fit the trader's plan.
  const planFits = loaded.plan;
  const fitOn = planFits ? fitFilterOn(searchParams.get(PARAM.fit), planFits.book) : false;
  const allOptions = open && loaded.open === open ? (live.options[open] ?? null) : null;
  const options = allOptions && planFits && fitOn ? fittingOnly(allOptions, planFits.marks) : allOptions;
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
      {/* The tabs of app/routes/covered-calls/components/recommendation-tabs.tsx, written out: this list's first load is at its budget. */}
      <nav className="rec-tabs" aria-label="What to sell">
        <Link to={INSIGHTS_PATH} className="rec-tabs__tab" aria-current="page">
          Puts
        </Link>
        <Link to={"/insights/calls" satisfies Href} className="rec-tabs__tab">
          Covered calls
        </Link>
      </nav>

      <div className="ins-tools">
        <InsightsSearchForm
          draft={draft}
          onDraft={setDraft}
          open={open}
          date={date}
          shown={searchParams.get(PARAM.shown)}
          hydrated={hydrated}
        />
        <GenerateForm action={listUrl()} />
      </div>
      <TraderFiltersForm
        values={loaded.filters}
        error={loaded.filtersError}
        open={open}
        query={urlQuery}
        max={searchParams.get(PARAM.maxStrike)}
        shown={searchParams.get(PARAM.shown)}
      />

      {topLineError ? (
        <p className="list-error" role="alert">
          {topLineError}
        </p>
      ) : null}

      {!topLineError && live.topLine.length === 0 && !live.query ? (
        <div className="ins-empty">
          <p>No recommendations yet.</p>
          <p className="ins-empty__hint">
            Generate them above for a stock in your watchlist whose Recs switch is on, or switch it on in{" "}
            <Link to={"/user-stocks" satisfies Href}>your watchlist</Link>.
          </p>
        </div>
      ) : null}
      {!topLineError && (live.topLine.length > 0 || live.query) && query && cards.length === 0 ? (
        <p className="ins-empty" role="status">
          No stock matches “{query}”.
        </p>
      ) : null}

      {cards.length > 0 ? (
        <p className="ins-count" data-testid="showing">
          {showingText(cards.length, Math.max(total, cards.length))}
        </p>
      ) : null}

      <ul className="ins-list" aria-label="Recommended stocks" aria-busy={reloading || undefined}>
        {cards.map((item, index) => {
          const expanded = item.ticker === open;
          return (
            <InsightCard
              key={item.ticker}
              // Where 'Show more' lands without JavaScript: the first card it added.
              anchor={anchorAt(index - (live.pinned ? 1 : 0))}
              item={item}
              logoSrc={logoUrl(logoTemplate, item.ticker)}
              now={loaded.now}
              expanded={expanded}
              conservativeFilter={loaded.filters.at_or_below_conservative === "1"}
              toggleHref={listUrl((p) => {
                p.delete(PARAM.date);
                if (expanded) p.delete(PARAM.open);
                else p.set(PARAM.open, item.ticker);
              })}
            >
              {expanded && planFits ? (
                <FitFilter
                  capitalSet={planFits.book.capital !== null}
                  on={fitOn}
                  hidden={(allOptions?.length ?? 0) - (options?.length ?? 0)}
                  toggleHref={listUrl((p) => p.set(PARAM.fit, fitOn ? "all" : "only"))}
                />
              ) : null}
              {expanded ? (
                <OptionsPanel
                  ticker={item.ticker}
                  options={options}
                  error={loaded.open === item.ticker ? optionsError : null}
                  maxStrike={maxStrike}
                  dates={dates}
                  date={date}
                  listSearch={listSearch}
                  planFit={
                    planFits
                      ? (option) => (
                          <PlanFitBlock capitalSet={planFits.book.capital !== null} mark={planFits.marks[option.id]} />
                        )
                      : undefined
                  }
                  allFor={searchParams.get(PARAM.all)}
                />
              ) : null}
            </InsightCard>
          );
        })}
      </ul>
      {more > 0 && !topLineError ? (
        <Link
          to={
            listUrl((p) => p.set(PARAM.shown, String(loaded.shown + INSIGHTS_PAGE))) + `#ins-from-${loaded.shown + 1}`
          }
          replace
          preventScrollReset
          className="button ins-more"
        >
          Show {more} more
        </Link>
      ) : null}

      <Outlet />
    </>
  );
}

/** The id of the first card each 'Show more' added, which its link names (`#ins-from-26`). */
function anchorAt(index: number): string | undefined {
  return index > 0 && index % INSIGHTS_PAGE === 0 ? `ins-from-${index + 1}` : undefined;
}

function setOrDelete(params: URLSearchParams, name: string, value: string) {
  if (value) params.set(name, value);
  else params.delete(name);
}

export const meta: Route.MetaFunction = () => [{ title: "Recommendations · PutSeller" }];
