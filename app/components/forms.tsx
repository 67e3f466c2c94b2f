import { useId, type InputHTMLAttributes, type ReactNode } from "react";

type ListOfErrors = Array<string | null | undefined> | null | undefined;

/** Errors under a field or a form, announced to screen readers. */
export function ErrorList({ id, errors }: { id?: string; errors?: ListOfErrors }) {
  const shown = errors?.filter(Boolean);
  if (!shown?.length) return null;
  return (
    <ul id={id} className="error-list" role="alert">
      {shown.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

/** A labelled input whose errors are wired through aria-invalid and aria-describedby. */
export function Field({
  labelProps,
  inputProps,
  errors,
  hint,
  trailing,
}: {
  labelProps: { children: ReactNode; htmlFor?: string };
  inputProps: InputHTMLAttributes<HTMLInputElement> & { key?: string | undefined };
  errors?: ListOfErrors;
  hint?: ReactNode;
  trailing?: ReactNode;
}) {
  const fallbackId = useId();
  const { key, ...rest } = inputProps;
  const id = inputProps.id ?? fallbackId;
  const errorId = errors?.some(Boolean) ? `${id}-error` : undefined;
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id} {...labelProps} />
      <div className="field__control">
        <input
          key={key}
          id={id}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
          {...rest}
        />
        {trailing}
      </div>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
