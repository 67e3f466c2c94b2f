import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, Form, Link, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import { toast as showToast } from "#app/lib/toast.ts";
import type { Route } from "./+types/uip-stock.$ticker";
import * as calls from "#contract/calls.ts";
import type { Category } from "#contract/entities.ts";
import { formatDateTime, formatIv, formatPrice, priceTone } from "#app/lib/format.ts";
import { logoUrl } from "#app/lib/logo.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import type { ReplyToast } from "#app/lib/action-reply.ts";
import { averageIv, EditUipStockSchema, INTRINSIC_FIELDS, SUPPORT_FIELDS, valueText } from "#app/lib/stock-schemas.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { hasPermission, requireUser, userCall } from "#app/server/auth.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { FormSection, TopBar, ValueField } from "#app/components/stock-form.tsx";
import { CategorySelect } from "#app/components/category-select.tsx";
import { CategoryBadge } from "#app/components/category-badge.tsx";
import { ConfirmDialog, OPENED_HERE } from "#app/components/confirm-dialog.tsx";
import { StockLogo } from "#app/components/stock-logo.tsx";
import { TrashIcon } from "#app/components/icons.tsx";

/** The UIP row of this ticker, or the way back to the list (docs/product.md#screens-uip-edit: a ticker not in it redirects). */
async function findRow(context: Route.LoaderArgs["context"], tickerParam: string | undefined) {
  const user = requireUser(context);
  const ticker = sanitizeTicker(tickerParam ?? "");
  const rows = await userCall(context, calls.listUipStocks);
  const row = rows.find((r) => r.stock.ticker === ticker);
  if (!row) {
    throw await redirectWithToast("/uip-stocks", {
      type: "error",
      text: messages.uipStockNotFound(ticker),
      autoClose: TOAST_MS.list,
    });
  }
  return { user, row };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, row } = await findRow(context, params.ticker);
  let categories: Category[] = [row.category];
  try {
    categories = await userCall(context, calls.listCategories);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // docs/product.md#errors-lists: logged only; the row's own category stays choosable.
    console.error("[uip-stock] categories failed:", error.message);
  }
  return {
    row,
    categories,
    canUpdate: hasPermission(user, "UIP_STOCK", "UPDATE"),
    canDelete: hasPermission(user, "UIP_STOCK", "DELETE"),
    logoSrc: logoUrl(appEnv().LOGO_URL_TEMPLATE, row.stock.ticker),
  };
}

/** Deleting from this page leaves it; its own data must not be reloaded (the row is gone). */
export function shouldRevalidate({ currentUrl, formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction && !formAction.startsWith(currentUrl.pathname)) return false;
  return defaultShouldRevalidate;
}

/** docs/product.md#errors-lists: 404 'Not found', 403 'Not authorized to edit UIP stock', else 'An unexpected error occurred'. */
function editFailureText(error: ProviderError): string {
  if (error.status === 404) return messages.notFound;
  if (error.status === 403) return messages.notAuthorizedUipEdit;
  return messages.unexpected;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { row } = await findRow(context, params.ticker);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: EditUipStockSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), toast: null }, { status: 400 });
  const values = submission.value;
  try {
    const saved = await userCall(context, calls.updateUipStock, {
      params: { id: row.id },
      body: {
        ...values,
        sort_order: row.sort_order,
        average_iv: averageIv(values.base_iv, values.conservative_iv),
      },
    });
    return redirectWithToast("/uip-stocks", {
      type: "success",
      text: messages.updated(saved.stock.ticker),
      autoClose: TOAST_MS.page,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    if (!(error instanceof ProviderError)) throw error;
    // The page stays with every typed value; a value the provider refused is named under the form.
    const text = error.status === 422 ? (error.detail ?? messages.unexpected) : editFailureText(error);
    const toast: ReplyToast = { id: crypto.randomUUID(), type: "error", text, autoClose: TOAST_MS.page };
    return data({ result: submission.reply({ formErrors: [text] }), toast }, { status: error.status || 503 });
  }
}

export default function EditUipStock({ loaderData, actionData }: Route.ComponentProps) {
  const { row, categories, canUpdate, canDelete, logoSrc } = loaderData;
  const { stock } = row;
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const here = `/uip-stock/${stock.ticker}`;
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith(here);

  const [form, fields] = useForm({
    id: `edit-uip-stock-${stock.ticker}`,
    constraint: getZodConstraint(EditUipStockSchema),
    defaultValue: {
      category_id: String(row.category_id),
      base_iv: valueText(row.base_iv),
      conservative_iv: valueText(row.conservative_iv),
      buy_level_one: valueText(row.buy_level_one),
      buy_level_two: valueText(row.buy_level_two),
      buy_level_three: valueText(row.buy_level_three),
      buy_level_four: valueText(row.buy_level_four),
    },
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditUipStockSchema }),
  });

  useEffect(() => {
    const toast = actionData?.toast;
    if (toast) showToast(toast.text, { type: toast.type, autoClose: toast.autoClose, toastId: toast.id });
  }, [actionData?.toast]);

  // Average Value follows Base and Cons as they are typed (read-only, docs/product.md#screens-uip-edit, #validation-stock).
  const startText = (value: unknown, fallback: number) => (typeof value === "string" ? value : valueText(fallback));
  const [base, setBase] = useState(() => startText(fields.base_iv.initialValue, row.base_iv));
  const [cons, setCons] = useState(() => startText(fields.conservative_iv.initialValue, row.conservative_iv));
  const average = averageIv(Number(base) || 0, Number(cons) || 0);

  return (
    <div className="subpage">
      <TopBar title="Edit Stock" fallback="/uip-stocks" />
      <main className="stock-form">
        <section className="stock-summary" aria-label="Stock">
          <StockLogo ticker={stock.ticker} src={logoSrc} />
          <div className="stock-summary__text">
            <p className="stock-summary__name">{stock.name}</p>
            <p className="stock-summary__ticker">
              {stock.ticker} · <CategoryBadge category={row.category} />
            </p>
          </div>
          <dl className="stock-summary__facts">
            <div>
              <dt>Current price</dt>
              <dd className={`price price--${priceTone(stock.current_price, row.average_iv)}`}>
                {formatPrice(stock.current_price)}
              </dd>
            </div>
            <div>
              <dt>Last updated</dt>
              <dd>{stock.updated_at ? formatDateTime(stock.updated_at) : "Not yet"}</dd>
            </div>
          </dl>
        </section>

        {canUpdate ? null : (
          <p className="uip-form-note" role="note">
            {messages.uipViewOnly}
          </p>
        )}

        <Form method="post" {...getFormProps(form)}>
          <CategorySelect field={fields.category_id} categories={categories} />
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
          <FormSection title="Support Levels">
            {SUPPORT_FIELDS.map(({ name, editLabel }) => (
              <ValueField key={name} field={fields[name]} label={editLabel} />
            ))}
          </FormSection>
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

      {canDelete && searchParams.get("delete") === "1" ? (
        <ConfirmDialog
          title={`Delete ${stock.ticker}?`}
          confirmLabel="Delete"
          action="/uip-stocks"
          fields={{ intent: "delete", id: row.id, ticker: stock.ticker }}
          closeTo={here}
          doneTo="/uip-stocks"
        >
          <p>
            {stock.name} ({stock.ticker}) will be removed from the UIP list for everyone, with everyone&apos;s price
            alerts for it.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.row.stock.ticker ?? "Edit Stock"} · Edit Stock · PutSeller` },
];
