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

/** Field names a refusal may carry, in the words the forms use (docs/product.md). */
const FIELD_WORDS: Record<string, string> = {
  csv: "The file",
  base_iv: "Base Value",
  conservative_iv: "Cons Value",
  average_iv: "Average Value",
  buy_level_one: "1st buy level",
  buy_level_two: "2nd buy level",
  buy_level_three: "3rd buy level",
  buy_level_four: "4th buy level",
};

/**
 * One problem in words (issue 46): "query.dte_max: 'Days to expiry to' must be …" reads as its
 * sentence alone, which already names the field; "body.csv: The file is empty" too; a bare zod
 * message keeps the field, named as a person would ("Base Value: Too big: …").
 */
function inWords(path: readonly (string | number)[], message: string): string {
  if (
    /^['"A-Z]/.test(message) &&
    !/^(Invalid|Too (big|small)|Unrecognized|Expected|Input should|Field required)\b/.test(message)
  )
    return message;
  const field = [...path]
    .reverse()
    .find((p) => typeof p === "string" && !["body", "query", "params", "path"].includes(p));
  if (field === undefined) return message;
  const name =
    FIELD_WORDS[field as string] ?? (field as string).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
  return `${name}: ${message}`;
}

/** A provider detail's "where.field: message" parts, in words. */
function wordedDetail(detail: string): string {
  return detail
    .split("; ")
    .map((part) => {
      const match = /^((?:body|query|params|path)(?:\.[\w[\]]+)*): (.*)$/s.exec(part);
      return match ? inWords(match[1]!.split("."), match[2]!) : part;
    })
    .join("; ");
}

/** The text a person should read from an error body, or undefined when it has none. */
export function detailText(body: unknown): string | undefined {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success) {
    const { detail } = parsed.data;
    if (typeof detail === "string") return wordedDetail(detail);
    return detail.map((issue) => inWords(issue.loc, issue.msg)).join("; ");
  }
  if (body && typeof body === "object" && "message" in body && typeof body.message === "string") {
    return body.message;
  }
  return undefined;
}
