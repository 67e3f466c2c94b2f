import { useSearchParams } from "react-router";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";

/**
 * A stock list's URL state (app/lib/list-url-state.ts) and its addresses with one change each:
 * links and forms work without JavaScript, and Back closes what a link opened (ADR 9).
 */
export function useListUrlState(path: string) {
  const [searchParams] = useSearchParams();
  const listUrl = (change: (params: URLSearchParams) => void = () => {}) => {
    const params = new URLSearchParams(searchParams);
    change(params);
    const search = params.toString();
    return search ? `${path}?${search}` : path;
  };
  return {
    searchParams,
    listUrl,
    reordering: searchParams.get(LIST_PARAM.reorder) === "1",
  };
}
