import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import * as calls from "#contract/calls.ts";
import type { ReplyToast } from "#app/lib/action-reply.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { levelWarnings, warningsAccepted, type LevelValues } from "#app/lib/level-warnings.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { companyNameOf } from "#app/lib/stock-fields.ts";
import { listFailureToast } from "./action-reply.server.ts";
import { requireUser, userCall } from "./auth.server.ts";
import { ProviderError } from "./provider.server.ts";
import type { SessionUser } from "./session.server.ts";
import { redirectWithToast } from "./toast.server.ts";
import { readForm } from "./form-body.server.ts";

type Context = Readonly<RouterContextProvider>;

/** A new row as the provider takes it: the form's values, and the stock by its ticker and looked-up name. */
type NewStock<Values> = Omit<Values, "ticker" | "name"> & {
  stock: { ticker: string; name: string; current_price: number };
};

/**
 * What differs between adding to the watchlist and to the UIP list (docs/product.md#screens-watchlist-add,
 * #screens-uip-edit): the list it goes back to, who may add, the provider call and the UIP-only category.
 * The two add routes (app/routes/add-user-stock/server.ts, add-uip-stock.server.ts) each give one.
 */
export interface AddStock<Values extends { ticker: string; name: string }> {
  listPath: string;
  /** The form's schema (app/lib/stock-schemas.ts), shared with the page. */
  schema: z.ZodType<Values, Record<string, unknown>>;
  /** The UIP list's category select: a refusal naming the category is shown under it. */
  withCategory?: true;
  /** Adding needs a permission on this list (the UIP list: UIP_STOCK CREATE); others go back to the list with this text. */
  createRefused?: { allowed(user: SessionUser): boolean; text: string };
  create(context: Context, user: SessionUser, body: NewStock<Values>): Promise<{ stock: { ticker: string } }>;
}

/** The signed-in user who may add to this list, or the way back to it. */
export async function requireAdder<Values extends { ticker: string; name: string }>(
  list: AddStock<Values>,
  context: Context,
) {
  const user = requireUser(context);
  if (list.createRefused && !list.createRefused.allowed(user)) {
    throw await redirectWithToast(list.listPath, {
      type: "error",
      text: list.createRefused.text,
      autoClose: TOAST_MS.list,
    });
  }
  return user;
}

/** The posted form, its ticker cleaned as the browser does while typing. */
export async function readAddPost(request: Request): Promise<FormData> {
  const formData = await readForm(request);
  // docs/product.md#validation-stock: letters and digits only, upper case; done here too for browsers without JavaScript.
  const typed = formData.get("ticker");
  if (typeof typed === "string") formData.set("ticker", sanitizeTicker(typed));
  return formData;
}

/** Without JavaScript the name is looked up by the Look up button instead of while typing. */
export async function lookUpName<Values extends { ticker: string; name: string }>(
  list: AddStock<Values>,
  context: Context,
  formData: FormData,
) {
  const ticker = String(formData.get("ticker") ?? "");
  let name = "";
  let problem: string | null = ticker ? null : "Ticker Symbol is required";
  if (ticker) {
    try {
      name = companyNameOf(await userCall(context, calls.companyName, { query: { ticker } }));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      problem = error.status === 404 ? `Unknown ticker: ${ticker}` : (error.detail ?? error.message);
    }
  }
  formData.set("name", name);
  const submission = parseWithZod(formData, { schema: list.schema });
  return data({
    result: submission.reply({ fieldErrors: problem ? { ticker: [problem] } : {} }),
    toast: null,
  });
}

/** The field a refused add is about: a taken or bad ticker, or (UIP list) a bad category; else the whole form. */
function fieldOfFailure(error: unknown, text: string, hasCategory: boolean): "ticker" | "category_id" | null {
  if (!(error instanceof ProviderError)) return null;
  if (error.status === 409 || (error.status === 422 && /ticker/i.test(text))) return "ticker";
  if (hasCategory && error.status === 422 && /category/i.test(text)) return "category_id";
  return null;
}

/** Adds the stock and goes back to the list; a refusal keeps the typed values on the page. */
export async function createStock<Values extends { ticker: string; name: string }>(
  list: AddStock<Values>,
  context: Context,
  user: SessionUser,
  formData: FormData,
) {
  const submission = parseWithZod(formData, { schema: list.schema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), toast: null }, { status: 400 });
  }
  const { ticker, name, ...values } = submission.value;
  // Values probably not meant (ADR 0083): kept on the page with the warnings until the trader accepts them.
  const warnings = levelWarnings(values as unknown as LevelValues);
  if (warnings.length > 0 && !warningsAccepted(formData)) {
    return data({ result: submission.reply(), toast: null, warnings });
  }
  try {
    const row = await list.create(context, user, {
      ...values,
      stock: { ticker, name, current_price: 0 },
    });
    return redirectWithToast(list.listPath, {
      type: "success",
      text: messages.added(row.stock.ticker),
      autoClose: TOAST_MS.page,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    // docs/product.md#errors-lists: the server's detail as a warning toast; kept under the field it concerns too.
    const failure = listFailureToast(error);
    const status = error instanceof ProviderError && error.status >= 400 ? error.status : 503;
    const about = fieldOfFailure(error, failure.text, list.withCategory === true);
    const toast: ReplyToast = { id: crypto.randomUUID(), ...failure, autoClose: TOAST_MS.page };
    return data(
      {
        result: submission.reply(about ? { fieldErrors: { [about]: [failure.text] } } : { formErrors: [failure.text] }),
        toast,
      },
      { status },
    );
  }
}
