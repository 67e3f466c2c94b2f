import type { HrefWithSearch } from "#app/lib/href.ts";
import { data, type RouterContextProvider } from "react-router";
import * as calls from "#contract/calls.ts";
import type { ImportPreview } from "#contract/entities.ts";
import { IMPORT_FILE_MAX_BYTES } from "#app/lib/trade-fields.ts";
import { ImportFormSchema } from "./import-schema.ts";
import { intentOf } from "#app/lib/intents.ts";
import { TRADE_INTENTS, type TradeIntent } from "#app/lib/trade-intents.ts";
import { requireUser, userCall } from "#app/server/auth.server.ts";
import { ProviderError } from "#app/server/provider.server.ts";
import { redirectWithToast } from "#app/server/toast.server.ts";
import { readForm } from "#app/server/form-body.server.ts";
import { JOURNAL_TEXT } from "#app/server/trades.server.ts";

type Context = Readonly<RouterContextProvider>;

interface ImportState {
  broker: string;
  csv: string;
  preview: ImportPreview | null;
  errors: Record<string, string[]>;
  /** The opening positions' prices as typed, by key (field `opening:<key>`; ADR 0074). */
  openings?: Record<string, string>;
}

const OPENING_FIELD = "opening:";

/** The opening prices typed in the preview: numbers by key, and the keys whose text is not a price. */
function openingPricesOf(formData: FormData) {
  const typed: Record<string, string> = {};
  const prices: Record<string, number> = {};
  const bad: string[] = [];
  for (const [name, value] of formData) {
    if (!name.startsWith(OPENING_FIELD) || typeof value !== "string" || value.trim() === "") continue;
    const key = name.slice(OPENING_FIELD.length);
    typed[key] = value;
    const price = Number(value.trim().replace(/^\$/, ""));
    if (Number.isFinite(price) && price >= 0) prices[key] = price;
    else bad.push(key);
  }
  return { typed, prices, bad };
}

/** Import: the preview of a broker file, then the import of what it showed. */
export async function importAction(request: Request, context: Context) {
  requireUser(context);
  const formData = await readForm(request);
  const intent: TradeIntent | null = intentOf(formData, TRADE_INTENTS);
  const file = formData.get("file");
  let csv = typeof formData.get("csv") === "string" ? String(formData.get("csv")) : "";
  if (file instanceof File && file.size > 0) {
    if (file.size > IMPORT_FILE_MAX_BYTES) {
      return data<ImportState>(
        {
          broker: String(formData.get("broker") ?? ""),
          csv: "",
          preview: null,
          errors: { file: ["The file is larger than 1 MB"] },
        },
        { status: 400 },
      );
    }
    csv = await file.text();
  }
  const parsed = ImportFormSchema.safeParse({ broker: formData.get("broker"), csv });
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0] ?? "file")] ??= []).push(issue.message);
    if (errors.csv) errors.file = errors.csv;
    return data<ImportState>(
      { broker: String(formData.get("broker") ?? ""), csv: "", preview: null, errors },
      { status: 400 },
    );
  }
  const openings = openingPricesOf(formData);
  const body = { ...parsed.data, openings: openings.prices };
  try {
    if (openings.bad.length > 0) {
      // A price that is not a number: the preview again without it, the text kept with its error.
      const preview = await userCall(context, calls.previewImport, { body });
      const errors = Object.fromEntries(
        openings.bad.map((key) => [`${OPENING_FIELD}${key}`, ["Enter a price of at least 0, like 2.10"]]),
      );
      return data<ImportState>({ ...body, preview, errors, openings: openings.typed }, { status: 400 });
    }
    if (intent === "import") {
      const result = await userCall(context, calls.importTrades, { body });
      return redirectWithToast("/portfolio?period=all" satisfies HrefWithSearch, {
        type: "success",
        text: JOURNAL_TEXT.imported(result.added.length, result.duplicates.length, result.refused.length),
      });
    }
    const preview = await userCall(context, calls.previewImport, { body });
    return data<ImportState>({ ...body, preview, errors: {}, openings: openings.typed });
  } catch (error) {
    if (!(error instanceof ProviderError) || error.status === 0 || error.status >= 500) throw error;
    return data<ImportState>(
      { ...body, csv: "", preview: null, errors: { file: [error.detail ?? error.message] }, openings: openings.typed },
      { status: error.status },
    );
  }
}
