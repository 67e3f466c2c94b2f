import type { HrefWithSearch } from "#app/lib/href.ts";
import { useEffect, useState } from "react";
import { SEARCH_DEBOUNCE_MS } from "#app/lib/stock-list.ts";

type CompanyNameLookup =
  | { status: "idle" }
  | { status: "loading"; ticker: string }
  | { status: "found"; ticker: string; name: string }
  | { status: "unknown"; ticker: string }
  | { status: "failed"; ticker: string; message: string };

type Answer = Exclude<CompanyNameLookup, { status: "idle" } | { status: "loading" }>;

/**
 * docs/product.md#validation-stock: the Stock Name is looked up from the ticker, 300 ms after typing stops, through
 * the app's resource route. An answer counts only for the ticker it was asked for.
 */
export function useCompanyName(ticker: string, { enabled = true } = {}): CompanyNameLookup {
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (!enabled || !ticker) return;
    const abort = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(
          `/resources/company-name?ticker=${encodeURIComponent(ticker)}` satisfies HrefWithSearch,
          {
            signal: abort.signal,
            headers: { accept: "application/json" },
          },
        );
        const body = (await response.json().catch(() => ({}))) as { name?: string; detail?: string };
        if (response.ok && body.name) setAnswer({ status: "found", ticker, name: body.name });
        else if (response.status === 404) setAnswer({ status: "unknown", ticker });
        else setAnswer({ status: "failed", ticker, message: body.detail ?? "The name could not be looked up." });
      } catch (error) {
        if (abort.signal.aborted) return;
        setAnswer({
          status: "failed",
          ticker,
          message: (error as Error).message || "The name could not be looked up.",
        });
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [ticker, enabled]);

  if (!enabled || !ticker) return { status: "idle" };
  if (answer?.ticker !== ticker) return { status: "loading", ticker };
  return answer;
}
