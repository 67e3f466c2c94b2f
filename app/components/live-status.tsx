import { useRouteLoaderData } from "react-router";
import { useLiveStatus, type LivePath, type LiveStatus } from "#app/hooks/use-live-updates.ts";

const TEXT: Record<LiveStatus, string> = {
  off: "Live updates off",
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
};

/**
 * Whether live data is connected, in words (the dot's colour only repeats them). A polite live
 * region, so a screen reader hears when updates stop and resume.
 */
export function LiveStatusBadge({ path, className }: { path: LivePath; className?: string }) {
  const status = useLiveStatus(path);
  // The shell's loader sends the market line as finished text (docs/product.md#states-market).
  const note = (useRouteLoaderData("routes/shell/route") as { marketNote?: string } | undefined)?.marketNote;
  return (
    <>
      <span
        className={["live-status", className].filter(Boolean).join(" ")}
        data-status={status}
        role="status"
        aria-live="polite"
        title={status === "live" ? "Prices update as they change" : undefined}
      >
        <span className="live-status__dot" aria-hidden="true" />
        {TEXT[status]}
      </span>
      {note ? <span className="market-note">{note}</span> : null}
    </>
  );
}
