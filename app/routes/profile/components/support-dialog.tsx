import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import { getSelectProps, getTextareaProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { SUPPORT_SUBJECTS } from "#app/lib/support-subjects.ts";
import { SUPPORT_FORM } from "#app/lib/form-schemas.ts";
import { useSchemaForm } from "#app/hooks/use-schema-form.ts";
import { ErrorList } from "#app/components/forms.tsx";
import { Modal } from "#app/components/modal.tsx";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";

/** docs/product.md#screens-profile: the Contact Support dialog (/profile?dialog=support). */
export function SupportDialog({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const { form, fields, formProps } = useSchemaForm({
    id: "support",
    schema: SUPPORT_FORM,
    lastResult,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === PROFILE_INTENT.support;

  return (
    <Modal title="Contact Support" closeTo={"/profile" satisfies Href} className="support-dialog">
      <Form
        method="post"
        action={"/profile?dialog=support" satisfies HrefWithSearch}
        {...formProps}
        className="support-form"
      >
        <p className="support-form__intro">Tell us what you need and our team will get back to you by email.</p>
        <div className="field">
          <label htmlFor={fields.subject.id}>Subject</label>
          <select {...getSelectProps(fields.subject)}>
            <option value="">Select a subject</option>
            {SUPPORT_SUBJECTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <ErrorList id={fields.subject.errorId} errors={fields.subject.errors} />
        </div>
        <div className="field">
          <label htmlFor={fields.message.id}>Message</label>
          <textarea {...getTextareaProps(fields.message)} rows={5} placeholder="Describe your question or issue" />
          <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
        <button
          type="submit"
          name="intent"
          value={PROFILE_INTENT.support}
          className="button button--primary"
          disabled={submitting}
        >
          {submitting ? "Submitting..." : "Submit Request"}
        </button>
      </Form>
    </Modal>
  );
}
