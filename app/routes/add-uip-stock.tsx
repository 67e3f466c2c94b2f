import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast as showToast } from "#app/lib/toast.ts";
import type { Route } from "./+types/add-uip-stock";
import * as calls from "#contract/calls.ts";
import type { Category } from "#contract/entities.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import type { ReplyToast } from "#app/lib/action-reply.ts";
import {
  AddUipStockSchema,
  companyNameOf,
  INTRINSIC_FIELDS,
  SUPPORT_FIELDS,
  TICKER_MAX,
} from "#app/lib/stock-schemas.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { hasPermission, requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { listFailureToast } from "#app/server/action-reply.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { FormSection, TopBar, ValueField } from "#app/components/stock-form.tsx";
import { CategorySelect } from "#app/components/category-select.tsx";
import { useCompanyName } from "#app/hooks/use-company-name.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";

const CATEGORIES_FAILED = "The categories could not be loaded. Reload the page to try again.";

/** docs/product.md#roles: 'Add Stock' is offered only with UIP_STOCK CREATE; anyone else is sent back to the list. */
async function requireCreate(context: Route.LoaderArgs["context"]) {
  const user = requireUser(context);
  if (!hasPermission(user, "UIP_STOCK", "CREATE")) {
    throw await redirectWithToast("/uip-stocks", {
      type: "error",
      text: messages.notAuthorizedUipCreate,
      autoClose: TOAST_MS.list,
    });
  }
  return user;
}

async function loadCategories(context: Route.LoaderArgs["context"]): Promise<Category[] | null> {
  try {
    return await userCall(context, calls.listCategories);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    // docs/product.md#errors-lists: a categories failure is logged; the form says so under the select.
    console.error("[add-uip-stock] categories failed:", error.message);
    return null;
  }
}

