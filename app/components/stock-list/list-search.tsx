import type { FormEvent, KeyboardEvent, ReactNode, Ref } from "react";
import { Form } from "react-router";
import { SearchIcon } from "#app/components/icons.tsx";
import { LIST_PARAM } from "#app/lib/list-url-state.ts";
import { useHydrated } from "#app/hooks/use-hydrated.ts";

/**
 * A stock list's search by ticker: a GET form (without JavaScript, Search submits it); with
 * JavaScript the list follows the typing and Enter only puts the phone's keyboard away.
 */
export function ListSearch({
  id,
  value,
  onChange,
  onEscape,
  inputRef,
  children,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  /** Escape clears the search (docs/product.md#screens-uip-list). */
  onEscape: () => void;
  inputRef?: Ref<HTMLInputElement>;
  /** Hidden fields that keep the rest of the list's state across a search without JavaScript. */
  children?: ReactNode;
}) {
  const hydrated = useHydrated();
  return (
    <Form
      method="get"
      role="search"
      className="list-search"
      onSubmit={(event: FormEvent) => {
        if (!hydrated) return;
        event.preventDefault();
        (document.activeElement as HTMLElement | null)?.blur();
      }}
    >
      {children}
      <SearchIcon className="list-search__icon" />
      <label htmlFor={id} className="visually-hidden">
        Search by ticker
      </label>
      <input
        id={id}
        ref={inputRef}
        name={LIST_PARAM.query}
        type="search"
        placeholder="Search by ticker"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
          if (event.key === "Escape") {
            event.preventDefault();
            onEscape();
          }
        }}
      />
      <noscript>
        <button type="submit" className="button">
          Search
        </button>
      </noscript>
    </Form>
  );
}
