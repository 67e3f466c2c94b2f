import { useEffect } from "react";
import { Link } from "react-router";
import { AI_ROUTES, type AiStreamState } from "#app/lib/ai-stream.ts";
import { messages } from "#app/lib/messages.ts";
import { useAiStream } from "#app/hooks/use-ai-stream.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { AiText } from "#app/components/ai-text.tsx";
import { SparklesIcon } from "#app/components/icons.tsx";
import { Modal } from "#app/components/modal.tsx";

/**
 * docs/product.md#states-ai: the streamed analysis of one stock, reached by URL
 * (`?ai=AAPL`). Each opening mounts it afresh, so the text starts empty; it shows 'Analysing ...'
 * while the text streams; leaving it (close button, Escape, the browser's back) unmounts it, which
 * cancels the stream and drops the text. A page the server rendered with the modal open (no
 * JavaScript, or a shared link) brings the whole text along instead (`serverResult`).
 */
export function AiAnalysisModal({
  ticker,
  name,
  serverResult,
  closeTo,
  onClose,
}: {
  ticker: string;
  name: string | undefined;
  /** The text the server read for this page, if it did; otherwise the browser streams it. */
  serverResult: { text: string; error: string | null } | null;
  /** The list's address without the modal (its close link without JavaScript). */
  closeTo: string;
  onClose: () => void;
}) {
  const hydrated = useHydrated();
  const ai = useAiStream();
  const { start } = ai;
  const autoStart = serverResult === null;
  useEffect(() => {
    if (autoStart) start(AI_ROUTES.stockAnalysis, { ticker });
  }, [autoStart, start, ticker]);

  const fromServer = ai.status === "idle" && !ai.text && serverResult;
  const state: AiStreamState = fromServer
    ? { text: serverResult.text, status: serverResult.error ? "error" : "done", error: serverResult.error }
    : ai;
  const streaming = state.status === "streaming";

  return (
    <Modal
      title={
        <>
          <SparklesIcon className="uip-ai__title-icon" /> AI analysis: {ticker}
        </>
      }
      closeTo={closeTo}
      onClose={onClose}
      className="uip-ai"
    >
      {/* Focusable so a keyboard can scroll a long text (axe: scrollable-region-focusable). */}
      <div className="uip-ai__body" tabIndex={0} role="region" aria-label={`AI analysis of ${ticker}`}>
        {name ? <p className="uip-ai__name">{name}</p> : null}
        <AiText state={state} pendingLabel={messages.aiAnalysing} />
      </div>
      <div className="uip-ai__footer">
        <span className="uip-ai__status" role="status">
          {streaming && state.text ? messages.aiAnalysing : null}
        </span>
        {hydrated && streaming ? (
          <button type="button" className="button" onClick={ai.cancel}>
            Stop
          </button>
        ) : null}
        {hydrated && !streaming ? (
          <button type="button" className="button" onClick={() => start(AI_ROUTES.stockAnalysis, { ticker })}>
            <SparklesIcon /> Analyse again
          </button>
        ) : null}
        <Link
          to={closeTo}
          replace
          preventScrollReset
          className="button button--primary"
          onClick={(event) => {
            event.preventDefault();
            onClose();
          }}
        >
          Close
        </Link>
      </div>
    </Modal>
  );
}
