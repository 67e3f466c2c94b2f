import { data } from "react-router";
import { messages } from "#app/lib/messages.ts";

/** The encodings an HTML form posts in. */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * The posted form of a page's action. What is not a form answers 4xx with a sentence the page's
 * error screen shows, instead of the 500 `request.formData()` throws (issue 40, finding 6): any other
 * type (text/plain, JSON, binary) 415, a form that cannot be decoded (multipart without its
 * boundary, a broken part) 400. A post with no type and no body is an empty form, so the page
 * names its missing fields as for any empty form.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "") {
    if ((await request.text()) === "") return new FormData();
    throw data(messages.formNotAForm, { status: 415 });
  }
  if (!FORM_TYPES.has(type)) throw data(messages.formNotAForm, { status: 415 });
  try {
    return await request.formData();
  } catch {
    throw data(messages.formUnreadable, { status: 400 });
  }
}
