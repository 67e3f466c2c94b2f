import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { canSendPrepared, prepareFrame, sendPrepared } from "../../server/ws-prepared-frame.ts";

/**
 * The relay's fan-out frames a message once and writes those bytes to every browser: the frame is
 * the one ws itself would build, arrives as the same text message, and the fast path (ws's
 * internal `_sender.sendFrame`) is really taken with the ws version installed.
 */
const { Sender } = createRequire(import.meta.url)("ws") as {
  Sender: { frame(data: Buffer, options: object): Buffer[] };
};
const sizes = [0, 5, 125, 126, 65_535, 65_536, 70_000];
const text = (size: number) => "x".repeat(size);

let server: ReturnType<typeof createServer>;
let wss: WebSocketServer;
let url: string;

beforeAll(async () => {
  server = createServer();
  wss = new WebSocketServer({ server, perMessageDeflate: false });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => wss.close(resolve));
  await new Promise((resolve) => server.close(resolve));
});

describe("prepared websocket frames", () => {
  it.each(sizes)("a %i-byte message is framed as ws frames it, as text or binary", (size) => {
    const payload = Buffer.from(text(size));
    for (const [binary, opcode] of [
      [false, 1],
      [true, 2],
    ] as const) {
      const expected = Buffer.concat(
        Sender.frame(payload, { fin: true, opcode, mask: false, readOnly: true, rsv1: false }),
      );
      expect(prepareFrame(payload, binary).frame.equals(expected)).toBe(true);
    }
  });

  it("reaches several clients as the same text messages, in order, through ws's own sender", async () => {
    const connected = new Promise<WebSocket[]>((resolve) => {
      const sockets: WebSocket[] = [];
      wss.on("connection", (ws) => sockets.push(ws) === 3 && resolve(sockets));
    });
    const clients = Array.from({ length: 3 }, () => new WebSocket(url, { perMessageDeflate: false }));
    const received = clients.map((client) => {
      const messages: { data: string; isBinary: boolean }[] = [];
      client.on("message", (data, isBinary) => messages.push({ data: String(data), isBinary }));
      return messages;
    });
    const sockets = await connected;
    expect(sockets.every(canSendPrepared)).toBe(true);
    for (const size of sizes) {
      const prepared = prepareFrame(Buffer.from(text(size)));
      for (const ws of sockets) sendPrepared(ws, prepared);
    }
    const binary = prepareFrame(Buffer.from("bytes"), true);
    for (const ws of sockets) sendPrepared(ws, binary);
    const end = Date.now() + 5_000;
    while (received.some((m) => m.length <= sizes.length) && Date.now() < end)
      await new Promise((r) => setTimeout(r, 10));
    for (const messages of received) {
      expect(messages.map((m) => m.data.length)).toEqual([...sizes, 5]);
      expect(messages.slice(0, -1).every((m) => !m.isBinary && /^x*$/.test(m.data))).toBe(true);
      expect(messages.at(-1)).toEqual({ data: "bytes", isBinary: true });
    }
    for (const client of clients) client.close();
  });
});
