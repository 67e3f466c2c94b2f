import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { isAdmin, NOT_AUTHORIZED } from "#provider/auth/callers.ts";
import { forbidden } from "#provider/http/errors.ts";
import { configFlag, setConfigFlag } from "#provider/store/config-flag.ts";

/**
 * docs/product.md#calls-config: the two admin switches. Only admins (any BACKEND_CONFIG permission,
 * docs/product.md#roles) read or change them; the jobs that obey them read them with the same store/config-flag.ts.
 */
export function configRoutes(router: Router, { db }: ProviderContext): void {
  router.on(calls.getConfig, async ({ caller, params }) => {
    if (!isAdmin(caller)) throw forbidden(NOT_AUTHORIZED);
    const value: "1" | "0" = (await configFlag(db, params.key)) ? "1" : "0";
    return { key: params.key, value };
  });

  router.on(calls.setConfig, async ({ caller, params, body }) => {
    if (!isAdmin(caller)) throw forbidden(NOT_AUTHORIZED);
    await setConfigFlag(db, params.key, body.value);
    const value: "1" | "0" = body.value;
    return { key: params.key, value };
  });
}
