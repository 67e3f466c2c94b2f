import type { Href } from "#app/lib/href.ts";
import { useEffect, useRef, useState } from "react";
import { formatPrice } from "#app/lib/format.ts";

/** One point of the chart: a trading day and its close (the resource route's answer). */
export interface ChartPoint {
  time: string;
  value: number;
}

const COLORS = {
  background: "#131c2e",
  text: "#93a1b8",
  grid: "#1b2740",
  border: "#26344f",
  up: { line: "#22c55e", top: "rgba(34, 197, 94, 0.35)", bottom: "rgba(34, 197, 94, 0.02)" },
  down: { line: "#f87171", top: "rgba(248, 113, 113, 0.35)", bottom: "rgba(248, 113, 113, 0.02)" },
};

const dayFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});
const day = (time: string) => dayFormat.format(new Date(`${time}T00:00:00Z`));

/** What the chart shows, in words, for screen readers and for anyone whose canvas fails. */
export function chartSummary(ticker: string, points: ChartPoint[]): string {
  if (points.length === 0) return `No price history for ${ticker}.`;
  const first = points[0]!;
  const last = points.at(-1)!;
  const values = points.map((p) => p.value);
  return (
    `${ticker} daily close from ${formatPrice(first.value)} on ${day(first.time)} ` +
    `to ${formatPrice(last.value)} on ${day(last.time)}; ` +
    `high ${formatPrice(Math.max(...values))}, low ${formatPrice(Math.min(...values))}.`
  );
}

/**
 * The daily price chart of an expanded row (docs/product.md#screens-uip-list: dark theme, area style, daily interval),
 * drawn with lightweight-charts. This module and the chart library load only when a row is first
 * expanded; the data comes from the app's own resource route (the provider's daily history).
 */
export default function PriceChart({ ticker, height = 200 }: { ticker: string; height?: number }) {
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<
    { status: "loading" } | { status: "ready"; summary: string } | { status: "failed"; message: string }
  >({ status: "loading" });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const abort = new AbortController();
    let dispose: (() => void) | undefined;
    setState({ status: "loading" });

    (async () => {
      const [response, charts] = await Promise.all([
        fetch(`/resources/stock-history/${encodeURIComponent(ticker)}` satisfies Href, {
          signal: abort.signal,
          headers: { accept: "application/json" },
        }),
        import("lightweight-charts"),
      ]);
      if (!response.ok) {
        const body = (await response.json().catch(() => null)) as { detail?: string } | null;
        throw new Error(body?.detail ?? `The price history could not be loaded (${response.status}).`);
      }
      const points = (await response.json()) as ChartPoint[];
      if (abort.signal.aborted) return;

      const rising = points.length < 2 || points.at(-1)!.value >= points[0]!.value;
      const tone = rising ? COLORS.up : COLORS.down;
      const chart = charts.createChart(element, {
        autoSize: true,
        layout: {
          background: { type: charts.ColorType.Solid, color: COLORS.background },
          textColor: COLORS.text,
          fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
        },
        grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
        rightPriceScale: { borderColor: COLORS.border },
        timeScale: { borderColor: COLORS.border, fixLeftEdge: true, fixRightEdge: true },
        crosshair: { mode: charts.CrosshairMode.Magnet },
        // Page scrolling stays with the page; the chart pans only on a horizontal drag.
        handleScroll: { vertTouchDrag: false },
        handleScale: { axisPressedMouseMove: false },
      });
      const series = chart.addSeries(charts.AreaSeries, {
        lineColor: tone.line,
        topColor: tone.top,
        bottomColor: tone.bottom,
        lineWidth: 2,
        priceLineVisible: false,
      });
      series.setData(points);
      chart.timeScale().fitContent();
      dispose = () => chart.remove();
      setState({ status: "ready", summary: chartSummary(ticker, points) });
    })().catch((error: unknown) => {
      if (abort.signal.aborted) return;
      setState({
        status: "failed",
        message: error instanceof Error ? error.message : "The price history could not be loaded.",
      });
    });

    return () => {
      abort.abort();
      dispose?.();
    };
  }, [ticker, attempt]);

  return (
    <figure className="price-chart" data-state={state.status} style={{ height }}>
      {/* The summary is the chart's text for screen readers; the canvas holds the library's own
          attribution link, so it cannot be one role="img". */}
      <figcaption className="visually-hidden">
        {state.status === "ready" ? state.summary : `${ticker} daily price chart`}
      </figcaption>
      <div ref={container} className="price-chart__canvas" />
      {state.status === "loading" ? (
        <span className="price-chart__overlay" role="status">
          <span className="spinner__ring" aria-hidden="true" />
          <span className="visually-hidden">Loading the {ticker} chart</span>
        </span>
      ) : null}
      {state.status === "failed" ? (
        <span className="price-chart__overlay price-chart__overlay--error" role="alert">
          {state.message}
          <button type="button" className="button" onClick={() => setAttempt((n) => n + 1)}>
            Retry
          </button>
        </span>
      ) : null}
    </figure>
  );
}
