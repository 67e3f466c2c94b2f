import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/portfolio";
import { formatDateTime, formatPrice } from "#app/lib/format.ts";
import { messages } from "#app/lib/messages.ts";
import {
  filtersSearch,
  filterTrades,
  formatSignedMoney,
  INSTRUMENTS,
  PERIODS,
  readFilters,
} from "#app/lib/trade-journal.ts";
import { sampleTrades, type SampleTrade } from "#app/lib/trade-samples.ts";
import { requireUser } from "#app/server/auth.server.ts";
import { PlusIcon } from "#app/components/icons.tsx";

/** SPEC.md §2 "Trades journal": sample rows (§1: work-in-progress), filtered by the URL's query. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context);
  const filters = readFilters(new URL(request.url).searchParams);
  const now = new Date();
  const trades = filterTrades(sampleTrades(now), filters, now);
  const closed = trades.filter((t) => t.pnl !== null);
  const netPnl = closed.reduce((sum, t) => sum + (t.pnl ?? 0), 0);
  return { filters, trades, closedCount: closed.length, netPnl: Math.round(netPnl * 100) / 100 };
}

export default function Portfolio() {
  const { filters, trades, closedCount, netPnl } = useLoaderData<typeof loader>();
  const periodLabel = PERIODS.find((p) => p.value === filters.period)?.label ?? "";

  return (
    <>
      <header className="page-header">
        <div className="journal-title">
          <h1>Trades</h1>
          <span className="wip-ribbon">{messages.workInProgress}</span>
        </div>
        <Link to="/add-trade" className="icon-button" aria-label="Add trade">
          <PlusIcon />
        </Link>
      </header>

      <p className="journal-note">{messages.sampleTradesNote}</p>

      <div className="journal-filters">
        <FilterGroup
          label="Instrument"
          options={INSTRUMENTS}
          current={filters.instrument}
          hrefFor={(instrument) => filtersSearch({ ...filters, instrument })}
          className="journal-filter--segmented"
        />
        <FilterGroup
          label="Period"
          options={PERIODS}
          current={filters.period}
          hrefFor={(period) => filtersSearch({ ...filters, period })}
          className="journal-filter--chips"
        />
      </div>

      <section aria-labelledby="journal-summary" className="journal-summary">
        <h2 id="journal-summary" className="visually-hidden">
          Summary
        </h2>
        <p>
          <span>
            {trades.length} {trades.length === 1 ? "trade" : "trades"} · {periodLabel}
          </span>
          {closedCount > 0 ? (
            <span className={`journal-pnl journal-pnl--${pnlTone(netPnl)}`}>Net {formatSignedMoney(netPnl)}</span>
          ) : null}
        </p>
      </section>

      {trades.length === 0 ? (
        <p className="journal-empty">No trades in this period.</p>
      ) : (
        <ul className="journal-list" aria-label="Trades">
          {trades.map((trade) => (
            <TradeRow key={trade.id} trade={trade} />
          ))}
        </ul>
      )}
    </>
  );
}

/** One filter as a row of links: each keeps the other filter, so the URL always holds both. */
function FilterGroup<T extends string>({
  label,
  options,
  current,
  hrefFor,
  className,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  current: T;
  hrefFor: (value: T) => string;
  className: string;
}) {
  const labelId = `journal-filter-${label.toLowerCase()}`;
  return (
    <div className={`journal-filter ${className}`} role="group" aria-labelledby={labelId}>
      <span id={labelId} className="journal-filter__label">
        {label}
      </span>
      <div className="journal-filter__options">
        {options.map((option) => (
          <Link
            key={option.value}
            to={hrefFor(option.value)}
            replace
            preventScrollReset
            className="journal-filter__option"
            aria-current={option.value === current ? "true" : undefined}
          >
            {option.label}
          </Link>
        ))}
      </div>
    </div>
  );
}

function TradeRow({ trade }: { trade: SampleTrade }) {
  const side = trade.type === "buy" ? "Buy" : "Sell";
  return (
    <li className="journal-row">
      <div className="journal-row__main">
        <span className="journal-row__symbol">{trade.symbol}</span>
        <span className="journal-row__tag">{trade.instrument === "stocks" ? "Stock" : "Option"}</span>
        <span className={`journal-pnl journal-pnl--${trade.pnl === null ? "open" : pnlTone(trade.pnl)}`}>
          {trade.pnl === null ? "Open" : formatSignedMoney(trade.pnl)}
        </span>
      </div>
      <div className="journal-row__detail">
        <span>
          {side} {trade.quantity} @ {formatPrice(trade.entryPrice)}
          {trade.exitPrice !== null ? ` → ${formatPrice(trade.exitPrice)}` : ""}
        </span>
        <span className="journal-row__status">{trade.status}</span>
      </div>
      <div className="journal-row__meta">
        {trade.instrument === "options" ? <span>{trade.detail} · </span> : null}
        <time dateTime={trade.openedAt}>{formatDateTime(trade.openedAt)}</time>
      </div>
    </li>
  );
}

const pnlTone = (value: number) => (value > 0 ? "gain" : value < 0 ? "loss" : "flat");

export const meta: Route.MetaFunction = () => [{ title: "Trades · PutSeller" }];