export async function loader({ context }: Route.LoaderArgs) {
  await requireCreate(context);
  return { categories: await loadCategories(context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireCreate(context);
  const formData = await request.formData();
  // docs/product.md#validation-stock: letters and digits only, upper case; done here too for browsers without JavaScript.
  const typed = formData.get("ticker");
  if (typeof typed === "string") formData.set("ticker", sanitizeTicker(typed));

  if (formData.get("intent") === "lookup") {
    // Without JavaScript the name is looked up by this button instead of while typing.
    const ticker = String(formData.get("ticker") ?? "");
    let name = "";
    let problem: string | null = ticker ? null : "Ticker Symbol is required";
    if (ticker) {
      try {
        name = companyNameOf(await userCall(context, calls.companyName, { query: { ticker } }));
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        problem = error.status === 404 ? `Unknown ticker: ${ticker}` : (error.detail ?? error.message);
      }
    }
    formData.set("name", name);
    const submission = parseWithZod(formData, { schema: AddUipStockSchema });
    return data({
      result: submission.reply({ fieldErrors: problem ? { ticker: [problem] } : {} }),
      toast: null,
    });
  }

  const submission = parseWithZod(formData, { schema: AddUipStockSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), toast: null }, { status: 400 });
  }
  const { ticker, name, ...values } = submission.value;
  try {
    const row = await userCall(context, calls.createUipStock, {
      body: { ...values, stock: { ticker, name, current_price: 0 } },
    });
    return redirectWithToast("/uip-stocks", {
      type: "success",
      text: messages.added(row.stock.ticker),
      autoClose: TOAST_MS.page,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    // docs/product.md#errors-lists: the server's detail as a warning toast; kept under the field it concerns too.
    const failure = listFailureToast(error);
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    const about =
      error instanceof ProviderError && (error.status === 409 || (error.status === 422 && /ticker/i.test(failure.text)))
        ? "ticker"
        : error instanceof ProviderError && error.status === 422 && /category/i.test(failure.text)
          ? "category_id"
          : null;
    const toast: ReplyToast = { id: crypto.randomUUID(), ...failure, autoClose: TOAST_MS.page };
    return data(
      {
        result: submission.reply(about ? { fieldErrors: { [about]: [failure.text] } } : { formErrors: [failure.text] }),
        toast,
      },
      { status },
    );
  }
}

export default function AddUipStock({ loaderData, actionData }: Route.ComponentProps) {
  const { categories } = loaderData;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/add-uip-stock");
  const [form, fields] = useForm({
    id: "add-uip-stock",
    constraint: getZodConstraint(AddUipStockSchema),
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: AddUipStockSchema }),
  });

  useEffect(() => {
    const toast = actionData?.toast;
    if (toast) showToast(toast.text, { type: toast.type, autoClose: toast.autoClose, toastId: toast.id });
  }, [actionData?.toast]);

  const initialTicker = typeof fields.ticker.initialValue === "string" ? fields.ticker.initialValue : "";
  const [ticker, setTicker] = useState(initialTicker);
  const lookup = useCompanyName(ticker, { enabled: hydrated });
  const submittedName = typeof fields.name.initialValue === "string" ? fields.name.initialValue : "";
  const name =
    lookup.status === "found"
      ? lookup.name
      : (lookup.status === "idle" || lookup.status === "loading") && ticker === initialTicker
        ? submittedName
        : "";
  const nameHint =
    lookup.status === "loading"
      ? "Looking up the name…"
      : lookup.status === "unknown"
        ? `No company found for ${lookup.ticker}.`
        : lookup.status === "failed"
          ? lookup.message
          : hydrated
            ? "Filled in from the ticker."
            : "Filled in from the ticker when you look it up or add the stock.";

  const { key: tickerKey, ...tickerProps } = getInputProps(fields.ticker, { type: "text" });
  const { key: nameKey, ...nameProps } = getInputProps(fields.name, { type: "text" });

  return (
    <div className="subpage">
      <TopBar title="Add Stock" fallback="/uip-stocks" />
      <main className="stock-form">
        <p className="uip-form-note">Adds the stock to the shared UIP list, at its end, for every user.</p>
        <Form method="post" {...getFormProps(form)}>
          {hydrated ? null : (
            // Enter in any field submits with the form's first button; without JavaScript that must be
            // Add Stock, not the Look up button beside the ticker.
            <button
              type="submit"
              name="intent"
              value="create"
              className="visually-hidden"
              tabIndex={-1}
              aria-hidden="true"
            >
              Add Stock
            </button>
          )}
          <Field
            labelProps={{ children: "Ticker Symbol" }}
            inputProps={{
              ...tickerProps,
              key: tickerKey,
              placeholder: "E.g., AAPL.",
              autoComplete: "off",
              autoCapitalize: "characters",
              spellCheck: false,
              maxLength: TICKER_MAX + 4,
              enterKeyHint: "next",
              onInput: (event) => {
                const input = event.currentTarget;
                const clean = sanitizeTicker(input.value);
                if (clean !== input.value) input.value = clean;
                setTicker(clean);
              },
            }}
            errors={fields.ticker.errors}
            trailing={
              hydrated ? null : (
                <button type="submit" name="intent" value="lookup" className="button" formNoValidate>
                  Look up
                </button>
              )
            }
          />
          <Field
            labelProps={{ children: "Stock Name" }}
            inputProps={{
              ...nameProps,
              key: nameKey,
              ...(hydrated ? { value: name, defaultValue: undefined } : {}),
              readOnly: true,
              tabIndex: -1,
              "aria-live": "polite",
              placeholder: "Filled in automatically",
            }}
            errors={fields.name.errors}
            hint={nameHint}
          />
          <CategorySelect
            field={fields.category_id}
            categories={categories ?? []}
            hint={categories ? null : CATEGORIES_FAILED}
          />
          <FormSection title="Intrinsic Values">
            {INTRINSIC_FIELDS.map(({ name: field, label }) => (
              <ValueField key={field} field={fields[field]} label={label} />
            ))}
          </FormSection>
          <FormSection title="Support Levels">
            {SUPPORT_FIELDS.map(({ name: field, label }) => (
              <ValueField key={field} field={fields[field]} label={label} />
            ))}
          </FormSection>
          <ErrorList id={form.errorId} errors={form.errors} />
          <div className="stock-form__actions">
            <button type="submit" name="intent" value="create" className="button button--primary" disabled={busy}>
              {busy ? "Adding…" : "Add Stock"}
            </button>
          </div>
        </Form>
      </main>
    </div>
  );
}

export const meta: Route.MetaFunction = () => [{ title: "Add Stock · UIP Stocks · PutSeller" }];
