/**
 * Sending one message to many websockets without framing it once per socket (the relay's fan-out,
 * ADR 0013). A server's frames are not masked and the relay negotiates no extension
 * (permessage-deflate is off), so the bytes on the wire are the same for every browser: ws's own
 * framer builds them once per message, and they are written as they are.
 */
import * as ws from "ws";
import type { WebSocket } from "ws";

type FrameOptions = { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean };
// ws exports its Sender (the ES module's named export) but its types do not declare it.
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, options: FrameOptions): Buffer[] } };

/** A message, and its complete frame as one buffer (`list`: as ws's Sender takes it). */
export interface PreparedFrame {
  readonly payload: Buffer;
  readonly binary: boolean;
  readonly list: readonly [Buffer];
}

/**
 * Frames a message once with ws's own framer (FIN, text or binary, unmasked, uncompressed), joined
 * into one buffer so that each browser gets one write.
 */
export function prepareFrame(payload: Buffer, binary = false): PreparedFrame {
  const parts = Sender.frame(payload, { fin: true, opcode: binary ? 2 : 1, mask: false, readOnly: true, rsv1: false });
  return { payload, binary, list: [Buffer.concat(parts)] };
}

type WithSender = { _sender?: { sendFrame?: (list: readonly Buffer[]) => void } };

/**
 * Writes a prepared frame to one socket. ws documents no call that sends an already framed
 * message, so this goes through the socket's own Sender (`_sender.sendFrame`: internal, but what
 * every `send` ends with in ws 8), which keeps ws's ordering with pings and the close frame and its
 * bufferedAmount accounting. Sound only because the relay's server has permessage-deflate off
 * (with it, ws may still be compressing an earlier message). Should a ws upgrade drop that
 * internal, it falls back to `send`, which frames again (ws-prepared-frame.test.ts notices).
 */
export function sendPrepared(ws: WebSocket, prepared: PreparedFrame): void {
  const sender = (ws as unknown as WithSender)._sender;
  if (typeof sender?.sendFrame === "function") sender.sendFrame(prepared.list);
  else ws.send(prepared.payload, { binary: prepared.binary });
}

/** Whether `sendPrepared` takes its fast path on this socket (for the test). */
export function canSendPrepared(ws: WebSocket): boolean {
  return typeof (ws as unknown as WithSender)._sender?.sendFrame === "function";
}
