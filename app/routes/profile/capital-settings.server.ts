/**
 * The capital settings on /profile (docs/product.md#plan-settings, ADR 0081): read for the card,
 * saved from its form. A refused form answers 400 (or the provider's 4xx) with its values kept.
 */
import type { HrefWithSearch } from "#app/lib/href.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { CapitalSettings } from "#contract/plan.ts";
import { TOAST_MS } from "#app/lib/messages.ts";
import { CAPITAL_SETTINGS_TEXT, toCapitalSettings } from "./capital-settings.ts";
import { CapitalSettingsForm } from "#app/lib/capital-settings-schema.ts";
import { userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";

type Context = Readonly<RouterContextProvider>;

/** The saved settings; null when the provider cannot say (the card says so). */
export async function loadCapitalSettings(context: Context): Promise<CapitalSettings | null> {
  try {
    return await userCall(context, calls.capitalSettings);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return null;
  }
}

export async function saveCapitalSettingsAction(context: Context, formData: FormData) {
  const submission = parseWithZod(formData, { schema: CapitalSettingsForm });
  if (submission.status !== "success") return data({ capitalSettings: submission.reply() }, { status: 400 });
  try {
    await userCall(context, calls.saveCapitalSettings, { body: toCapitalSettings(submission.value) });
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    const refused = error.status >= 400 && error.status < 500;
    const detail = refused && error.detail ? error.detail : CAPITAL_SETTINGS_TEXT.failed;
    return data(
      { capitalSettings: submission.reply({ formErrors: [detail] }) },
      { status: refused ? error.status : 502 },
    );
  }
  return redirectWithToast("/profile#capital" satisfies HrefWithSearch, {
    type: "success",
    text: CAPITAL_SETTINGS_TEXT.saved,
    autoClose: TOAST_MS.app,
  });
}
