import webpush from "web-push";
import type { Db } from "#provider/db/client.ts";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** Who runs this sender: a mailto: or https: URL that push services may contact. */
  subject: string;
}

const DEFAULT_VAPID_SUBJECT = "mailto:admin@localhost";

/**
 * The VAPID key pair: from the settings when given, else generated on first start and kept
 * in app_secrets, so every provider process and every restart signs with the same pair
 * (browsers' subscriptions are bound to the public key).
 */
export async function loadVapidKeys(
  db: Db,
  given: { publicKey?: string | undefined; privateKey?: string | undefined; subject?: string | undefined } = {},
): Promise<VapidKeys> {
  const subject = given.subject ?? DEFAULT_VAPID_SUBJECT;
  if (given.publicKey && given.privateKey) {
    return { publicKey: given.publicKey, privateKey: given.privateKey, subject };
  }
  const fresh = webpush.generateVAPIDKeys();
  // One pair, never two halves of different pairs: both rows go in one transaction, first writer wins.
  await db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom("app_secrets")
      .select("name")
      .where("name", "=", "vapid_public_key")
      .executeTakeFirst();
    if (existing) return;
    await tx
      .insertInto("app_secrets")
      .values([
        { name: "vapid_public_key", value: fresh.publicKey },
        { name: "vapid_private_key", value: fresh.privateKey },
      ])
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
  });
  const rows = await db
    .selectFrom("app_secrets")
    .select(["name", "value"])
    .where("name", "in", ["vapid_public_key", "vapid_private_key"])
    .execute();
  const value = (name: string) => rows.find((r) => r.name === name)?.value;
  const publicKey = value("vapid_public_key");
  const privateKey = value("vapid_private_key");
  if (!publicKey || !privateKey) throw new Error("VAPID keys could not be stored");
  return { publicKey, privateKey, subject };
}
