import { useCallback, useEffect, useRef, useState } from "react";
import { AI_IDLE, streamAiText, type AiStreamState } from "#app/lib/ai-stream.ts";

interface AiStream extends AiStreamState {
  /** Starts a stream (cancelling any running one): the text clears and fills as pieces arrive. */
  start(url: string, body: unknown): void;
  /** Stops the running stream (its fetch is aborted); the text so far stays, status becomes idle. */
  cancel(): void;
  /** Cancels and clears: back to idle with no text. */
  reset(): void;
}

/**
 * An AI text streamed from one of the app's resource routes (app/lib/ai-stream.ts AI_ROUTES).
 * Used by the UIP list's AI analysis modal (open: start, close: reset) and the option detail's
 * 'Explain' (status "streaming" shows 'Thinking...'). Unmounting cancels.
 */
export function useAiStream(): AiStream {
  const [state, setState] = useState<AiStreamState>(AI_IDLE);
  const running = useRef<AbortController | null>(null);

  const stop = useCallback(() => {
    running.current?.abort();
    running.current = null;
  }, []);

  const start = useCallback(
    (url: string, body: unknown) => {
      stop();
      const abort = new AbortController();
      running.current = abort;
      setState({ text: "", status: "streaming", error: null });
      void streamAiText(url, body, {
        signal: abort.signal,
        onText: (piece) => {
          if (running.current === abort) setState((s) => ({ ...s, text: s.text + piece }));
        },
      }).then((outcome) => {
        if (running.current !== abort) return; // cancelled or replaced meanwhile
        running.current = null;
        if (outcome.kind === "redirect") window.location.assign(outcome.url);
        else if (outcome.kind === "error") setState((s) => ({ ...s, status: "error", error: outcome.error }));
        else if (outcome.kind === "done") setState((s) => ({ ...s, status: "done" }));
      });
    },
    [stop],
  );

  const cancel = useCallback(() => {
    stop();
    setState((s) => (s.status === "streaming" ? { ...s, status: "idle" } : s));
  }, [stop]);

  const reset = useCallback(() => {
    stop();
    setState(AI_IDLE);
  }, [stop]);

  useEffect(() => stop, [stop]);

  return { ...state, start, cancel, reset };
}
