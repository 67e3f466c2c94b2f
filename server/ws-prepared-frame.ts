/**
 * Sending one message to many websockets without framing it once per socket (the relay's fan-out,
 * ADR 0013). A server's frames are not masked and the relay negotiates no extension
 * (permessage-deflate is off), so the bytes on the wire are the same for every browser: they are
 * built once per message and written as they are.
 */
import type { WebSocket } from "ws";

/** A message, and its complete frame (`list`: as ws's Sender takes it, built once too). */
export interface PreparedFrame {
  readonly payload: Buffer;
  readonly binary: boolean;
  readonly frame: Buffer;
  readonly list: readonly [Buffer];
}

/** Frames a message once (RFC 6455 §5.2): FIN, opcode 1 (text) or 2 (binary), unmasked, uncompressed. */
export function prepareFrame(payload: Buffer, binary = false): PreparedFrame {
  const length = payload.length;
  const header = length < 126 ? 2 : length < 65536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = binary ? 0x82 : 0x81;
  if (length < 126) frame[1] = length;
  else if (length < 65536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, header);
  return { payload, binary, frame, list: [frame] };
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
