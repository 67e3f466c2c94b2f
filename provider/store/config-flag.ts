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
