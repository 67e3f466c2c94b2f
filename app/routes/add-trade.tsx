import { parseWithZod } from "@conform-to/zod/v4";
import { useRef } from "react";
import { data, Form, Link, useLocation, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/add-trade";
import { messages } from "#app/lib/messages.ts";
import { TradeDraftSchema } from "#app/lib/trade-schemas.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { requireUser } from "#app/server/auth.server.ts";
import { Modal } from "#app/components/modal.tsx";
import { TradeForm } from "#app/components/trade-form.tsx";
import { BackIcon, ChartIcon, LayersIcon } from "#app/components/icons.tsx";

/** The modal is part of the URL, so it opens (and survives a post) without JavaScript. */
const STOCKS_FORM_URL = "/add-trade?form=stocks";

export async function action({ request, context }: Route.ActionArgs) {
  requireUser(context);
  const formData = await request.formData();
  // SPEC.md §5: the symbol keeps letters and digits, upper-cased; done here too for browsers without JavaScript,
  // so the value shown back is the one that was checked.
  const symbol = formData.get("symbol");
  if (typeof symbol === "string") formData.set("symbol", sanitizeTicker(symbol));
  const submission = parseWithZod(formData, { schema: TradeDraftSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), notice: null }, { status: 400 });
  }
  // SPEC.md §2: submitting does nothing yet. The valid draft is stored nowhere; it is sent back so it stays
  // in the form, with a plain word that it was not saved.
  return { result: submission.reply(), notice: messages.tradeSavingUnavailable };
}

export default function AddTrade({ actionData }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const stocksButton = useRef<HTMLButtonElement>(null);
  const stocksOpen = searchParams.get("form") === "stocks";
  // Opened with the Stocks button, closing goes back in history (so Back does not reopen it);
  // reached by a link or reload, it replaces the URL instead.
  const openedHere = (location.state as { openedFromChooser?: boolean } | null)?.openedFromChooser === true;

  return (
    <div className="subpage">
      <header className="page-header">
        <Link to="/portfolio" className="icon-button" aria-label="Back to trades">
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
          {/* SPEC.md §2: the Options button does nothing yet; it says so instead of failing silently. */}
          <button type="button" className="choice-card" aria-disabled="true" aria-describedby="options-unavailable">
            <LayersIcon />
            <span>Options</span>
          </button>
        </Form>
        <p id="options-unavailable" className="add-trade__note">
          {messages.optionsTradesUnavailable}
        </p>
      </main>

      {stocksOpen ? (
        <Modal
          title="Add Trade"
          closeTo="/add-trade"
          onClose={openedHere ? () => void navigate(-1) : undefined}
          returnFocusRef={stocksButton}
          className="modal--sheet"
        >
          <TradeForm
            action={STOCKS_FORM_URL}
            lastResult={actionData?.result}
            notice={actionData?.notice}
            navigationState={location.state}
          />
        </Modal>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Add Trade · PutSeller" }];
