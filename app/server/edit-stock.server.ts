import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import type { ReplyToast } from "#app/lib/action-reply.ts";
import { sanitizeTicker } from "#app/lib/input-sanitizers.ts";
import { levelWarnings, warningsAccepted } from "#app/lib/level-warnings.ts";
import { logoUrl } from "#app/lib/logo.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { averageIv } from "#app/lib/stock-fields.ts";
import type { StockValues } from "#app/lib/stock-schemas.ts";
import { requireUser } from "./auth.server.ts";
import { appEnv } from "./env.server.ts";
import type { SessionUser } from "./session.server.ts";
import { redirectWithToast } from "./toast.server.ts";
import { readForm } from "./form-body.server.ts";

type Context = Readonly<RouterContextProvider>;

/** A list row as the edit page needs it. */
interface EditableRow {
  id: number;
  sort_order: number;
  stock: { ticker: string };
}

/** How a refused save is answered: the page kept with the typed values (and a toast), or back to the list. */
type Refusal = { keep: string; status: number; toast: boolean } | { backWith: string };

/**
 * What differs between editing a watchlist row and a UIP row (docs/product.md#screens-watchlist-edit,
 * #screens-uip-edit): the list, its rows and save call, who may delete, and how a refusal is answered.
 * The two edit routes (app/routes/user-stock.$ticker/server.ts, uip-stock.$ticker.server.ts) each give one.
 */
export interface EditStock<Row extends EditableRow, Values extends StockValues> {
  listPath: string;
  /** The form's schema (app/lib/stock-schemas.ts), shared with the page. */
  schema: z.ZodType<Values, Record<string, unknown>>;
  rows(context: Context, user: SessionUser): Promise<Row[]>;
  /** The toast when the ticker is not in the list. */
  notFound(ticker: string): string;
  canDelete(user: SessionUser): boolean;
  /** Whether the user may save at all: one who may not gets the refusal, not warnings about values (ADR 0083). */
  canSave?(user: SessionUser): boolean;
  save(
    context: Context,
    id: number,
    body: Values & { sort_order: number; average_iv: number },
  ): Promise<{ stock: { ticker: string } }>;
  /** docs/product.md#errors-lists: the answer to a failed save (it may rethrow what is not the provider's). */
  refused(error: unknown): Refusal;
}

/** The row of this ticker, or the way back to the list (a ticker not in it redirects). */
export async function findRow<Row extends EditableRow, Values extends StockValues>(
  list: EditStock<Row, Values>,
  context: Context,
  tickerParam: string | undefined,
) {
  const user = requireUser(context);
  const ticker = sanitizeTicker(tickerParam ?? "");
  const row = (await list.rows(context, user)).find((r) => r.stock.ticker === ticker);
  if (!row) {
    throw await redirectWithToast(list.listPath, {
      type: "error",
      text: list.notFound(ticker),
      autoClose: TOAST_MS.list,
    });
  }
  return { user, row };
}

/** What every edit page shows of its row. */
export function editPage<Row extends EditableRow, Values extends StockValues>(
  list: EditStock<Row, Values>,
  user: SessionUser,
  row: Row,
) {
  return {
    row,
    canDelete: list.canDelete(user),
    logoSrc: logoUrl(appEnv().LOGO_URL_TEMPLATE, row.stock.ticker),
  };
}

/** Saves the values (the row keeps its place) and goes back to the list with a toast. */
export async function saveStock<Row extends EditableRow, Values extends StockValues>(
  list: EditStock<Row, Values>,
  { request, params, context }: { request: Request; params: { ticker?: string }; context: Context },
) {
  const { user, row } = await findRow(list, context, params.ticker);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: list.schema });
  if (submission.status !== "success") return data({ result: submission.reply(), toast: null }, { status: 400 });
  const values = submission.value;
  // Values probably not meant (ADR 0083): kept on the page with the warnings until the trader accepts them.
  const warnings = levelWarnings(values);
  if (warnings.length > 0 && !warningsAccepted(formData) && (list.canSave?.(user) ?? true)) {
    return data({ result: submission.reply(), toast: null, warnings });
  }
  try {
    const saved = await list.save(context, row.id, {
      ...values,
      sort_order: row.sort_order,
      average_iv: averageIv(values.base_iv, values.conservative_iv),
    });
    return redirectWithToast(list.listPath, {
      type: "success",
      text: messages.updated(saved.stock.ticker),
      autoClose: TOAST_MS.page,
    });
  } catch (error) {
    if (error instanceof Response) throw error;
    const refusal = list.refused(error);
    if ("backWith" in refusal) {
      return redirectWithToast(list.listPath, { type: "error", text: refusal.backWith, autoClose: TOAST_MS.list });
    }
    const toast: ReplyToast | null = refusal.toast
      ? { id: crypto.randomUUID(), type: "error", text: refusal.keep, autoClose: TOAST_MS.page }
      : null;
    return data({ result: submission.reply({ formErrors: [refusal.keep] }), toast }, { status: refusal.status });
  }
}
