/**
 * The live relay's session checks (does the provider still accept this token?), queued (ADR 0070).
 * Every upgrade asks, and every open session is asked again each minute, so a reconnect after a
 * restart, or the minute's recheck, asks for thousands at once.
 *
 * At most `concurrency` calls are under way, so the provider never gets thousands at once; the
 * rest wait in arrival order, the urgent ones (a browser waiting for its socket) before the others
 * (the recheck of sockets already open). A token's check that is still waiting answers every later
 * ask for that token too: it has not been sent, so its answer is no older than theirs. That sharing
 * is what kept the heap small when a session's sockets all connected at once (docs/benchmarks.md).
 * A check already sent is never shared, so a session signed out meanwhile is refused by the next ask.
 */
export type Verify = (token: string) => Promise<boolean>;
export type QueuedVerify = (token: string, options?: { urgent?: boolean }) => Promise<boolean>;

interface Waiting {
  answer: Promise<boolean>;
  start(): void;
}

export function queuedVerify(verify: Verify, { concurrency = 8 } = {}): QueuedVerify {
  // Checks not yet sent, oldest first (a Map keeps insertion order).
  const urgent = new Map<string, Waiting>();
  const later = new Map<string, Waiting>();
  let running = 0;

  function startNext(): void {
    for (const queue of [urgent, later]) {
      for (const [token, check] of queue) {
        if (running >= concurrency) return;
        queue.delete(token);
        running++;
        check.start();
      }
    }
  }

  return (token, { urgent: isUrgent = false } = {}) => {
    const queue = isUrgent ? urgent : later;
    const waiting = urgent.get(token) ?? later.get(token);
    if (waiting) {
      // An urgent ask takes a waiting check of the same token ahead with it.
      if (isUrgent && later.delete(token)) urgent.set(token, waiting);
      return waiting.answer;
    }
    let start!: () => void;
    const answer = new Promise<void>((resolve) => (start = resolve))
      .then(() => verify(token))
      .finally(() => {
        running--;
        startNext();
      });
    queue.set(token, { answer, start });
    startNext();
    return answer;
  };
}
