import {
  getCollectionProps,
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  useForm,
  type FieldMetadata,
  type SubmissionResult,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import {
  useEffect,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import { Form, useNavigation } from "react-router";
import { ErrorList, Field } from "./forms.tsx";
import { sanitizeDecimalInput, sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import {
  CONFIDENCE_LABELS,
  ENTRY_STATUSES,
  errorsByTab,
  EXIT_STATUSES,
  firstTabWithErrors,
  TRADE_DRAFT_DEFAULTS,
  TRADE_TABS,
  TRADE_TYPES,
  TradeDraftSchema,
  type TradeDraft,
  type TradeField,
  type TradeTabId,
} from "#app/lib/trade-schemas.ts";

const FORM_ID = "trade-draft";
/** The name Conform gives the hidden button it submits with to validate one field. */
const CONFORM_INTENT = "__intent__";
const STRATEGY_SUGGESTIONS = ["Cash-Secured Put", "Covered Call", "Wheel", "Swing", "Breakout", "Dividend"];

/**
 * The Add Trade form (SPEC.md §2, §3, §5): every field of the trade draft on three tabs.
 * With JavaScript the tabs show one panel at a time and mark the ones holding errors; without
 * it (CSS `scripting: none`) all three panels are shown one after another, so one post carries
 * the whole draft. Either way the server validates with the same schema and every typed value
 * comes back on error.
 */
export function TradeForm({
  action,
  lastResult,
  notice,
  navigationState,
}: {
  /** The URL the draft is posted to; it must render this form again. */
  action: string;
  lastResult?: SubmissionResult<string[]>;
  /** Shown after a valid draft: what happened to it. */
  notice?: string | null;
  /** Kept across the post so closing the modal afterwards still knows how it was opened. */
  navigationState?: unknown;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formAction === action;
  const [activeTab, setActiveTab] = useState<TradeTabId>(
    () => firstTabWithErrors(Object.keys(lastResult?.error ?? {}))?.tab ?? "general",
  );
  const [focusRequest, setFocusRequest] = useState<{ field: TradeField } | null>(null);

  const [form, fields] = useForm<TradeDraft>({
    id: FORM_ID,
    constraint: getZodConstraint(TradeDraftSchema),
    defaultValue: TRADE_DRAFT_DEFAULTS,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: TradeDraftSchema }),
  });

  /** Shows the first tab holding an error and puts focus on its first wrong field. */
  function revealFirstError(fieldsWithErrors: string[]) {
    const first = firstTabWithErrors(fieldsWithErrors);
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
    const control = document.forms.namedItem(FORM_ID)?.elements.namedItem(focusRequest.field);
    const element = control instanceof RadioNodeList ? control[0] : control;
    if (element instanceof HTMLElement) element.focus();
  }, [focusRequest]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Conform validates a field on blur by submitting with a hidden intent button; only a real submit
    // should move the user to another tab.
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const isIntent = submitter?.getAttribute("name") === CONFORM_INTENT;
    form.onSubmit(event);
    // Conform cancels the post when the draft is invalid; its wrong fields may sit on another tab.
    if (event.defaultPrevented && !isIntent) {
      const submission = parseWithZod(new FormData(event.currentTarget), { schema: TradeDraftSchema });
      revealFirstError(submission.status === "success" ? [] : Object.keys(submission.error ?? {}));
    }
  }

  const errorCounts = errorsByTab(Object.keys(form.allErrors).filter((name) => form.allErrors[name]?.length));
  const totalErrors = Object.values(errorCounts).reduce((a, b) => a + b, 0);
  const showNotice = Boolean(notice) && form.status === "success" && totalErrors === 0;

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const index = TRADE_TABS.findIndex((tab) => tab.id === activeTab);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % TRADE_TABS.length
        : event.key === "ArrowLeft"
          ? (index - 1 + TRADE_TABS.length) % TRADE_TABS.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? TRADE_TABS.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const tab = TRADE_TABS[next]!;
    setActiveTab(tab.id);
    document.getElementById(tabId(tab.id))?.focus();
  }

  const amountProps = (field: FieldMetadata<number, TradeDraft>) => {
    // Text with a decimal keypad rather than type=number: no spinner, no "e", and SPEC.md §5's
    // "only digits with one optional decimal point" applied as the user types.
    const { min: _min, max: _max, step: _step, ...props } = getInputProps(field, { type: "text" });
    return {
      ...props,
      inputMode: "decimal" as const,
      autoComplete: "off",
      placeholder: "0.00",
      onChange: (event: FormEvent<HTMLInputElement>) => sanitizeInPlace(event.currentTarget, sanitizeDecimalInput),
    };
  };

  return (
    <Form
      method="post"
      action={action}
      state={navigationState}
      className="trade-form"
      {...getFormProps(form)}
      onSubmit={onSubmit}
    >
      <div role="tablist" aria-label="Trade details" className="trade-tabs">
        {TRADE_TABS.map((tab) => {
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
            {TRADE_TABS.filter((tab) => errorCounts[tab.id] > 0)
              .map((tab) => `${tab.label} (${errorCounts[tab.id]})`)
              .join(", ")}
            .
          </p>
        ) : null}
        <ErrorList id={form.errorId} errors={form.errors} />

        <TabPanel id="general" active={activeTab}>
          <Field
            labelProps={{ children: "Portfolio" }}
            inputProps={{ ...getInputProps(fields.portfolio, { type: "text" }), autoComplete: "off" }}
            errors={fields.portfolio.errors}
          />
          <ChoiceGroup
            legend="Type"
            name={fields.type.name}
            errors={fields.type.errors}
            errorId={fields.type.errorId}
            className="choice-group--two"
          >
            {getCollectionProps(fields.type, { type: "radio", options: TRADE_TYPES.map((t) => t.value) }).map(
              ({ key, ...props }) => (
                <Choice key={key} inputProps={props}>
                  {TRADE_TYPES.find((t) => t.value === props.value)?.label}
                </Choice>
              ),
            )}
          </ChoiceGroup>
          <Field
            labelProps={{ children: "Symbol" }}
            inputProps={{
              ...getInputProps(fields.symbol, { type: "text" }),
              autoComplete: "off",
              autoCapitalize: "characters",
              spellCheck: false,
              placeholder: "E.g., AAPL",
              onChange: (event) => sanitizeInPlace(event.currentTarget, sanitizeTicker),
            }}
            errors={fields.symbol.errors}
          />
          <div className="trade-form__row">
            <Field
              labelProps={{ children: "Entry price" }}
              inputProps={amountProps(fields.entryPrice)}
              errors={fields.entryPrice.errors}
            />
            <Field
              labelProps={{ children: "Quantity" }}
              inputProps={{ ...amountProps(fields.quantity), placeholder: "0" }}
              errors={fields.quantity.errors}
            />
          </div>
          <div className="trade-form__row">
            <Field
              labelProps={{ children: "Entry fee" }}
              inputProps={amountProps(fields.entryFee)}
              errors={fields.entryFee.errors}
            />
            <SelectField
              label="Entry status"
              selectProps={getSelectProps(fields.entryStatus)}
              options={ENTRY_STATUSES}
              errors={fields.entryStatus.errors}
              errorId={fields.entryStatus.errorId}
            />
          </div>
          <Field
            labelProps={{ children: "Entry date and time" }}
            inputProps={getInputProps(fields.entryDate, { type: "datetime-local" })}
            errors={fields.entryDate.errors}
          />
        </TabPanel>

        <TabPanel id="exit" active={activeTab}>
          <div className="trade-form__row">
            <Field
              labelProps={{ children: "Closing price" }}
              inputProps={amountProps(fields.closingPrice)}
              errors={fields.closingPrice.errors}
            />
            <Field
              labelProps={{ children: "Exit fee" }}
              inputProps={amountProps(fields.exitFee)}
              errors={fields.exitFee.errors}
            />
          </div>
          <SelectField
            label="Exit status"
            selectProps={getSelectProps(fields.exitStatus)}
            options={EXIT_STATUSES}
            errors={fields.exitStatus.errors}
            errorId={fields.exitStatus.errorId}
          />
          <Field
            labelProps={{ children: "Exit date and time" }}
            inputProps={getInputProps(fields.exitDate, { type: "datetime-local" })}
            errors={fields.exitDate.errors}
          />
        </TabPanel>

        <TabPanel id="journal" active={activeTab}>
          <Field
            labelProps={{ children: "Strategy" }}
            inputProps={{
              ...getInputProps(fields.strategy, { type: "text" }),
              list: "trade-strategies",
              autoComplete: "off",
              placeholder: "E.g., Wheel",
            }}
            errors={fields.strategy.errors}
          />
          <datalist id="trade-strategies">
            {STRATEGY_SUGGESTIONS.map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <div className="field">
            <label htmlFor={fields.notes.id}>Notes</label>
            <textarea
              {...getTextareaProps(fields.notes)}
              rows={4}
              placeholder="Why you took the trade, what you would do differently…"
            />
            <ErrorList id={fields.notes.errorId} errors={fields.notes.errors} />
          </div>
          <ChoiceGroup
            legend="Confidence"
            name={fields.confidence.name}
            errors={fields.confidence.errors}
            errorId={fields.confidence.errorId}
            className="choice-group--five"
          >
            {getCollectionProps(fields.confidence, {
              type: "radio",
              options: CONFIDENCE_LABELS.map((_, level) => String(level)),
            }).map(({ key, ...props }) => (
              <Choice key={key} inputProps={props}>
                {CONFIDENCE_LABELS[Number(props.value)]}
              </Choice>
            ))}
          </ChoiceGroup>
        </TabPanel>
      </div>

      <footer className="trade-form__footer">
        <p className="trade-form__notice" role="status">
          {showNotice ? notice : null}
        </p>
        <button type="submit" className="button button--primary" aria-disabled={busy || undefined}>
          {busy ? "Checking…" : "Save trade"}
        </button>
      </footer>
    </Form>
  );
}

const tabId = (id: TradeTabId) => `trade-tab-${id}`;
const panelId = (id: TradeTabId) => `trade-panel-${id}`;

function TabPanel({ id, active, children }: { id: TradeTabId; active: TradeTabId; children: ReactNode }) {
  const tab = TRADE_TABS.find((t) => t.id === id)!;
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

function SelectField({
  label,
  selectProps,
  options,
  errors,
  errorId,
}: {
  label: string;
  selectProps: ReturnType<typeof getSelectProps>;
  options: readonly { value: string; label: string }[];
  errors?: string[];
  errorId: string;
}) {
  const { key, ...props } = selectProps;
  return (
    <div className="field">
      <label htmlFor={props.id}>{label}</label>
      <select key={key} {...props}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorList id={errorId} errors={errors} />
    </div>
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
