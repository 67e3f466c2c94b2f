import type { RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import { CONFIG_KEYS, configIsOn } from "#contract/constants.ts";
import type { ConfigKey, NotificationItem } from "#contract/entities.ts";
import { messages } from "#app/lib/messages.ts";
import { countErrorText, parseFilter, type CountFailure } from "./notifications.ts";
import { loadAlertSettings } from "./alert-settings.server.ts";
import { loadCapitalSettings } from "./capital-settings.server.ts";
import { intentOf } from "#app/lib/intents.ts";
import { isAdmin, requireUser, userCall } from "#app/server/auth.server.ts";
import { readForm } from "#app/server/form-body.server.ts";
import { callProvider, ProviderError } from "#app/server/provider.server.ts";
import packageJson from "../../../package.json";
import {
  clearAll,
  comingSoon,
  markAllRead,
  markRead,
  profileView,
  setConfig,
  submitSupport,
  unknownIntent,
} from "./actions.server.ts";
import { saveAlertSettingsAction } from "./alert-settings.server.ts";
import { saveCapitalSettingsAction } from "./capital-settings.server.ts";
import { PROFILE_INTENTS } from "./intents.ts";

type Context = Readonly<RouterContextProvider>;

/** /profile's data (docs/product.md#screens-profile): the bell's count, the open panel, the admin's switches, the alert settings. */
export async function loadProfile(request: Request, context: Context) {
  const user = requireUser(context);
  const url = new URL(request.url);
  const panelOpen = url.searchParams.get("panel") === "notifications";
  const admin = isAdmin(user);

  const [unread, notifications, config, publicKey, alertSettings, capitalSettings] = await Promise.all([
    unreadCount(context, user.id),
    panelOpen ? notificationList(context, user.id) : null,
    admin ? configValues(context) : null,
    callProvider(calls.pushPublicKey).then(
      (r) => r.public_key,
      () => null,
    ),
    loadAlertSettings(context),
    loadCapitalSettings(context),
  ]);

  return {
    user: { id: user.id, name: user.name, email: user.email },
    admin,
    unread,
    panel: panelOpen ? { ...notifications!, filter: parseFilter(url.searchParams.get("filter")) } : null,
    supportOpen: url.searchParams.get("dialog") === "support",
    config,
    publicKey,
    alertSettings,
    capitalSettings,
    appVersion: packageJson.version,
    now: new Date().toISOString(),
  };
}

/** /profile's forms, told apart by their intent (intents.ts). */
export async function profileAction(request: Request, context: Context) {
  const user = requireUser(context);
  const formData = await readForm(request);
  // Back to the same view (panel and filter kept), so each action also works without JavaScript.
  const back = profileView(request.url);
  const intent = intentOf(formData, PROFILE_INTENTS);
  switch (intent) {
    case "mark-read":
      return markRead(context, formData, back);
    case "mark-all-read":
      return markAllRead(context, user, back);
    case "clear-all":
      return clearAll(context, user, back);
    case "config":
      return setConfig(context, user, formData, back);
    case "alert-settings":
      return saveAlertSettingsAction(context, formData);
    case "support":
      return submitSupport(formData);
    case "capital-settings":
      return saveCapitalSettingsAction(context, formData);
    case "coming-soon":
      return comingSoon(formData, back);
    case null:
      return unknownIntent(back);
  }
}

/** docs/product.md#errors-notifications: the unread count, or the count-fetch failure text for its toast. */
async function unreadCount(context: Context, userId: number): Promise<{ count: number; error: string | null }> {
  try {
    const res = await userCall(context, calls.unreadCount, { params: { userId } });
    return { count: res.unread_count, error: null };
  } catch (error) {
    if (error instanceof Response) throw error;
    let failure: CountFailure;
    if (error instanceof ProviderError) {
      failure = error.status === 0 ? { kind: "no-response" } : { kind: "response", message: error.detail };
    } else if (error instanceof Error) failure = { kind: "setup", message: error.message };
    else failure = { kind: "other" };
    return { count: 0, error: countErrorText(failure) };
  }
}

async function notificationList(
  context: Context,
  userId: number,
): Promise<{ items: NotificationItem[]; error: string | null }> {
  try {
    return { items: await userCall(context, calls.listNotifications, { params: { userId } }), error: null };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { items: [], error: messages.fetchNotificationsFailed };
  }
}

async function configValues(context: Context): Promise<Record<ConfigKey, boolean | null>> {
  const entries = await Promise.all(
    CONFIG_KEYS.map(async (key) => {
      try {
        const res = await userCall(context, calls.getConfig, { params: { key } });
        return [key, configIsOn(res.value)] as const;
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        return [key, null] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Record<ConfigKey, boolean | null>;
}
