import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { createMailer } from "./mailer.ts";

/** A minimal SMTP server on loopback that keeps what it receives (no TLS, no auth). */
function fakeSmtp(): Promise<{
  url: string;
  received: { from: string; to: string[]; data: string }[];
  close(): Promise<void>;
}> {
  const received: { from: string; to: string[]; data: string }[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    let buffer = "";
    let inData = false;
    let current = { from: "", to: [] as string[], data: "" };
    socket.write("220 fake-smtp ready\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: "", to: [], data: "" };
          socket.write("250 queued\r\n");
          continue;
        }
        const eol = buffer.indexOf("\r\n");
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "MAIL") current.from = line;
        if (verb === "RCPT") current.to.push(line);
        if (verb === "DATA") inData = true;
        if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write(verb === "DATA" ? "354 go ahead\r\n" : "250 ok\r\n");
      }
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `smtp://127.0.0.1:${port}`,
        received,
        close: () =>
          new Promise<void>((r) => {
            for (const s of sockets) s.destroy();
            server.close(() => r());
          }),
      });
    });
  });
}

let provider: TestProvider;
beforeAll(async () => {
  provider = await testProvider({ seedDemo: false });
});
afterAll(() => provider.close());

describe("mailer", () => {
  it("writes to mail_outbox when no SMTP server is set", async () => {
    const mailer = createMailer({ db: provider.context.db, from: "PutSeller <no-reply@example.com>" });
    expect(mailer.kind).toBe("outbox");
    await mailer.send({ to: "someone@example.com", subject: "Hello", text: "Body text" });
    const rows = await provider.context.db
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", "someone@example.com")
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: "Hello", body_text: "Body text", sent_at: null });
  });

  it("sends by SMTP when SMTP_URL is set, and stores nothing", async () => {
    const smtp = await fakeSmtp();
    try {
      const mailer = createMailer({
        db: provider.context.db,
        smtpUrl: smtp.url,
        from: "PutSeller <no-reply@example.com>",
      });
      expect(mailer.kind).toBe("smtp");
      await mailer.send({
        to: "smtp-user@example.com",
        subject: "Reset your PutSeller password",
        text: "Open this link",
      });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.from).toContain("no-reply@example.com");
      expect(smtp.received[0]!.to[0]).toContain("smtp-user@example.com");
      expect(smtp.received[0]!.data).toContain("Subject: Reset your PutSeller password");
      expect(smtp.received[0]!.data).toContain("Open this link");
      const rows = await provider.context.db
        .selectFrom("mail_outbox")
        .selectAll()
        .where("to_address", "=", "smtp-user@example.com")
        .execute();
      expect(rows).toHaveLength(0);
    } finally {
      await smtp.close();
    }
  });
});
