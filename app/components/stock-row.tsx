import { lazy, Suspense, useId, type MouseEvent, type ReactNode } from "react";
import { useLongPress } from "#app/hooks/use-long-press.ts";
import { useSwipe } from "#app/hooks/use-swipe.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { StockLogo } from "./stock-logo.tsx";
import { nameLineHtml, levelsHtml, priceLineHtml } from "#app/lib/stock-row-html.ts";
import { AgeText } from "./age-text.tsx";

/** The chart and lightweight-charts load on the first expansion only (not in the list's first load). */
const PriceChart = lazy(() => import("./price-chart.tsx"));

const CHART_HEIGHT = 200;

export interface StockRowStock {
  ticker: string;
  name: string;
  current_price: number;
  updated_at: string | null;
  /** Where the price came from (simulated, yahoo, tradier), shown before its age; absent when unknown. */
  price_source?: string | null | undefined;
}

export interface SwipeAction {
  /** Shown on the background the swipe reveals, e.g. "Delete". */
  label: string;
  icon?: ReactNode;
  tone?: "danger" | "positive";
  onSwipe(): void;
}

export interface StockRowProps {
  stock: StockRowStock;
  averageIv: number;
  /** The four buy levels, first to fourth. */
  levels: readonly [number, number, number, number];
  /** The logo's address, or null for initials. */
  logoSrc: string | null;
  /** The server's clock at render, in ms: the age text starts from it, then follows the browser's (AgeText). */
  now: number;
  expanded: boolean;
  /** Where a tap leads without JavaScript: the same list with this row expanded. */
  expandHref: string;
  /** With JavaScript a tap toggles the row in place instead of following `expandHref`. */
  onToggleExpanded?: () => void;
  /** docs/product.md#screens-watchlist: a long press opens the edit page. */
  onLongPress?: () => void;
  /** Swipe left past 100 px (docs/product.md#states-lists), e.g. delete. */
  swipeLeft?: SwipeAction | undefined;
  /** Swipe right past 100 px, e.g. add to the watchlist on UIP rows. */
  swipeRight?: SwipeAction | undefined;
  /** A control beside the row, outside its tap target: the recommendation switch, the bell. */
  aside?: ReactNode;
  /** Extra line under the name, e.g. the UIP category. */
  badge?: ReactNode;
  /** Actions under the chart of an expanded row (edit, delete, …); links and forms work without JS. */
  panel?: ReactNode;
  /** Reorder mode: a drag handle before the row and move controls after it; taps and swipes are off. */
  reorder?: { handle: ReactNode; controls: ReactNode } | null;
}

/**
 * One stock of a list (watchlist or UIP): logo, ticker, price, name, average IV, buy levels and
 * the age of the price (docs/product.md#screens-watchlist, #constants-display). Tap expands the daily chart, long press edits, swipes
 * act; each gesture has a plain link or form in the expanded panel for keyboards and no-JS.
 * The row's parts have short class names styled within `.stock-row` (ADR 0059): a list repeats them.
 */
