import type { Href } from "#app/lib/href.ts";
import { Link, useLoaderData } from "react-router";
import { PLAN_PATH } from "#app/lib/plan-paths.ts";
import type { Route } from "./+types/route";
import { filtersSearch, formatSignedMoney, INSTRUMENTS, PERIODS } from "#app/lib/trade-journal.ts";
import { journalAction, loadJournal } from "./server.ts";
import { PlusIcon } from "#app/components/icons.tsx";
import { JournalFigures, OpenPositions, pnlTone, TradeRow, WheelCycles } from "./components/journal.tsx";
import { orUnavailable } from "#app/server/unavailable.server.ts";

/** The wheel journal: the trader's trades filtered by the URL's query, open positions, cycles and figures. */
export function loader({ request, context }: Route.LoaderArgs) {
  return orUnavailable(loadJournal(request, context));
}

export function action({ request, context }: Route.ActionArgs) {
  return journalAction(request, context);
}

export default function Portfolio() {
  const { filters, journal, rows, closedCount, netPnl } = useLoaderData<typeof loader>();
  const periodLabel = PERIODS.find((p) => p.value === filters.period)?.label ?? "";

  return (
    <>
      <header className="page-header">
        <div className="journal-title">
          <h1>Trades</h1>
        </div>
        <Link to={"/add-trade" satisfies Href} className="icon-button" aria-label="Add trade">
          <PlusIcon />
        </Link>
      </header>

      <p className="journal-actions">
        <Link to={PLAN_PATH}>Capital plan</Link>
        <Link to={"/import-trades" satisfies Href}>Import from a broker</Link>
        <Link to={"/reconcile" satisfies Href}>Reconcile with the broker</Link>
        {/* A download: a document request, not a client-side navigation. */}
        <a href={"/resources/trades-export" satisfies Href} download>
          Export CSV
        </a>
      </p>

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

      <OpenPositions options={journal.open_options} lots={journal.share_lots} alerts={journal.position_alerts} />
      <WheelCycles cycles={journal.cycles} />
      <JournalFigures stats={journal.stats} periodLabel={periodLabel} />

      <section aria-labelledby="journal-summary" className="journal-summary">
        <h2 id="journal-summary">Trades</h2>
        <p>
          <span>
            {rows.length} {rows.length === 1 ? "trade" : "trades"} · {periodLabel}
          </span>
          {closedCount > 0 ? (
            <span className={`journal-pnl journal-pnl--${pnlTone(netPnl)}`}>
              Net {formatSignedMoney(netPnl)} (realised, net of fees)
            </span>
          ) : null}
        </p>
      </section>

      {rows.length === 0 ? (
        <p className="journal-empty">No trades in this period.</p>
      ) : (
        <ul className="journal-list" aria-label="Trades">
          {rows.map((trade) => (
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

export const meta: Route.MetaFunction = () => [{ title: "Trades · PutSeller" }];
