import type { Href, HrefWithSearch } from "#app/lib/href.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { CONFIG_KEYS } from "#contract/constants.ts";
import type { ConfigKey } from "#contract/entities.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { toggleErrorText } from "./notifications.ts";
import { SUPPORT_DELAY_MS } from "./constants.ts";
import { COMING_SOON, comingSoonText } from "./coming-soon.ts";
import { SupportSchema } from "#app/lib/support-schemas.ts";
import { CONFIG_LABELS } from "./system-settings.ts";
import { isAdmin, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import type { SessionUser } from "#app/server/session.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";

/**
 * The handlers of /profile's forms, one per intent (intents.ts). Each answers with
 * a redirect back to the same view (`back`: panel and filter kept) so it works without JavaScript.
 */
type Context = Readonly<RouterContextProvider>;

/** /profile with the notification panel and filter of the page that posted (request.url may be /profile.data). */
export function profileView(requestUrl: string): string {
  const url = new URL(requestUrl);
  const view = new URLSearchParams();
  for (const key of ["panel", "filter"]) {
    const value = url.searchParams.get(key);
    if (value) view.set(key, value);
  }
  return view.size ? (`/profile?${view}` satisfies HrefWithSearch) : ("/profile" satisfies Href);
}

const fail = (back: string, text: string) => redirectWithToast(back, { type: "error", text, autoClose: TOAST_MS.app });
const ok = (back: string, text: string) => redirectWithToast(back, { type: "success", text, autoClose: TOAST_MS.app });

export async function markRead(context: Context, formData: FormData, back: string) {
  const id = Number(formData.get("id"));
  try {
    if (!Number.isInteger(id) || id <= 0) throw new ProviderError(422, "Unprocessable Entity");
    await userCall(context, calls.markNotificationRead, { params: { id } });
    return redirect(back);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return fail(back, messages.markReadFailed);
  }
}

export async function markAllRead(context: Context, user: SessionUser, back: string) {
  try {
    await userCall(context, calls.markAllNotificationsRead, { params: { userId: user.id } });
    return ok(back, messages.allMarkedRead);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return fail(back, messages.markAllReadFailed);
  }
}

export async function clearAll(context: Context, user: SessionUser, back: string) {
  try {
    await userCall(context, calls.clearAllNotifications, { params: { userId: user.id } });
    return ok(back, messages.allCleared);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return fail(back, messages.clearFailed);
  }
}

/** An admin switch (docs/product.md#states-admin): refused to a trader, its own failure text otherwise. */
export async function setConfig(context: Context, user: SessionUser, formData: FormData, back: string) {
  const key = String(formData.get("key") ?? "");
  const value = formData.get("value") === "1" ? "1" : "0";
  const known = (CONFIG_KEYS as readonly string[]).includes(key) ? (key as ConfigKey) : null;
  const fallback = known ? CONFIG_LABELS[known].failed : messages.unexpected;
  if (!isAdmin(user)) return fail(back, messages.noSystemSettingsPermission);
  if (!known) return fail(back, fallback);
  try {
    await userCall(context, calls.setConfig, { params: { key: known }, body: { value } });
    return redirect(back);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return fail(back, toggleErrorText(error.status, fallback));
  }
}

/** docs/product.md#calls-other: the support form only simulates a submission, after 1 s, with no call. */
export async function submitSupport(formData: FormData) {
  const submission = parseWithZod(formData, { schema: SupportSchema });
  if (submission.status !== "success") return data({ support: submission.reply() }, { status: 400 });
  try {
    await new Promise((resolve) => setTimeout(resolve, SUPPORT_DELAY_MS));
    return redirectWithToast("/profile" satisfies Href, {
      type: "success",
      text: messages.supportSubmitted,
      autoClose: TOAST_MS.app,
    });
  } catch {
    return data({ support: submission.reply({ formErrors: [messages.supportFailed] }) }, { status: 500 });
  }
}

/** A placeholder's tap without the scripts (components/profile-card.tsx): the text it shows in place with them. */
export function comingSoon(formData: FormData, back: string) {
  const feature = formData.get("feature");
  const known = (Object.values(COMING_SOON).flat() as string[]).includes(feature as string);
  if (!known) return fail(back, messages.unexpected);
  return redirectWithToast(back, { type: "info", text: comingSoonText(feature as string), autoClose: TOAST_MS.app });
}

/** A post with no intent of this page's. */
export const unknownIntent = (back: string) => fail(back, messages.unexpected);
