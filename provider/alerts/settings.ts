import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from "#contract/position-alerts.ts";
import type { Db } from "#provider/db/client.ts";

/** Each trader's alert thresholds (ADR 0034); no row means the defaults. */

export async function savedAlertSettings(db: Db, userId: number): Promise<AlertSettings> {
  const row = await db
    .selectFrom("alert_settings")
    .select(["profit_share", "strike_distance", "earnings_days"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { ...row } : { ...DEFAULT_ALERT_SETTINGS };
}

export async function saveAlertSettings(db: Db, userId: number, values: AlertSettings): Promise<AlertSettings> {
  const row = {
    profit_share: values.profit_share,
    strike_distance: values.strike_distance,
    earnings_days: values.earnings_days,
  };
  await db
    .insertInto("alert_settings")
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
  return row;
}
