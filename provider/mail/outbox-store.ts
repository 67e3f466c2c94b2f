import type { Db } from "#provider/db/client.ts";

/**
 * The mail_outbox table as admins read it (docs/product.md#additions-calls): newest first, at most
 * `limit` rows, optionally only those sent to one address. mailer.ts writes the rows.
 */
export function latestOutboxMail(db: Db, { limit, to }: { limit: number; to?: string | undefined }) {
  let select = db.selectFrom("mail_outbox").selectAll().orderBy("id", "desc").limit(limit);
  if (to) select = select.where("to_address", "=", to);
  return select.execute();
}
