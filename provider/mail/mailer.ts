import type { Transporter } from "nodemailer";
import type { Db } from "#provider/db/client.ts";

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends mail by SMTP when SMTP_URL is set; otherwise writes it to the mail_outbox table,
 * where an operator (or a test) can read it. Without SMTP nothing leaves the machine.
 */
export interface Mailer {
  /** `smtp` sends now; `outbox` stores the message in mail_outbox. */
  readonly kind: "smtp" | "outbox";
  send(mail: OutgoingMail): Promise<void>;
}

export interface MailerOptions {
  db: Db;
  /** e.g. smtp://user:pass@smtp.example.com:587 or smtps://…:465 */
  smtpUrl?: string | undefined;
  from: string;
}

export function createMailer({ db, smtpUrl, from }: MailerOptions): Mailer {
  if (!smtpUrl) {
    return {
      kind: "outbox",
      async send(mail) {
        await db
          .insertInto("mail_outbox")
          .values({ to_address: mail.to, subject: mail.subject, body_text: mail.text })
          .execute();
      },
    };
  }
  let transport: Promise<Transporter> | undefined;
  return {
    kind: "smtp",
    async send(mail) {
      // nodemailer is loaded on first use, so a provider without SMTP never pays for it.
      transport ??= import("nodemailer").then((m) => m.default.createTransport(smtpUrl));
      await (await transport).sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
