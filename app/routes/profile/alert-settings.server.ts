/**
 * The alert thresholds on /profile (docs/product.md#alerts-settings, ADR 0034): read for the card,
 * and saved from its form. A refused form answers 400 (or the provider's 4xx) with its values kept.
 */
import type { HrefWithSearch } from "#app/lib/href.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { AlertSettings } from "#contract/position-alerts.ts";
import { TOAST_MS } from "#app/lib/messages.ts";
import { ALERT_SETTINGS_TEXT, toAlertSettings } from "./alert-settings.ts";
import { AlertSettingsForm } from "#app/lib/alert-settings-schema.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";

type Context = Readonly<RouterContextProvider>;

/** The saved thresholds; null when the provider cannot say (the card says so). */
export async function loadAlertSettings(context: Context): Promise<AlertSettings | null> {
  try {
    return await userCall(context, calls.alertSettings);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return null;
  }
}

export async function saveAlertSettingsAction(context: Context, formData: FormData) {
  const submission = parseWithZod(formData, { schema: AlertSettingsForm });
  if (submission.status !== "success") return data({ alertSettings: submission.reply() }, { status: 400 });
  try {
    await userCall(context, calls.saveAlertSettings, { body: toAlertSettings(submission.value) });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const detail =
      error.status >= 400 && error.status < 500 && error.detail ? error.detail : ALERT_SETTINGS_TEXT.failed;
    return data(
      { alertSettings: submission.reply({ formErrors: [detail] }) },
      { status: error.status >= 400 && error.status < 500 ? error.status : 502 },
    );
  }
  return redirectWithToast("/profile#alerts" satisfies HrefWithSearch, {
    type: "success",
    text: ALERT_SETTINGS_TEXT.saved,
    autoClose: TOAST_MS.app,
  });
}
