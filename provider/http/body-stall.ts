import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Calls `answer` when a request's body stops arriving for `stallMs` (a client that declared a body
 * and sends none holds a connection and memory until Node's 5-minute request timeout otherwise;
 * issue 40, ADR 0072). Progress is read off the socket, which the HTTP parser reads whether or not
 * the server has started on the body yet; a body held back because its reader is not reading (its
 * buffer full) is not stalled. The app's server and the provider's both use it.
 */
export function watchForStall(
  req: IncomingMessage,
  res: ServerResponse,
  stallMs: number,
  answer: (res: ServerResponse) => void,
): void {
  if (req.complete) return;
  let bytesRead = req.socket.bytesRead;
  const check = () => {
    if (req.complete || res.headersSent || req.destroyed) return;
    const progressed = req.socket.bytesRead !== bytesRead;
    const heldByReader = req.readableLength >= req.readableHighWaterMark;
    if (progressed || heldByReader) {
      bytesRead = req.socket.bytesRead;
      timer = setTimeout(check, stallMs).unref();
      return;
    }
    res.once("finish", () => req.destroy());
    answer(res);
  };
  let timer = setTimeout(check, stallMs).unref();
  const stop = () => clearTimeout(timer);
  req.once("end", stop);
  res.once("close", stop);
}
