import type { Href } from "#app/lib/href.ts";
import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import type { AlertSettings } from "#contract/position-alerts.ts";
import { ALERT_SETTINGS_TEXT, toAlertSettingsForm } from "#app/routes/profile/alert-settings.ts";
import { ALERT_SETTINGS_FORM } from "#app/lib/form-schemas.ts";
import { useSchemaForm } from "#app/hooks/use-schema-form.ts";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";

/**
 * docs/product.md#alerts-settings: the trader's alert thresholds, a plain form (it works without
 * JavaScript); a refused submission comes back with the typed values and the reasons.
 */
export function AlertSettingsFields({
  settings,
  lastResult,
}: {
  settings: AlertSettings | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const { form, fields, formProps } = useSchemaForm({
    id: "alert-settings",
    schema: ALERT_SETTINGS_FORM,
    lastResult,
    defaultValue: settings ? toAlertSettingsForm(settings) : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === PROFILE_INTENT.alertSettings;
  if (!settings && !lastResult) return <p className="setting__hint">{ALERT_SETTINGS_TEXT.unavailable}</p>;

  return (
    <Form method="post" action={"/profile" satisfies Href} {...formProps} className="alert-settings" preventScrollReset>
      <p className="setting__hint">{ALERT_SETTINGS_TEXT.intro}</p>
      <Field
        labelProps={{ children: ALERT_SETTINGS_TEXT.profitShare }}
        inputProps={{ ...getInputProps(fields.profit_share, { type: "number" }), step: "any", inputMode: "decimal" }}
        errors={fields.profit_share.errors}
      />
      <Field
        labelProps={{ children: ALERT_SETTINGS_TEXT.strikeDistance }}
        inputProps={{ ...getInputProps(fields.strike_distance, { type: "number" }), step: "any", inputMode: "decimal" }}
        errors={fields.strike_distance.errors}
      />
      <Field
        labelProps={{ children: ALERT_SETTINGS_TEXT.earningsDays }}
        inputProps={{ ...getInputProps(fields.earnings_days, { type: "number" }), step: 1, inputMode: "numeric" }}
        errors={fields.earnings_days.errors}
      />
      <ErrorList id={form.errorId} errors={form.errors} />
      <button
        type="submit"
        name="intent"
        value={PROFILE_INTENT.alertSettings}
        className="button button--primary"
        disabled={saving}
      >
        {ALERT_SETTINGS_TEXT.save}
      </button>
    </Form>
  );
}
