import { useState, type ReactNode } from "react";
import { Form, Link, useNavigation, useSearchParams } from "react-router";
import type { Category, Stock } from "#contract/entities.ts";
import { formatDateTime, formatIv, formatPrice, priceTone } from "#app/lib/format.ts";
import type { EDIT_UIP_STOCK_FORM, EDIT_USER_STOCK_FORM } from "#app/lib/form-schemas.ts";
import { averageIv, INTRINSIC_FIELDS, SUPPORT_FIELDS, valueText } from "#app/lib/stock-fields.ts";
import type { StockValues } from "#app/lib/stock-schemas.ts";
import type { UipIntent, WatchlistIntent } from "./intents.ts";
import { CategorySelect } from "#app/components/category-select.tsx";
import { ConfirmDialog, OPENED_HERE } from "#app/components/confirm-dialog.tsx";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { TrashIcon } from "#app/components/icons.tsx";
import { FormSection, TopBar, ValueField } from "#app/components/stock-form.tsx";
import { StockLogo } from "#app/components/stock-logo.tsx";
import { BelowIvNote } from "#app/components/below-iv-note.tsx";
import { useStockForm, type StockFormReply } from "#app/hooks/use-stock-form.ts";
import { LevelWarnings } from "./level-warnings.tsx";

/** A list row as the edit page shows it. */
type EditedRow = StockValues & {
  id: number;
  average_iv: number;
  stock: Pick<Stock, "ticker" | "name" | "current_price" | "updated_at">;
};

/**
 * The edit page of a list's row (docs/product.md#screens-watchlist-edit, #screens-uip-edit): the stock's
 * summary, the list's own fields (the UIP list's category), the values with their live Average Value,
 * Save, and Delete when allowed, whose confirmation (`deleteDialog`) opens by `?delete=1`.
 */
export function EditStockForm({
  here,
  formId,
  listPath,
  schema,
  row,
  logoSrc,
  badge,
  note,
  category,
  canDelete,
  deleteDialog,
  reply,
}: {
  /** The page's address ("/uip-stock/AAPL"). */
  here: string;
  formId: string;
  /** Where the close button leads without history. */
  listPath: string;
  /** The form's schema, the one its action parses with. */
  schema: typeof EDIT_USER_STOCK_FORM | typeof EDIT_UIP_STOCK_FORM;
  row: EditedRow;
  logoSrc: string | null;
  /** Shown after the ticker in the summary (the UIP list's category). */
  badge?: ReactNode;
  /** Above the form (the UIP list's view-only note). */
  note?: ReactNode;
  /** The UIP list's category select: its choices and the row's category. */
  category?: { choices: readonly Category[]; current: number };
  canDelete: boolean;
  deleteDialog: ReactNode;
  /** The action's answer, when it kept the page. */
  reply: StockFormReply | undefined;
}) {
  const { stock } = row;
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith(here);
  // The watchlist's schema is the UIP one without the category, whose select shows only with `category`.
  const fieldsOf = schema as typeof EDIT_UIP_STOCK_FORM;

  const { form, fields, formProps } = useStockForm(fieldsOf, {
    id: formId,
    defaultValue: {
      ...(category ? { category_id: String(category.current) } : {}),
      base_iv: valueText(row.base_iv),
      conservative_iv: valueText(row.conservative_iv),
      buy_level_one: valueText(row.buy_level_one),
      buy_level_two: valueText(row.buy_level_two),
      buy_level_three: valueText(row.buy_level_three),
      buy_level_four: valueText(row.buy_level_four),
    },
    reply,
  });

  // Average Value follows Base and Cons as they are typed (read-only, docs/product.md#screens-watchlist-edit, #validation-stock).
  const startText = (value: unknown, fallback: number) => (typeof value === "string" ? value : valueText(fallback));
  const [base, setBase] = useState(() => startText(fields.base_iv.initialValue, row.base_iv));
  const [cons, setCons] = useState(() => startText(fields.conservative_iv.initialValue, row.conservative_iv));
  const average = averageIv(Number(base) || 0, Number(cons) || 0);

  return (
    <div className="subpage">
      <TopBar title="Edit Stock" fallback={listPath} />
      <main className="stock-form">
        <section className="stock-summary" aria-label="Stock">
          <StockLogo ticker={stock.ticker} src={logoSrc} />
          <div className="stock-summary__text">
            <p className="stock-summary__name">{stock.name}</p>
            <p className="stock-summary__ticker">
              {stock.ticker}
              {badge ? <> · {badge}</> : null}
            </p>
          </div>
          <dl className="stock-summary__facts">
            <div>
              <dt>Current price</dt>
              <dd className={`price price--${priceTone(stock.current_price, row.average_iv)}`}>
                {formatPrice(stock.current_price)}
                <BelowIvNote price={stock.current_price} averageIv={row.average_iv} />
              </dd>
            </div>
            <div>
              <dt>Last updated</dt>
              <dd>{stock.updated_at ? formatDateTime(stock.updated_at) : "Not yet"}</dd>
            </div>
          </dl>
        </section>

        {note}

        <Form method="post" {...formProps}>
          {category ? <CategorySelect field={fields.category_id} categories={category.choices} /> : null}
          <FormSection title="Intrinsic Values">
            {INTRINSIC_FIELDS.map(({ name, label }) => (
              <ValueField
                key={name}
                field={fields[name]}
                label={label}
                onValue={name === "base_iv" ? setBase : setCons}
              />
            ))}
            <Field
              labelProps={{ children: "Average Value" }}
              inputProps={{
                id: "average-value",
                value: formatIv(average),
                readOnly: true,
                tabIndex: -1,
                "aria-live": "polite",
              }}
              hint="The mean of Base and Cons Value."
            />
          </FormSection>
          <FormSection title="Buy levels">
            {SUPPORT_FIELDS.map(({ name, editLabel }) => (
              <ValueField key={name} field={fields[name]} label={editLabel} />
            ))}
          </FormSection>
          <LevelWarnings warnings={reply?.warnings} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div className="stock-form__actions">
            {canDelete ? (
              <Link to={`${here}?delete=1`} state={OPENED_HERE} className="button button--danger-outline">
                <TrashIcon /> Delete
              </Link>
            ) : null}
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? "Saving…" : "Save Changes"}
            </button>
          </div>
        </Form>
      </main>

      {canDelete && searchParams.get("delete") === "1" ? deleteDialog : null}
    </div>
  );
}

/** The edit page's title: the ticker first. */
export function editPageMeta({ loaderData }: { loaderData: { row: { stock: { ticker: string } } } | undefined }) {
  return [{ title: `${loaderData?.row.stock.ticker ?? "Edit Stock"} · Edit Stock · PutSeller` }];
}

/**
 * The delete confirmation of an edit page: it posts the list's `delete` intent to `action` (the list's
 * route, whose action deletes) and then leaves for the list.
 */
export function DeleteFromEditPage({
  action,
  here,
  row,
  children,
}: {
  action: string;
  here: string;
  row: Pick<EditedRow, "id" | "stock">;
  /** What deleting the row removes. */
  children: ReactNode;
}) {
  return (
    <ConfirmDialog
      title={`Delete ${row.stock.ticker}?`}
      confirmLabel="Delete"
      action={action}
      fields={{ intent: "delete" satisfies WatchlistIntent & UipIntent, id: row.id, ticker: row.stock.ticker }}
      closeTo={here}
      doneTo={action}
    >
      {children}
    </ConfirmDialog>
  );
}
