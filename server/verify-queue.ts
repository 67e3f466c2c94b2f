/**
 * The live relay's session checks (does the provider still accept this token?), queued (ADR 0070).
 * Every upgrade asks, and every open session is asked again each minute, so a reconnect after a
 * restart, or the minute's recheck, asks for thousands at once.
 *
 * At most `concurrency` calls are under way, so the provider never gets thousands at once; the
 * rest wait in arrival order. A token's check that is still waiting answers every later ask for
 * that token too: it has not been sent, so its answer is no older than theirs. That sharing is
 * what kept the heap small when a session's sockets all connected at once (docs/benchmarks.md). A
 * check already sent is never shared, so a session signed out meanwhile is refused by the next ask.
 */
export type Verify = (token: string) => Promise<boolean>;

export function queuedVerify(verify: Verify, { concurrency = 8 } = {}): Verify {
  // Checks not yet sent, oldest first (a Map keeps insertion order).
  const waiting = new Map<string, { answer: Promise<boolean>; start(): void }>();
  let running = 0;

  function startNext(): void {
    for (const [token, check] of waiting) {
      if (running >= concurrency) return;
      waiting.delete(token);
      running++;
      check.start();
    }
  }

  return (token) => {
    const queued = waiting.get(token);
    if (queued) return queued.answer;
    let start!: () => void;
    const answer = new Promise<void>((resolve) => (start = resolve))
      .then(() => verify(token))
      .finally(() => {
        running--;
        startNext();
      });
    waiting.set(token, { answer, start });
    startNext();
    return answer;
  };
}
