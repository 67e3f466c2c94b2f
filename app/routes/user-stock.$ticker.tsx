import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { data, Form, Link, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/user-stock.$ticker";
import * as calls from "#contract/calls.ts";
import { formatDateTime, formatIv, formatPrice, priceTone } from "#app/lib/format.ts";
import { logoUrl } from "#app/lib/logo.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { averageIv, EditUserStockSchema, INTRINSIC_FIELDS, SUPPORT_FIELDS, valueText } from "#app/lib/stock-schemas.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { hasPermission, requireUser, userCall } from "#app/server/auth.server.ts";
import { appEnv } from "#app/server/env.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { FormSection, TopBar, ValueField } from "#app/components/stock-form.tsx";
import { ConfirmDialog, OPENED_HERE } from "#app/components/confirm-dialog.tsx";
import { StockLogo } from "#app/components/stock-logo.tsx";
import { TrashIcon } from "#app/components/icons.tsx";

/** The user's row for this ticker, or the way back to the list with 'User Stock not found!'. */
async function findRow(context: Route.LoaderArgs["context"], tickerParam: string | undefined) {
  const user = requireUser(context);
  const ticker = sanitizeTicker(tickerParam ?? "");
  const rows = await userCall(context, calls.listUserStocks, { params: { userId: user.id } });
  const row = rows.find((r) => r.stock.ticker === ticker);
  if (!row) {
    throw await redirectWithToast("/user-stocks", {
      type: "error",
      text: messages.userStockNotFound,
      autoClose: TOAST_MS.list,
    });
  }
  return { user, row };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, row } = await findRow(context, params.ticker);
  return {
    row,
    canDelete: hasPermission(user, "USER_STOCK", "DELETE"),
    logoSrc: logoUrl(appEnv().LOGO_URL_TEMPLATE, row.stock.ticker),
  };
}

/** Deleting from this page leaves it; its own data must not be reloaded (the row is gone). */
export function shouldRevalidate({ currentUrl, formAction, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formAction && !formAction.startsWith(currentUrl.pathname)) return false;
  return defaultShouldRevalidate;
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { row } = await findRow(context, params.ticker);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: EditUserStockSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const values = submission.value;
  try {
    const saved = await userCall(context, calls.updateUserStock, {
      params: { id: row.id },
      body: {
        ...values,
        sort_order: row.sort_order,
        average_iv: averageIv(values.base_iv, values.conservative_iv),
      },
    });
    return redirectWithToast("/user-stocks", {
      type: "success",
      text: messages.updated(saved.stock.ticker),
      autoClose: TOAST_MS.page,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    // Values the provider refused stay in the form to be corrected.
    if (error instanceof ProviderError && error.status === 422) {
      return data(
        { result: submission.reply({ formErrors: [error.detail ?? messages.editErrorOccurred] }) },
        { status: 422 },
      );
    }
    // docs/product.md#errors-lists: back to the list with the server's message, 'An error occurred.' or 'An unknown error occurred.'.
    const text =
      error instanceof ProviderError
        ? error.status > 0
          ? (error.detail ?? messages.editErrorOccurred)
          : error.message
        : messages.editUnknownError;
    return redirectWithToast("/user-stocks", { type: "error", text, autoClose: TOAST_MS.list });
  }
}

export default function EditUserStock({ loaderData, actionData }: Route.ComponentProps) {
  const { row, canDelete, logoSrc } = loaderData;
  const { stock } = row;
  const navigation = useNavigation();
  const [searchParams] = useSearchParams();
  const here = `/user-stock/${stock.ticker}`;
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith(here);

  const [form, fields] = useForm({
    id: `edit-user-stock-${stock.ticker}`,
    constraint: getZodConstraint(EditUserStockSchema),
    defaultValue: {
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
    onValidate: ({ formData }) => parseWithZod(formData, { schema: EditUserStockSchema }),
  });

  // Average Value follows Base and Cons as they are typed (read-only, docs/product.md#screens-watchlist-edit, #validation-stock).
  const startText = (value: unknown, fallback: number) => (typeof value === "string" ? value : valueText(fallback));
  const [base, setBase] = useState(() => startText(fields.base_iv.initialValue, row.base_iv));
  const [cons, setCons] = useState(() => startText(fields.conservative_iv.initialValue, row.conservative_iv));
  const average = averageIv(Number(base) || 0, Number(cons) || 0);

  return (
    <div className="subpage">
      <TopBar title="Edit Stock" fallback="/user-stocks" />
      <main className="stock-form">
        <section className="stock-summary" aria-label="Stock">
          <StockLogo ticker={stock.ticker} src={logoSrc} />
          <div className="stock-summary__text">
            <p className="stock-summary__name">{stock.name}</p>
            <p className="stock-summary__ticker">{stock.ticker}</p>
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

        <Form method="post" {...getFormProps(form)}>
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
          action="/user-stocks"
          fields={{ intent: "delete", id: row.id, ticker: stock.ticker }}
          closeTo={here}
          doneTo="/user-stocks"
        >
          <p>
            {stock.name} ({stock.ticker}) will be removed from your watchlist. Your values for it are deleted too.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.row.stock.ticker ?? "Edit Stock"} · Edit Stock · PutSeller` },
];
