import type { RequestHandler } from "express";

/**
 * Pages are started in the order their requests arrived, one per turn of the event loop (ADR 0069).
 *
 * A page's render is several milliseconds of work the process does without yielding. Node reads
 * every connection that had a request ready when it last looked, then renders them one after the
 * other before it looks again. A connection whose next request arrives a moment after that look
 * (the one served last, which asks again at once) waits out the whole next batch: under load one
 * connection in ten took twice as long as the rest. Here the requests read in a look are queued,
 * and each turn starts the oldest one, after the event loop has looked for new requests again, so
 * a request waits for those that came before it and no others.
 *
 * Nothing waits when nothing is queued but one turn of the loop (microseconds). What a page does
 * after its start (the provider's answer, streaming) interleaves as before.
 */
export function arrivalOrder(): RequestHandler {
  const queue: (() => void)[] = [];
  let turnScheduled = false;

  function startOldest() {
    turnScheduled = false;
    const start = queue.shift();
    // The next turn first: the queue moves on whatever this request's start does.
    if (queue.length > 0) scheduleTurn();
    start?.();
  }
  function scheduleTurn() {
    if (turnScheduled) return;
    turnScheduled = true;
    // setImmediate runs after the event loop's poll for I/O: requests that arrived meanwhile are
    // queued before the next one starts.
    setImmediate(startOldest);
  }

  return (_req, _res, next) => {
    queue.push(() => next());
    scheduleTurn();
  };
}
