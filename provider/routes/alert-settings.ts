import * as calls from "#contract/calls.ts";
import type { ProviderContext } from "#provider/context.ts";
import type { Router } from "#provider/http/router.ts";
import { saveAlertSettings, savedAlertSettings } from "#provider/alerts/settings.ts";

/** The caller's own alert thresholds (ADR 0034); the router has checked the body with the contract. */
export function alertSettingsRoutes(router: Router, context: ProviderContext): void {
  const { db } = context;
  router.on(calls.alertSettings, async ({ caller }) => savedAlertSettings(db, caller.id));
  router.on(calls.saveAlertSettings, async ({ caller, body }) => saveAlertSettings(db, caller.id, body));
}
