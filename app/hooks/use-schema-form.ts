import { getFormProps, useForm, type DefaultValue, type Submission, type SubmissionResult } from "@conform-to/react";
import { useCallback, useEffect, useRef, type FormEvent } from "react";
import type * as ConformZodModule from "@conform-to/zod/v4";
import type { z } from "zod";
import type { LazyFormSchema } from "#app/lib/form-schemas.ts";

/** The name Conform gives the hidden button it submits with to validate a field. */
const CONFORM_INTENT = "__intent__";

type ConformZod = typeof ConformZodModule;
type Check = (formData: FormData) => Submission<unknown, string[]>;

let adapter: Promise<ConformZod> | undefined;

/**
 * Conform's `useForm`, checked by the form's zod schema once the schema has loaded (ADR 0051).
 *
 * zod and Conform's zod adapter weigh about 30 kB gzip, so they are not part of a page's first
 * load: the schema module is imported when the form first renders in the browser, and the form's
 * `required` and `pattern` attributes come from the zod-free constraint beside it
 * (app/lib/form-schemas.ts). Until the schema is there, a field left is checked as soon as it
 * arrives, and a submit waits for it, so no post skips the check. The server checks every post
 * with the same schema either way.
 */
export function useSchemaForm<Schema extends z.ZodType<Record<string, any>, Record<string, any>>>(options: {
  id: string;
  schema: LazyFormSchema<Schema>;
  defaultValue?: DefaultValue<z.input<Schema>>;
  lastResult?: SubmissionResult<string[]> | null | undefined;
  shouldValidate?: "onSubmit" | "onBlur" | "onInput";
  shouldRevalidate?: "onSubmit" | "onBlur" | "onInput";
}) {
  const { schema, ...formOptions } = options;
  const check = useRef<Check | null>(null);
  // What was asked for before the schema arrived: fields to check and a submit to send.
  const waiting = useRef<{
    fields: Set<string>;
    submit: { form: HTMLFormElement; submitter: HTMLElement | null } | null;
  }>({ fields: new Set(), submit: null });

  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    ...formOptions,
    constraint: schema.constraint,
    onValidate: ({ formData }) => {
      // Only reached once the schema is there: onSubmit below holds every submit until then.
      if (!check.current) throw new Error(`The schema of form ${options.id} has not loaded`);
      return check.current(formData) as Submission<z.input<Schema>, string[], z.output<Schema>>;
    },
  });

  const validate = form.validate;
  const load = schema.load;
  useEffect(() => {
    let live = true;
    check.current = null;
    adapter ??= import("@conform-to/zod/v4");
    void Promise.all([adapter, load()]).then(([{ parseWithZod }, loaded]) => {
      if (!live) return;
      check.current = (formData) => parseWithZod(formData, { schema: loaded });
      const { fields: names, submit } = waiting.current;
      waiting.current = { fields: new Set(), submit: null };
      for (const name of names) {
        if (name) validate({ name });
        else validate();
      }
      if (submit?.form.isConnected) {
        const submitter = submit.submitter?.isConnected ? submit.submitter : null;
        submit.form.requestSubmit(submitter);
      }
    });
    return () => {
      live = false;
    };
  }, [load, validate]);

  const formProps = getFormProps(form);
  const conformSubmit = formProps.onSubmit;
  const onSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      if (check.current) return conformSubmit(event);
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      if (submitter?.getAttribute("name") === CONFORM_INTENT) {
        const name = validatedField(submitter.getAttribute("value"));
        if (name !== null) waiting.current.fields.add(name);
      } else {
        waiting.current.submit = { form: event.currentTarget, submitter };
      }
    },
    [conformSubmit],
  );

  /** The schema's verdict on `formData`, or null while the schema is loading. */
  const parse = useCallback((formData: FormData) => check.current?.(formData) ?? null, []);

  return { form, fields, formProps: { ...formProps, onSubmit }, parse };
}

/** The field a Conform "validate" intent names ("" for the whole form), or null for another intent. */
function validatedField(serialized: string | null): string | null {
  try {
    const intent = JSON.parse(serialized ?? "") as { type?: string; payload?: { name?: string } };
    return intent.type === "validate" ? (intent.payload?.name ?? "") : null;
  } catch {
    return null;
  }
}
