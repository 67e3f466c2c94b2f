import type { z } from "zod";

/** An error with a status and a `detail` a person can read (FastAPI's shape). */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, detail: string, headers: Record<string, string> = {}) {
    super(detail);
    this.status = status;
    this.headers = headers;
  }
}

export const notFound = (detail = "Not found") => new HttpError(404, detail);
export const forbidden = (detail: string) => new HttpError(403, detail);
export const unauthorized = (detail = "Not authenticated") =>
  new HttpError(401, detail, { "WWW-Authenticate": "Bearer" });
export const conflict = (detail: string) => new HttpError(409, detail);
export const unprocessable = (detail: string) => new HttpError(422, detail);

/** One readable line per problem: `base_iv: Too big: expected number to be <=9999999`. */
export function describeZodError(error: z.ZodError, where: string): string {
  return error.issues
    .map((issue) => {
      const path = [where, ...issue.path.map(String)].filter(Boolean).join(".");
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

export function errorResponse(error: HttpError): Response {
  return json({ detail: error.message }, error.status, error.headers);
}
