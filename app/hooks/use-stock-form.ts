import type { DefaultValue, SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";
import type { z } from "zod";
import type { ReplyToast } from "#app/lib/action-reply.ts";
import type { LazyFormSchema } from "#app/lib/form-schemas.ts";
import { toast as showToast } from "#app/lib/toast.ts";
import { useSchemaForm } from "./use-schema-form.ts";

/** A stock form action's answer: the submission to show again (values and errors), and its toast. */
export interface StockFormReply {
  result: SubmissionResult<string[]>;
  toast: ReplyToast | null;
  /** Values saved only once accepted (app/lib/level-warnings.ts): the form shows them with the box to accept. */
  warnings?: string[];
}

/**
 * A stock add or edit form (docs/product.md#validation-stock): checked by `schema` when a field is left and
 * again while it is corrected, the action's reply kept (values and errors), and its toast shown once.
 */
export function useStockForm<Schema extends z.ZodObject>(
  schema: LazyFormSchema<Schema>,
  {
    id,
    defaultValue,
    reply,
  }: {
    id: string;
    defaultValue?: DefaultValue<z.input<Schema>>;
    reply: StockFormReply | undefined;
  },
) {
  const stockForm = useSchemaForm({
    id,
    schema,
    defaultValue,
    lastResult: reply?.result,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  const toast = reply?.toast;
  useEffect(() => {
    if (toast) showToast(toast.text, { type: toast.type, autoClose: toast.autoClose, toastId: toast.id });
  }, [toast]);

  return stockForm;
}
