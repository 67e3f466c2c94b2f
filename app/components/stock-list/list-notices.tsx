import type { ReactNode } from "react";

/**
 * A stock list's notes above its rows (docs/product.md#errors-lists): the load's failure, the empty
 * list, or a search (or chip) that matches nothing.
 */
export function ListNotices({
  error,
  listed,
  shown,
  empty,
  noMatch,
}: {
  error: string | null;
  /** How many rows the list has, and how many the search shows. */
  listed: number;
  shown: number;
  empty: ReactNode;
  noMatch: ReactNode;
}) {
  return (
    <>
      {error ? (
        <p className="list-error" role="alert">
          {error}
        </p>
      ) : null}
      {!error && listed === 0 ? <div className="list-empty">{empty}</div> : null}
      {listed > 0 && shown === 0 ? (
        <p className="list-empty" role="status">
          {noMatch}
        </p>
      ) : null}
    </>
  );
}
