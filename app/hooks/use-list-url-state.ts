import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";

/**
 * A stock list's URL state (app/lib/list-url-state.ts) and its addresses with one change each:
 * links and forms work without JavaScript, and Back closes what a link opened (ADR 9). `listUrl`
 * keeps its identity until the URL changes, so the rows built with it can skip renders (ADR 0055).
 */
export function useListUrlState(path: string) {
  const [searchParams] = useSearchParams();
  const listUrl = useCallback(
    (change: (params: URLSearchParams) => void = () => {}) => {
      const params = new URLSearchParams(searchParams);
      change(params);
      const search = params.toString();
      return search ? `${path}?${search}` : path;
    },
    [searchParams, path],
  );
  return {
    searchParams,
    listUrl,
    reordering: searchParams.get(LIST_PARAM.reorder) === "1",
  };
}
