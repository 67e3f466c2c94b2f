import { getSelectProps, type FieldMetadata } from "@conform-to/react";
import type { Category } from "#contract/entities.ts";
import { CATEGORY_PLACEHOLDER } from "#app/lib/stock-fields.ts";
import { ErrorList } from "./forms.tsx";

/** docs/product.md#validation-stock: the UIP category, required, with 'Select a category' as its empty first choice. */
export function CategorySelect({
  field,
  categories,
  hint,
}: {
  field: FieldMetadata<string | undefined>;
  categories: readonly Pick<Category, "id" | "name">[];
  hint?: string | null;
}) {
  const { key, ...props } = getSelectProps(field);
  const errorId = field.errors?.length ? field.errorId : undefined;
  const hintId = hint ? `${field.id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={field.id}>Category</label>
      <div className="field__control">
        <select
          key={key}
          {...props}
          aria-invalid={errorId ? true : undefined}
          aria-describedby={[errorId, hintId].filter(Boolean).join(" ") || undefined}
        >
          <option value="">{CATEGORY_PLACEHOLDER}</option>
          {categories.map((category) => (
            <option key={category.id} value={String(category.id)}>
              {category.name}
            </option>
          ))}
        </select>
      </div>
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={field.errors} />
    </div>
  );
}
