import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { SEARCH_DEBOUNCE_MS } from "#app/lib/stock-list.ts";
import { useFieldState } from "./use-field-at-hydration.ts";

/**
 * A search box whose text is written to the URL (`name`) a moment after the typing stops
 * (docs/product.md#constants-timings): `query` is what the box shows, `appliedQuery` what the
 * list filters by. Without JavaScript the URL's value is both.
 */
export function useDebouncedQuery(
  name: string,
  { fieldId, delayMs = SEARCH_DEBOUNCE_MS }: { fieldId?: string; delayMs?: number } = {},
) {
  const [searchParams, setSearchParams] = useSearchParams();
  const urlQuery = searchParams.get(name) ?? "";
  // The box's text at hydration (typed before the scripts ran) is where the search starts (ADR 0084):
  // it differs from the applied (URL's) text, so the list follows it like any typing.
  const [query, setQuery] = useFieldState(fieldId ?? "", urlQuery);
  const [appliedQuery, setAppliedQuery] = useState(urlQuery);

  useEffect(() => {
    if (query === appliedQuery) return;
    const pending = setTimeout(() => {
      setAppliedQuery(query);
      setSearchParams(
        (params) => {
          if (query) params.set(name, query);
          else params.delete(name);
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    }, delayMs);
    return () => clearTimeout(pending);
  }, [query, appliedQuery, setSearchParams, name, delayMs]);

  return {
    urlQuery,
    query,
    setQuery,
    appliedQuery,
    /**
     * Applies a text at once (a link that carries it in its own address): the pending write of the
     * old one is cancelled when the two agree.
     */
    setAppliedQuery,
    /** Empties the box and the list's filter; `alsoDrop` names more URL state to leave with it. */
    clear(alsoDrop: readonly string[] = []) {
      setQuery("");
      setAppliedQuery("");
      setSearchParams(
        (params) => {
          for (const param of [name, ...alsoDrop]) params.delete(param);
          return params;
        },
        { replace: true, preventScrollReset: true },
      );
    },
  };
}
