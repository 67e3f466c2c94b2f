import type { AiStreamState } from "#app/lib/ai-stream.ts";

/**
 * Streamed AI text as it arrives (docs/product.md#states-ai). While the stream has not sent anything yet it shows
 * `pendingLabel` (the AI analysis modal passes 'Analysing ...'); an error shows the text of docs/product.md#errors-ai
 * under whatever arrived before it. Screen readers hear the text once, when it is complete.
 */
export function AiText({
  state,
  pendingLabel,
  className,
}: {
  state: Pick<AiStreamState, "text" | "status" | "error">;
  pendingLabel?: string;
  className?: string;
}) {
  const streaming = state.status === "streaming";
  return (
    <div className={["ai-text", className].filter(Boolean).join(" ")} aria-busy={streaming} aria-live="polite">
      {streaming && !state.text && pendingLabel ? <p className="ai-text__pending">{pendingLabel}</p> : null}
      {state.text ? <p className="ai-text__body">{state.text}</p> : null}
      {state.status === "error" && state.error ? (
        <p className="ai-text__error" role="alert">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}
