import { startTransition, useEffect, useState } from "react";

/**
 * "Now" for age texts ("5 minutes ago"): the server's clock in the first render (so the
 * browser's hydration matches the HTML), then the browser's, refreshed every `everyMs`. A new "now"
 * renders every row of a list again, so it comes as a transition: in slices, never one long task.
 */
export function useNow(serverNow: number, everyMs = 30_000): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const tick = () => startTransition(() => setNow(Date.now()));
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, everyMs);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [everyMs]);
  return now;
}
