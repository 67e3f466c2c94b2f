import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import { useRef } from "react";
import { Form, Link, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/route";
import { addTradeAction, loadAddTrade } from "./server.ts";
import { Modal } from "#app/components/modal.tsx";
import { TradeForm } from "./components/trade-form.tsx";
import { BackIcon, ChartIcon, LayersIcon } from "#app/components/icons.tsx";

/**
 * The modal is part of the URL (`?form=stocks`, `?form=options`), so it opens (and survives a post)
 * without JavaScript. A recommendation's "Record this trade" link,
 * `/add-trade?ticker=KO&strike=50&expiry=2026-12-18&bid=1.25&type=put`, opens the options form pre-filled.
 */
export function loader({ request, context }: Route.LoaderArgs) {
  return loadAddTrade(request, context);
}

export function action({ request, context }: Route.ActionArgs) {
  return addTradeAction(request, context);
}

export default function AddTrade({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, defaultValue } = loaderData;
  const location = useLocation();
  const navigate = useNavigate();
  const stocksButton = useRef<HTMLButtonElement>(null);
  const optionsButton = useRef<HTMLButtonElement>(null);
  // Opened with a button here, closing goes back in history (so Back does not reopen it);
  // reached by a link or reload, it replaces the URL instead.
  const openedHere = (location.state as { openedFromChooser?: boolean } | null)?.openedFromChooser === true;

  return (
    <div className="subpage">
      <header className="page-header">
        <Link to={"/portfolio" satisfies Href} className="icon-button" aria-label="Back to trades">
          <BackIcon />
        </Link>
        <h1>Add Trade</h1>
        <span className="page-header__spacer" aria-hidden="true" />
      </header>

      <main className="add-trade">
        <p className="add-trade__prompt">What did you trade?</p>
        <Form method="get" state={{ openedFromChooser: true }} className="add-trade__choices">
          <button ref={stocksButton} type="submit" name="form" value="stocks" className="choice-card">
            <ChartIcon />
            <span>Stocks</span>
          </button>
          <button ref={optionsButton} type="submit" name="form" value="options" className="choice-card">
            <LayersIcon />
            <span>Options</span>
          </button>
        </Form>
      </main>

      {kind ? (
        <Modal
          title={kind === "options" ? "Add Options Trade" : "Add Trade"}
          closeTo={"/add-trade" satisfies Href}
          onClose={openedHere ? () => void navigate(-1) : undefined}
          returnFocusRef={kind === "options" ? optionsButton : stocksButton}
          className="modal--sheet"
        >
          <TradeForm
            key={kind}
            kind={kind}
            action={`/add-trade?form=${kind}` satisfies HrefWithSearch}
            defaultValue={defaultValue}
            lastResult={actionData?.result}
            navigationState={location.state}
          />
        </Modal>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Add Trade · PutSeller" }];
