import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Cooperative slicing for work that grows with a request's input (an import's lines): call the
 * returned function often; it lets the event loop run other requests once `sliceMs` of work has
 * gone by, so one big file never holds up everyone else (docs/decisions/0073-imports-in-linear-time.md).
 */
export function pacer(sliceMs = 20): () => Promise<void> | undefined {
  let sliceStart = performance.now();
  return () => {
    if (performance.now() - sliceStart < sliceMs) return undefined;
    return nextTurn().then(() => {
      sliceStart = performance.now();
    });
  };
}
