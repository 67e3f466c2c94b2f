import { z } from "zod";
import { IMPORT_FILE_MAX_BYTES } from "./trade-fields.ts";

/** The import form: a broker and its CSV file (the provider takes files under 1 MB). */

export const ImportFormSchema = z.object({
  broker: z.enum(["ibkr", "tastytrade", "schwab"], { error: "Choose the broker the file comes from" }),
  csv: z
    .string({ error: "Choose a CSV file" })
    .min(1, "Choose a CSV file")
    .max(IMPORT_FILE_MAX_BYTES, "The file is larger than 1 MB"),
});