export function StockRow({
  stock,
  averageIv,
  levels,
  logoSrc,
  now,
  expanded,
  expandHref,
  onToggleExpanded,
  onLongPress,
  swipeLeft,
  swipeRight,
  aside,
  badge,
  panel,
  reorder,
}: StockRowProps) {
  const panelId = useId();
  const reordering = Boolean(reorder);
  const longPress = useLongPress(() => onLongPress?.(), { disabled: reordering || !onLongPress });
  const swipe = useSwipe({
    onSwipeLeft: swipeLeft?.onSwipe,
    onSwipeRight: swipeRight?.onSwipe,
    disabled: reordering || (!swipeLeft && !swipeRight),
  });

  /** The click that ends a long press or a swipe is not a tap. */
  function onClickCapture(event: MouseEvent) {
    const pressed = longPress.consumeClick();
    const swiped = swipe.consumeClick();
    if (pressed || swiped) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  function onMainClick(event: MouseEvent<HTMLAnchorElement>) {
    if (!onToggleExpanded || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    onToggleExpanded();
  }

  const price = stock.current_price;
  const body = (
    <>
      <StockLogo ticker={stock.ticker} src={logoSrc} />
      <span className="body">
        {/* The row's fixed text is markup React does not hydrate (ADR 0056): a 50-row list had
            about 20 elements a row for React to walk and match on a slow phone, none interactive. */}
        <span className="line" dangerouslySetInnerHTML={priceLineHtml(stock.ticker, price, averageIv)} />
        <span className="line muted" dangerouslySetInnerHTML={nameLineHtml(stock.name, averageIv)} />
        {badge ? <span className="badge-line">{badge}</span> : null}
        <span className="line small">
          <span className="levels" dangerouslySetInnerHTML={levelsHtml(levels, price)} />
          <span className="provenance">
            {stock.price_source && stock.updated_at ? (
              <>
                <span className="source" title="Source of the price">
                  {stock.price_source}
                </span>
                {" · "}
              </>
            ) : null}
            <span className="age" suppressHydrationWarning>
              {stock.updated_at ? <AgeText since={stock.updated_at} serverNow={now} /> : "No price yet"}
            </span>
          </span>
        </span>
      </span>
    </>
  );

  return (
    <li className="stock-row" data-ticker={stock.ticker} data-expanded={expanded || undefined}>
      <div className="track" data-swipe={swipe.state === "idle" ? undefined : swipe.state}>
        {/* What a swipe reveals exists only from the row's first swipe on: no markup before, and
            hydration adds no elements to every row (each one a style and layout of the list). */}
        {swipeLeft && swipe.engaged ? (
          <span className={`reveal reveal--left tone--${swipeLeft.tone ?? "danger"}`} aria-hidden="true">
            {swipeLeft.icon}
            {swipeLeft.label}
          </span>
        ) : null}
        {swipeRight && swipe.engaged ? (
          <span className={`reveal reveal--right tone--${swipeRight.tone ?? "positive"}`} aria-hidden="true">
            {swipeRight.icon}
            {swipeRight.label}
          </span>
        ) : null}
        <div
          className="surface"
          data-dragging={swipe.dragging || undefined}
          style={swipe.offset ? { transform: `translateX(${swipe.offset}px)` } : undefined}
          onClickCapture={onClickCapture}
          {...swipe.handlers}
        >
          {reorder?.handle}
          {reordering ? (
            <span className="main">{body}</span>
          ) : (
            <a
              className="main"
              href={expandHref}
              aria-expanded={expanded}
              aria-controls={expanded ? panelId : undefined}
              draggable={false}
              onClick={onMainClick}
              {...longPress.handlers}
            >
              {body}
            </a>
          )}
          {reordering ? reorder?.controls : aside}
        </div>
      </div>
      {expanded && !reordering ? (
        <div id={panelId} className="panel">
          <RowChart ticker={stock.ticker} />
          {panel ? <div className="actions">{panel}</div> : null}
        </div>
      ) : null}
    </li>
  );
}

/**
 * An expanded row's chart, once the page is hydrated. Only an expanded row asks whether it is: a
 * row that reads it renders again when hydration ends, and a 50-row list would render every row a
 * second time for nothing.
 */
function RowChart({ ticker }: { ticker: string }) {
  return useHydrated() ? (
    <Suspense fallback={<ChartPlaceholder />}>
      <PriceChart ticker={ticker} height={CHART_HEIGHT} />
    </Suspense>
  ) : (
    <ChartPlaceholder />
  );
}

/** The chart's reserved space while its code and data load; without JavaScript it says why it stays empty. */
function ChartPlaceholder() {
  return (
    <div className="price-chart" data-state="loading" style={{ height: CHART_HEIGHT }}>
      <span className="price-chart__overlay">
        <span className="spinner__ring price-chart__js" aria-hidden="true" />
        <span className="price-chart__no-js">The price chart needs JavaScript.</span>
      </span>
    </div>
  );
}
