import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { canSendPrepared, prepareFrame, sendPrepared } from "../../server/ws-prepared-frame.ts";

/**
 * The relay's fan-out frames a message once (with ws's own framer) and writes those bytes to every
 * browser: each arrives as the same text or binary message, in order, whatever its length class,
 * and the fast path (ws's internal `_sender.sendFrame`) is really taken with the ws installed.
 */
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
