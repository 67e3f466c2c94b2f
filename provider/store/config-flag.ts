import { configIsOn, type ConfigKey } from "#contract/entities.ts";
import type { Db } from "#provider/db/client.ts";

/**
 * Whether an admin switch is on (docs/product.md#entities-config): the config route answers it and
 * the jobs that obey it (price refresh, automatic generation) check it before each run.
 */
export async function configFlag(db: Db, key: ConfigKey): Promise<boolean> {
  const row = await db.selectFrom("backend_config").select("value").where("key", "=", key).executeTakeFirst();
  return configIsOn(row?.value);
}

/** Sets an admin switch (docs/product.md#calls-config), creating its row the first time. */
export async function setConfigFlag(db: Db, key: ConfigKey, value: "1" | "0"): Promise<void> {
  await db
    .insertInto("backend_config")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: new Date() }))
    .execute();
}
