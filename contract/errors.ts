import { z } from "zod";

/**
 * Errors use FastAPI's shape. Our provider always sends a readable string;
 * an external FastAPI provider may send its validation list, which we also accept.
 */
const ValidationIssue = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string().optional(),
});

const ErrorBody = z.object({
  detail: z.union([z.string(), z.array(ValidationIssue)]),
});

/** The text a person should read from an error body, or undefined when it has none. */
export function detailText(body: unknown): string | undefined {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) {
    const { detail } = parsed.data;
    if (typeof detail === "string") return detail;
    return detail.map((issue) => `${issue.loc.join(".")}: ${issue.msg}`).join("; ");
  }
  if (body && typeof body === "object" && "message" in body && typeof body.message === "string") {
    return body.message;
  }
  return undefined;
}
