/**
 * Whether `error` says the database connection was lost or cannot be had (a restart, a failover,
 * an operator's pg_terminate_backend): the request is answered 503 and may be retried, rather
 * than 500. SQLSTATE class 08 is "connection exception"; 57P01–57P03 are the server shutting
 * down or not yet accepting connections. A pooled client the database dropped and that is used
 * again (a transaction's ROLLBACK after its query lost the connection) says "Client was closed and
 * is not queryable", which answered 500 before (issue 40, finding 9).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  // A wrapped error (a rollback's failure naming the query's) is read through to what caused it.
  if (depth < 5 && cause !== undefined && isDatabaseUnavailable(cause, depth + 1)) return true;
  if (typeof code === "string") {
    if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03") return true;
    if (code === "ECONNREFUSED" || code === "ECONNRESET" || code === "EPIPE" || code === "ETIMEDOUT") return true;
  }
  return (
    typeof message === "string" &&
    /Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|Connection closed|timeout exceeded when trying to connect/i.test(
      message,
    )
  );
}

export const DATABASE_UNAVAILABLE = "The database is unavailable at the moment; try again in a few seconds";
