import { z } from "zod";
import { IMPORT_FILE_MAX_BYTES } from "#app/lib/trade-fields.ts";

/** The import form: a broker and its CSV (or OFX/QFX) file (the provider takes files under 1 MB). */

export const ImportFormSchema = z.object({
  broker: z.enum(["ibkr", "tastytrade", "schwab", "fidelity", "robinhood", "tdameritrade", "etrade", "webull", "ofx"], {
    error: "Choose the broker the file comes from",
  }),
  csv: z
    .string({ error: "Choose the broker's file" })
    .min(1, "Choose the broker's file")
    .max(IMPORT_FILE_MAX_BYTES, "The file is larger than 1 MB"),
});
