import * as calls from "#contract/calls.ts";
import type { Router } from "#provider/http/router.ts";
import type { ProviderContext } from "#provider/context.ts";
import { isAdmin, NOT_AUTHORIZED } from "#provider/auth/callers.ts";
import { forbidden } from "#provider/http/errors.ts";
import { latestOutboxMail } from "#provider/mail/outbox-store.ts";

/**
 * Without SMTP_URL, mail (password reset links) waits in the mail_outbox table. Admins read it
 * here to pass a link on by hand; with the embedded PGlite store nobody else can query it while
 * the provider runs.
 */
export function mailOutboxRoutes(router: Router, { db }: ProviderContext): void {
  router.on(calls.mailOutbox, async ({ caller, query }) => {
    if (!isAdmin(caller)) throw forbidden(NOT_AUTHORIZED);
    const rows = await latestOutboxMail(db, query);
    return rows.map((row) => ({
      id: row.id,
      to_address: row.to_address,
      subject: row.subject,
      body_text: row.body_text,
      created_at: new Date(row.created_at).toISOString(),
      sent_at: row.sent_at ? new Date(row.sent_at).toISOString() : null,
    }));
  });
}
