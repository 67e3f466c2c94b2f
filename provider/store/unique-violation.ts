/** PostgreSQL's SQLSTATE for a unique constraint (PGlite and a server alike). */
const UNIQUE_VIOLATION = "23505";

/** Whether a write failed because a unique constraint already holds the value: callers answer 409 or retry. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === UNIQUE_VIOLATION;
}
