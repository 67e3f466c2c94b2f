import { useEffect, useRef } from "react";
import { useFetcher, useNavigate, useSearchParams } from "react-router";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import {
  generatedTicker,
  INSIGHTS_PARAM as PARAM,
  INSIGHTS_PATH,
  insightsSearch,
  openTicker,
  type GenerateReply,
} from "#app/lib/insights.ts";
import { INSIGHTS_INTENT } from "#app/lib/insights-intents.ts";
import { EnhancedField } from "#app/components/enhanced-field.tsx";
import { Spinner } from "#app/components/spinner.tsx";
import { SparklesIcon } from "#app/components/icons.tsx";
import { useReplyToast } from "#app/hooks/use-reply-toast.ts";

/**
 * Generate recommendations for one ticker (docs/product.md#screens-insights, #errors-ai). A plain form without JavaScript (the
 * answer comes back as a toast on the reloaded list); with it, posted in place. Either way a
 * successful generation expands its stock.
 */
export function GenerateForm({ action }: { action: string }) {
  const fetcher = useFetcher<GenerateReply>();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const formRef = useRef<HTMLFormElement>(null);
  useReplyToast(fetcher.data);

  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    const ticker = generatedTicker(fetcher.data);
    if (!ticker) return;
    // Cleared only while it still shows the generated ticker: the page reloads its data before this
    // runs, and a trader may type the next ticker meanwhile (a reset erased it).
    const input = formRef.current?.elements.namedItem("ticker");
    if (input instanceof HTMLInputElement && input.value === ticker) input.value = "";
    if (openTicker(searchParams.get(PARAM.open)) !== ticker) {
      void navigate(
        INSIGHTS_PATH +
          insightsSearch(searchParams, (p) => {
            p.set(PARAM.open, ticker);
            p.delete(PARAM.date);
          }),
        { replace: true, preventScrollReset: true },
      );
    }
  });
  const busy = fetcher.state !== "idle";

  return (
    <fetcher.Form method="post" action={action} className="ins-generate" ref={formRef}>
      <div className="ins-field">
        <label htmlFor="ins-generate-ticker">Generate for a ticker</label>
        <span className="ins-input">
          <input
            id="ins-generate-ticker"
            name="ticker"
            placeholder="E.g., AAPL"
            required
            maxLength={10}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            onInput={(event) => {
              // docs/product.md#validation-stock: only letters and digits, upper case.
              const input = event.currentTarget;
              const clean = sanitizeTicker(input.value);
              if (clean !== input.value) input.value = clean;
            }}
          />
        </span>
      </div>
      <EnhancedField />
      <input type="hidden" name="intent" value={INSIGHTS_INTENT.generate} />
      <button type="submit" className="button button--primary ins-generate__submit" disabled={busy}>
        {busy ? <Spinner label="Generating" /> : <SparklesIcon aria-hidden="true" />}
        Generate
      </button>
    </fetcher.Form>
  );
}
