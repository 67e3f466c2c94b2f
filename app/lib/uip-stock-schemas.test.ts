import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { CATEGORY_REQUIRED } from "./stock-fields.ts";
import { AddUipStockSchema, EditUipStockSchema } from "./stock-schemas.ts";

/** The field errors of a failed parse (none for a success). */
function errors(result: { status?: string; error?: unknown } | { status: "success" }): Record<string, string[] | null> {
  return "error" in result ? ((result.error ?? {}) as Record<string, string[] | null>) : {};
}

function form(values: Record<string, string>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(values)) data.set(k, v);
  return data;
}

describe("UIP stock forms (docs/product.md#validation-stock: the category is required)", () => {
  it("add: ticker cleaned, values parsed, the category read as an id", () => {
    const result = parseWithZod(form({ ticker: "brk.b", name: "Berkshire", base_iv: "12.5", category_id: "4" }), {
      schema: AddUipStockSchema,
    });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({ ticker: "BRKB", base_iv: 12.5, buy_level_four: 0, category_id: 4 });
  });

  it("refuses an empty or made-up category with one message", () => {
    for (const category_id of ["", "0", "-1", "abc", "1.5"]) {
      const result = parseWithZod(form({ ticker: "AAPL", category_id }), { schema: AddUipStockSchema });
      expect(result.status).toBe("error");
      expect(errors(result).category_id).toEqual([CATEGORY_REQUIRED]);
    }
    const missing = parseWithZod(form({ base_iv: "1" }), { schema: EditUipStockSchema });
    expect(errors(missing).category_id).toEqual([CATEGORY_REQUIRED]);
  });

  it("edit: the values with the edit form's labels, plus the category", () => {
    const result = parseWithZod(form({ buy_level_two: "1.2.3", category_id: "2" }), { schema: EditUipStockSchema });
    expect(errors(result).buy_level_two).toEqual(["2nd buy level accepts only digits and one decimal point"]);
    const ok = parseWithZod(form({ conservative_iv: "80", category_id: "2" }), { schema: EditUipStockSchema });
    expect(ok.status === "success" && ok.value).toMatchObject({ conservative_iv: 80, base_iv: 0, category_id: 2 });
  });
});
