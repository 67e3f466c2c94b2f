import type { Href } from "#app/lib/href.ts";
import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useNavigation } from "react-router";
import { PLAN_PATH } from "#app/lib/plan-paths.ts";
import type { CapitalSettings } from "#contract/plan.ts";
import { CAPITAL_SETTINGS_TEXT, toCapitalSettingsForm } from "#app/routes/profile/capital-settings.ts";
import { CAPITAL_SETTINGS_FORM } from "#app/lib/form-schemas.ts";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";
import { useSchemaForm } from "#app/hooks/use-schema-form.ts";
import { ErrorList, Field } from "#app/components/forms.tsx";
import { Card } from "./profile-card.tsx";

/** The profile's Capital Plan card (loaded after the profile's own code, ADR 0081). */
export function CapitalSettingsCard(props: {
  settings: CapitalSettings | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  return (
    <Card title={CAPITAL_SETTINGS_TEXT.title} id="capital">
      <CapitalSettingsFields {...props} />
    </Card>
  );
}

/**
 * docs/product.md#plan-settings: the trader's capital and limits, a plain form (it works without
 * JavaScript); a refused submission comes back with the typed values and the reasons.
 */
function CapitalSettingsFields({
  settings,
  lastResult,
}: {
  settings: CapitalSettings | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const navigation = useNavigation();
  const { form, fields, formProps } = useSchemaForm({
    id: "capital-settings",
    schema: CAPITAL_SETTINGS_FORM,
    lastResult,
    defaultValue: settings ? toCapitalSettingsForm(settings) : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === PROFILE_INTENT.capitalSettings;
  if (!settings && !lastResult) return <p className="setting__hint">{CAPITAL_SETTINGS_TEXT.unavailable}</p>;
  const number = { step: "any", inputMode: "decimal" } as const;

  return (
    <Form
      method="post"
      action={"/profile" satisfies Href}
      {...formProps}
      className="alert-settings capital-settings"
      preventScrollReset
    >
      <p className="setting__hint">{CAPITAL_SETTINGS_TEXT.intro}</p>
      <Field
        labelProps={{ children: CAPITAL_SETTINGS_TEXT.capital }}
        inputProps={{ ...getInputProps(fields.capital, { type: "number" }), ...number }}
        errors={fields.capital.errors}
      />
      <Field
        labelProps={{ children: CAPITAL_SETTINGS_TEXT.reserve }}
        inputProps={{ ...getInputProps(fields.reserve_share, { type: "number" }), ...number }}
        errors={fields.reserve_share.errors}
      />
      <Field
        labelProps={{ children: CAPITAL_SETTINGS_TEXT.tickerLimit }}
        inputProps={{ ...getInputProps(fields.ticker_limit, { type: "number" }), ...number }}
        errors={fields.ticker_limit.errors}
      />
      <Field
        labelProps={{ children: CAPITAL_SETTINGS_TEXT.sectorLimit }}
        inputProps={{ ...getInputProps(fields.sector_limit, { type: "number" }), ...number }}
        errors={fields.sector_limit.errors}
      />
      <label className="capital-settings__check">
        <input {...getInputProps(fields.only_fitting, { type: "checkbox" })} />
        <span>{CAPITAL_SETTINGS_TEXT.onlyFitting}</span>
      </label>
      <ErrorList id={form.errorId} errors={form.errors} />
      <button
        type="submit"
        name="intent"
        value={PROFILE_INTENT.capitalSettings}
        className="button button--primary"
        disabled={saving}
      >
        {CAPITAL_SETTINGS_TEXT.save}
      </button>
      <Link to={PLAN_PATH} className="capital-settings__plan">
        {CAPITAL_SETTINGS_TEXT.planLink}
      </Link>
    </Form>
  );
}
