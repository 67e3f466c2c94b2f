import {
  getCollectionProps,
  getInputProps,
  getTextareaProps,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import {
  useEffect,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { Form, useNavigation } from "react-router";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { sanitizeDecimalInput, sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import {
  CONFIDENCE_LABELS,
  errorsByTab,
  firstTabWithErrors,
  OPTION_ACTIONS,
  OPTION_TYPES,
  TRADE_TABS,
  TRADE_TYPES,
  type TradeFormKind,
  type TradeTabId,
} from "#app/lib/trade-fields.ts";
import { OPTION_TRADE_FORM, STOCK_TRADE_FORM, type LazyFormSchema } from "#app/lib/form-schemas.ts";
import type { z } from "zod";
import { useSchemaForm } from "#app/hooks/use-schema-form.ts";
import type { TradeIntent } from "#app/lib/trade-intents.ts";

const FORM_ID = "trade-draft";
/** The name Conform gives the hidden button it submits with to validate one field. */
const CONFORM_INTENT = "__intent__";
const STRATEGY_SUGGESTIONS = ["Cash-Secured Put", "Covered Call", "Wheel", "Swing", "Breakout", "Dividend"];
const INTENT_OF: Record<TradeFormKind, TradeIntent> = { stocks: "save-stock", options: "save-option" };
type Draft = Record<string, any>;

// Typed loosely, as a draft of either form: the fields shown depend on `kind`.
const SCHEMA_OF: Record<TradeFormKind, LazyFormSchema<z.ZodType<Draft, Draft>>> = {
  stocks: STOCK_TRADE_FORM,
  options: OPTION_TRADE_FORM,
};

/**
 * The Add Trade form, for shares or for options, on three tabs (General, Exit, Journal).
 * With JavaScript the tabs show one panel at a time and mark the ones holding errors; without
 * it (CSS `scripting: none`) all three panels are shown one after another, so one post carries
 * the whole trade. Either way the server validates with the same schema and every typed value
 * comes back on error.
 */
export function TradeForm({
  kind,
  action,
  defaultValue,
  lastResult,
  navigationState,
}: {
  kind: TradeFormKind;
  /** The URL the trade is posted to; it must render this form again. */
  action: string;
  /** Defaults and, from a recommendation's "Record this trade", its values. */
  defaultValue: Record<string, string>;
  lastResult?: SubmissionResult<string[]> | undefined;
  /** Kept across the post so closing the modal afterwards still knows how it was opened. */
  navigationState?: unknown;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === action;
  const schema = SCHEMA_OF[kind];
  const tabs = TRADE_TABS[kind];
  const [activeTab, setActiveTab] = useState<TradeTabId>(
    () => firstTabWithErrors(kind, Object.keys(lastResult?.error ?? {}))?.tab ?? "general",
  );
  const [focusRequest, setFocusRequest] = useState<{ field: string } | null>(null);

  const { form, fields, formProps, parse } = useSchemaForm({
    id: `${FORM_ID}-${kind}`,
    schema,
    defaultValue,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  /** Shows the first tab holding an error and puts focus on its first wrong field. */
  function revealFirstError(fieldsWithErrors: string[]) {
    const first = firstTabWithErrors(kind, fieldsWithErrors);
    if (!first) return;
    setActiveTab(first.tab);
    setFocusRequest({ field: first.field });
  }

  // A reply from the server with errors (the browser's check normally catches them first).
  const [seenResult, setSeenResult] = useState(lastResult);
  if (lastResult !== seenResult) {
    setSeenResult(lastResult);
    revealFirstError(Object.keys(lastResult?.error ?? {}));
  }

  useEffect(() => {
    if (!focusRequest) return;
    const control = document.forms.namedItem(`${FORM_ID}-${kind}`)?.elements.namedItem(focusRequest.field);
    const element = control instanceof RadioNodeList ? control[0] : control;
    if (element instanceof HTMLElement) element.focus();
  }, [focusRequest, kind]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Conform validates a field on blur by submitting with a hidden intent button; only a real submit
    // should move the user to another tab.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const isIntent = submitter?.getAttribute("name") === CONFORM_INTENT;
    formProps.onSubmit(event);
    // Conform cancels the post when the trade is invalid; its wrong fields may sit on another tab.
    // (A submit made before the schema loaded is held and comes back here once it has.)
    const submission = event.defaultPrevented && !isIntent ? parse(new FormData(event.currentTarget)) : null;
    if (submission) revealFirstError(submission.status === "success" ? [] : Object.keys(submission.error ?? {}));
  }

  const errorCounts = errorsByTab(
    kind,
    Object.keys(form.allErrors).filter((name) => form.allErrors[name]?.length),
  );
  const totalErrors = Object.values(errorCounts).reduce((a, b) => a + b, 0);

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = tabs.findIndex((tab) => tab.id === activeTab);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = tabs[next]!;
    setActiveTab(tab.id);
    document.getElementById(tabId(tab.id))?.focus();
  }

  const field = (name: string) => fields[name] as FieldMetadata<unknown, Draft>;
  const amountProps = (name: string) => {
    // Text with a decimal keypad rather than type=number: no spinner, no "e", and only digits with
    // one optional decimal point applied as the user types.
    const { min: _min, max: _max, step: _step, ...props } = getInputProps(field(name), { type: "text" });
    return {
      ...props,
      inputMode: "decimal" as const,
      autoComplete: "off",
      placeholder: "0.00",
      onChange: (event: FormEvent<HTMLInputElement>) => sanitizeInPlace(event.currentTarget, sanitizeDecimalInput),
    };
  };
  const amount = (name: string, label: string, extra: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field
      labelProps={{ children: label }}
      inputProps={{ ...amountProps(name), ...extra }}
      errors={field(name).errors}
    />
  );
  const radios = (
    name: string,
    legend: string,
    options: readonly { value: string; label: string }[],
    className: string,
  ) => (
    <ChoiceGroup
      legend={legend}
      name={field(name).name}
      errors={field(name).errors}
      errorId={field(name).errorId}
      className={className}
    >
      {getCollectionProps(field(name), { type: "radio", options: options.map((o) => o.value) }).map(
        ({ key, ...props }) => (
          <Choice key={key} inputProps={props}>
            {options.find((o) => o.value === props.value)?.label}
          </Choice>
        ),
      )}
    </ChoiceGroup>
  );
  const options = kind === "options";

  return (
    <Form
      method="post"
      action={action}
      state={navigationState}
      className="trade-form"
      {...formProps}
      onSubmit={onSubmit}
    >
      <input type="hidden" name="intent" value={INTENT_OF[kind]} />
      <div role="tablist" aria-label="Trade details" className="trade-tabs">
        {tabs.map((tab) => {
          const selected = tab.id === activeTab;
          const count = errorCounts[tab.id];
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              aria-controls={panelId(tab.id)}
              aria-selected={selected}
              tabIndex={selected ? 0 : -1}
              className="trade-tabs__tab"
              // The badge is a number to the eye; the name says it in words ("Exit, 2 errors").
              aria-label={count > 0 ? `${tab.label}, ${count} ${count === 1 ? "error" : "errors"}` : undefined}
              data-invalid={count > 0 ? "true" : undefined}
              onClick={() => setActiveTab(tab.id)}
              onKeyDown={onTabKeyDown}
            >
              {tab.label}
              {count > 0 ? (
                <span className="trade-tabs__badge" aria-hidden="true">
                  {count}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>

      <div className="trade-form__body">
        {totalErrors > 0 && form.status === "error" ? (
          <p className="trade-form__summary" role="alert">
            Fix {totalErrors} {totalErrors === 1 ? "field" : "fields"} before saving:{" "}
            {tabs
              .filter((tab) => errorCounts[tab.id] > 0)
              .map((tab) => `${tab.label} (${errorCounts[tab.id]})`)
              .join(", ")}
            .
          </p>
        ) : null}
        <ErrorList id={form.errorId} errors={form.errors} />

        <TabPanel id="general" active={activeTab} kind={kind}>
          <Field
            labelProps={{ children: "Portfolio" }}
            inputProps={{ ...getInputProps(field("portfolio"), { type: "text" }), autoComplete: "off" }}
            errors={field("portfolio").errors}
          />
          {options
            ? radios("action", "What happened", OPTION_ACTIONS, "choice-group--actions")
            : radios("type", "Type", TRADE_TYPES, "choice-group--two")}
          <Field
            labelProps={{ children: options ? "Underlying symbol" : "Symbol" }}
            inputProps={{
              ...getInputProps(field("symbol"), { type: "text" }),
              autoComplete: "off",
              autoCapitalize: "characters",
              spellCheck: false,
              placeholder: "E.g., AAPL",
              onChange: (event) => sanitizeInPlace(event.currentTarget, sanitizeTicker),
            }}
            errors={field("symbol").errors}
          />
          {options ? (
            <>
              {radios("optionType", "Put or call", OPTION_TYPES, "choice-group--two")}
              <div className="trade-form__row">
                {amount("strike", "Strike")}
                <Field
                  labelProps={{ children: "Expiry" }}
                  inputProps={getInputProps(field("expiry"), { type: "date" })}
                  errors={field("expiry").errors}
                />
              </div>
              <div className="trade-form__row">
                {amount("quantity", "Contracts", { inputMode: "numeric", placeholder: "1" })}
                {amount("entryPrice", "Premium per share")}
              </div>
            </>
          ) : (
            <div className="trade-form__row">
              {amount("entryPrice", "Price per share")}
              {amount("quantity", "Shares", { placeholder: "0" })}
            </div>
          )}
          {amount("entryFee", "Fees (commission and fees, $)")}
          <Field
            labelProps={{ children: "Date and time (UTC)" }}
            inputProps={getInputProps(field("entryDate"), { type: "datetime-local" })}
            errors={field("entryDate").errors}
          />
          {options ? (
            <p className="trade-form__hint">
              Expired, assigned and called away happen at the strike: enter a premium of 0. One contract is 100 shares.
            </p>
          ) : null}
        </TabPanel>

        <TabPanel id="exit" active={activeTab} kind={kind}>
          <p className="trade-form__hint">
            {options
              ? "Already bought it back? Fill these to record the buy-to-close too."
              : "Already closed it? Fill these to record the closing trade too."}
          </p>
          <div className="trade-form__row">
            {amount("closingPrice", options ? "Bought back at, per share" : "Closing price")}
            {amount("exitFee", "Exit fees ($)")}
          </div>
          <Field
            labelProps={{ children: "Exit date and time (UTC)" }}
            inputProps={getInputProps(field("exitDate"), { type: "datetime-local" })}
            errors={field("exitDate").errors}
          />
        </TabPanel>

        <TabPanel id="journal" active={activeTab} kind={kind}>
          <Field
            labelProps={{ children: "Strategy" }}
            inputProps={{
              ...getInputProps(field("strategy"), { type: "text" }),
              list: "trade-strategies",
              autoComplete: "off",
              placeholder: "E.g., Wheel",
            }}
            errors={field("strategy").errors}
          />
          <datalist id="trade-strategies">
            {STRATEGY_SUGGESTIONS.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <div className="field">
            <label htmlFor={field("notes").id}>Notes</label>
            <textarea
              {...getTextareaProps(field("notes"))}
              rows={4}
              placeholder="Why you took the trade, what you would do differently…"
            />
            <ErrorList id={field("notes").errorId} errors={field("notes").errors} />
          </div>
          {radios(
            "confidence",
            "Confidence",
            CONFIDENCE_LABELS.map((label, level) => ({ value: String(level), label })),
            "choice-group--five",
          )}
        </TabPanel>
      </div>

      <footer className="trade-form__footer">
        <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
          {busy ? "Saving…" : "Save trade"}
        </button>
      </footer>
    </Form>
  );
}

const tabId = (id: TradeTabId) => `trade-tab-${id}`;
const panelId = (id: TradeTabId) => `trade-panel-${id}`;

function TabPanel({
  id,
  active,
  kind,
  children,
}: {
  id: TradeTabId;
  active: TradeTabId;
  kind: TradeFormKind;
  children: ReactNode;
}) {
  const tab = TRADE_TABS[kind].find((t) => t.id === id)!;
  return (
    <section
      role="tabpanel"
      id={panelId(id)}
      aria-labelledby={tabId(id)}
      hidden={id !== active}
      className="trade-panel"
    >
      {/* Only shown without JavaScript, where the panels stand one after another. */}
      <h3 className="trade-panel__heading">{tab.label}</h3>
      {children}
    </section>
  );
}

/** A radio group drawn as a segmented control; a fieldset so its legend names the group. */
function ChoiceGroup({
  legend,
  name,
  errors,
  errorId,
  className,
  children,
}: {
  legend: string;
  name: string;
  errors?: string[];
  errorId: string;
  className: string;
  children: ReactNode;
}) {
  return (
    <fieldset
      className={`field choice-group ${className}`}
      aria-describedby={errors?.length ? errorId : undefined}
      data-name={name}
    >
      <legend>{legend}</legend>
      <div className="choice-group__options">{children}</div>
      <ErrorList id={errorId} errors={errors} />
    </fieldset>
  );
}

function Choice({ inputProps, children }: { inputProps: InputHTMLAttributes<HTMLInputElement>; children: ReactNode }) {
  return (
    <label className="choice-group__option">
      <input {...inputProps} />
      <span>{children}</span>
    </label>
  );
}

/** Rewrites an input's text through `clean` as it is typed, keeping the caret where it was. */
function sanitizeInPlace(input: HTMLInputElement, clean: (text: string) => string) {
  const { value, selectionStart } = input;
  const next = clean(value);
  if (next === value) return;
  const caret = Math.min(next.length, clean(value.slice(0, selectionStart ?? value.length)).length);
  input.value = next;
  input.setSelectionRange(caret, caret);
}
