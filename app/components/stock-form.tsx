import { getInputProps, type FieldMetadata } from "@conform-to/react";
import type { FormEvent, ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { sanitizeDecimalInput } from "#app/lib/input-sanitizers.ts";
import { Field } from "./forms.tsx";
import { CloseIcon } from "./icons.tsx";

/**
 * The top bar of the stock add and edit pages (docs/product.md#screens-uip-edit): the title and a close button that goes
 * back in history when there is an earlier page of this app, else to `fallback`. A link, so it
 * works without JavaScript.
 */
export function TopBar({ title, fallback }: { title: string; fallback: string }) {
  const navigate = useNavigate();
  return (
    <header className="page-header top-bar">
      <h1>{title}</h1>
      <Link
        to={fallback}
        className="icon-button"
        aria-label="Close"
        title="Close"
        onClick={(event) => {
          // React Router numbers its history entries; 0 is the first page of this visit.
          const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
          if (index > 0) {
            event.preventDefault();
            void navigate(-1);
          }
        }}
      >
        <CloseIcon />
      </Link>
    </header>
  );
}

/** Keeps only digits and one decimal point while typing (docs/product.md#validation-stock); the schema checks it again. */
function keepDecimal(event: FormEvent<HTMLInputElement>) {
  const input = event.currentTarget;
  const clean = sanitizeDecimalInput(input.value);
  if (clean !== input.value) input.value = clean;
}

/** A price, IV or buy-level field: a decimal keypad on phones, an empty field counts as 0. */
export function ValueField({
  field,
  label,
  hint,
  onValue,
}: {
  field: FieldMetadata<string | undefined>;
  label: string;
  hint?: ReactNode;
  /** Called with the cleaned text on every keystroke (e.g. to recompute the average). */
  onValue?: (text: string) => void;
}) {
  const { key, ...props } = getInputProps(field, { type: "text" });
  return (
    <Field
      labelProps={{ children: label }}
      inputProps={{
        ...props,
        key,
        inputMode: "decimal",
        autoComplete: "off",
        placeholder: "0",
        enterKeyHint: "next",
        onInput: (event) => {
          keepDecimal(event);
          onValue?.(event.currentTarget.value);
        },
      }}
      errors={field.errors}
      hint={hint}
    />
  );
}

/** A titled group of fields ('Intrinsic Values', 'Buy levels'). */
export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section className="form-section" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="form-section__grid">{children}</div>
    </section>
  );
}
