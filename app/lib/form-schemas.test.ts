import { getZodConstraint } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as forms from "./form-schemas.ts";

// A form renders its `required` and `pattern` attributes from `constraint` before its schema loads:
// the browser's check without JavaScript, and the markup React hydrates, must be the schema's own.
const entries = Object.entries(forms).filter(([name]) => name.endsWith("_FORM")) as [
  string,
  forms.LazyFormSchema<Parameters<typeof getZodConstraint>[0]>,
][];

describe("each form's constraint without zod", () => {
  it.each(entries)("%s says what its schema tells the browser", async (_name, form) => {
    expect(form.constraint).toEqual(getZodConstraint(await form.load()));
  });

  it("a worked example: the support subject must be one of the six subjects", () => {
    expect(forms.SUPPORT_FORM.constraint.subject).toEqual({
      required: true,
      pattern: "account|trading|technical|billing|feature|other",
    });
  });

  it("a worked example: an options trade's action is one of the five the journal knows", () => {
    expect(forms.OPTION_TRADE_FORM.constraint.action).toEqual({
      required: false,
      pattern: "sell_to_open|buy_to_close|expire|assignment|exercise",
    });
  });
});
