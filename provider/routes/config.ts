import * as calls from "../../contract/calls.ts";
import type { ConfigKey } from "../../contract/entities.ts";
import type { Router } from "../http/router.ts";
import type { ProviderContext } from "../context.ts";
import { isAdmin, NOT_AUTHORIZED } from "../auth/callers.ts";
import { forbidden } from "../http/errors.ts";

/**
 * docs/product.md#calls-config: the two admin switches. Only admins (any BACKEND_CONFIG permission,
 * docs/product.md#roles) read or change them; the jobs that obey them read the table directly.
 */
export function configRoutes(router: Router, { db }: ProviderContext): void {
  router.on(calls.getConfig, async ({ caller, params }) => {
    if (!isAdmin(caller)) throw forbidden(NOT_AUTHORIZED);
    const row = await db.selectFrom("backend_config").select("value").where("key", "=", params.key).executeTakeFirst();
    const value: "1" | "0" = row?.value === "1" ? "1" : "0";
    return { key: params.key, value };
  });

  router.on(calls.setConfig, async ({ caller, params, body }) => {
    if (!isAdmin(caller)) throw forbidden(NOT_AUTHORIZED);
    await db
      .insertInto("backend_config")
      .values({ key: params.key, value: body.value })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: body.value, updated_at: new Date() }))
      .execute();
    const value: "1" | "0" = body.value;
    return { key: params.key, value };
  });
}

/** Whether a switch is on, for the jobs (price refresh, automatic generation). */
export async function configFlag(db: ProviderContext["db"], key: ConfigKey): Promise<boolean> {
  const row = await db.selectFrom("backend_config").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value === "1";
}
