import { getInputProps } from "@conform-to/react";
import { useEffect, useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import type { Category } from "#contract/entities.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import type { ADD_UIP_STOCK_FORM, ADD_USER_STOCK_FORM } from "#app/lib/form-schemas.ts";
import { INTRINSIC_FIELDS, SUPPORT_FIELDS, TICKER_MAX } from "#app/lib/stock-fields.ts";
import type { AddStockIntent } from "./intents.ts";
import { CategorySelect } from "#app/components/category-select.tsx";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { FormSection, TopBar, ValueField } from "#app/components/stock-form.tsx";
import { useCompanyName } from "#app/hooks/use-company-name.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { useStockForm, type StockFormReply } from "#app/hooks/use-stock-form.ts";
import { LevelWarnings } from "./level-warnings.tsx";

/**
 * The add page of a stock list (docs/product.md#screens-watchlist-add): the ticker, the company name looked up
 * from it, the list's own fields (the UIP list's category) and the values. Without JavaScript a Look up button
 * beside the ticker fetches the name; Enter still adds the stock.
 */
export function AddStockForm({
  path,
  listPath,
  schema,
  note,
  category,
  reply,
}: {
  /** The page's address ("/add-uip-stock"); its last segment is the form's id. */
  path: string;
  /** Where the close button leads without history. */
  listPath: string;
  /** The form's schema, the one its action parses with. */
  schema: typeof ADD_USER_STOCK_FORM | typeof ADD_UIP_STOCK_FORM;
  note?: ReactNode;
  /** The UIP list's category select: its choices, and the hint when they could not be loaded. */
  category?: { choices: readonly Category[]; hint: string | null };
  /** The action's answer, when it kept the page. */
  reply: StockFormReply | undefined;
}) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith(path);
  // The watchlist's schema is the UIP one without the category, whose select shows only with `category`.
  const fieldsOf = schema as typeof ADD_UIP_STOCK_FORM;
  const { form, fields, formProps } = useStockForm(fieldsOf, { id: path.slice(1), reply });

  const initialTicker = typeof fields.ticker.initialValue === "string" ? fields.ticker.initialValue : "";
  const { key: tickerKey, ...tickerProps } = getInputProps(fields.ticker, { type: "text" });
  const tickerId = tickerProps.id;
  // A ticker typed before the page's scripts ran (they start after the first paint, ADR 0044, seconds
  // later on a slow phone) is in the field, never seen by onInput: hydration takes it from there.
  const [ticker, setTicker] = useState(() => typedBeforeHydration(tickerId) ?? initialTicker);
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

  const { key: nameKey, ...nameProps } = getInputProps(fields.name, { type: "text" });

  // Typed before the scripts ran, the ticker is handled at hydration as the input it was: cleaned and
  // looked up by onInput, from what the field holds now. Not from the render's read of it: React
  // hydrates in a transition (ADR 0049), so a letter typed meanwhile comes after that read, and
  // writing the read value back erased what was typed (a CI run's trace: the field was empty).
  useEffect(() => {
    const input = document.getElementById(tickerId);
    if (input instanceof HTMLInputElement && input.value !== ticker) {
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    // Once, at hydration: later input cleans itself in onInput.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="subpage">
      <TopBar title="Add Stock" fallback={listPath} />
      <main className="stock-form">
        {note}
        <Form method="post" {...formProps}>
          {hydrated ? null : (
            // Enter in any field submits with the form's first button; without JavaScript that must be
            // Add Stock, not the Look up button beside the ticker.
            <button
              type="submit"
              name="intent"
              value={"create" satisfies AddStockIntent}
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
                <button
                  type="submit"
                  name="intent"
                  value={"lookup" satisfies AddStockIntent}
                  className="button"
                  formNoValidate
                >
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
          {category ? (
            <CategorySelect field={fields.category_id} categories={category.choices} hint={category.hint} />
          ) : null}
          <FormSection title="Intrinsic Values">
            {INTRINSIC_FIELDS.map(({ name: field, label }) => (
              <ValueField key={field} field={fields[field]} label={label} />
            ))}
          </FormSection>
          <FormSection title="Buy levels">
            {SUPPORT_FIELDS.map(({ name: field, label }) => (
              <ValueField key={field} field={fields[field]} label={label} />
            ))}
          </FormSection>
          <LevelWarnings warnings={reply?.warnings} />
          <ErrorList id={form.errorId} errors={form.errors} />
          <div className="stock-form__actions">
            <button
              type="submit"
              name="intent"
              value={"create" satisfies AddStockIntent}
              className="button button--primary"
              disabled={busy}
            >
              {busy ? "Adding…" : "Add Stock"}
            </button>
          </div>
        </Form>
      </main>
    </div>
  );
}

/** The cleaned value of the server-rendered ticker field, when this render is the page's hydration. */
function typedBeforeHydration(id: string): string | undefined {
  if (typeof document === "undefined") return undefined;
  const input = document.getElementById(id);
  return input instanceof HTMLInputElement ? sanitizeTicker(input.value) : undefined;
}
