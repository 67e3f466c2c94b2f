import type { Dispatch, FormEvent, KeyboardEvent, SetStateAction } from "react";
import { Form } from "react-router";
import { INSIGHTS_PARAM as PARAM, INSIGHTS_PATH } from "#app/lib/insights.ts";
import { SearchIcon } from "#app/components/icons.tsx";

/** The fields' ids: what they hold at hydration is where the route's search starts (ADR 0084). */
export const SEARCH_FIELD_ID = "ins-search";
export const MAX_STRIKE_FIELD_ID = "ins-max-strike";

/** What is typed in the search and max-strike fields; the list follows it after a pause (routes/insights.tsx). */
export interface InsightsDraft {
  query: string;
  max: string;
}

/**
 * The name search and the max-strike filter of /insights: a GET form, so without JavaScript it
 * applies on submit; with it the route writes the typed values to the URL as they change.
 */
export function InsightsSearchForm({
  draft,
  onDraft: setDraft,
  open,
  date,
  shown,
  hydrated,
}: {
  draft: InsightsDraft;
  onDraft: Dispatch<SetStateAction<InsightsDraft>>;
  /** The expanded stock and its chosen date, kept across a search without JavaScript. */
  open: string | null;
  date: string | null;
  /** How many cards the list shows (ADR 0102), kept across a search without JavaScript. */
  shown: string | null;
  hydrated: boolean;
}) {
  return (
    <Form
      method="get"
      action={INSIGHTS_PATH}
      role="search"
      className="ins-filters"
      onSubmit={(event: FormEvent) => {
        // With JavaScript the list already follows the typing; Enter just puts the keyboard away.
        if (!hydrated) return;
        event.preventDefault();
        (document.activeElement as HTMLElement | null)?.blur();
      }}
    >
      <div className="ins-field ins-field--search">
        <label htmlFor={SEARCH_FIELD_ID}>Search by name</label>
        <span className="ins-input">
          <SearchIcon aria-hidden="true" />
          <input
            id={SEARCH_FIELD_ID}
            name={PARAM.query}
            type="search"
            placeholder="Company or ticker"
            autoComplete="off"
            spellCheck={false}
            value={draft.query}
            onChange={(event) => setDraft((d) => ({ ...d, query: event.target.value }))}
            onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
              if (event.key === "Escape") {
                event.preventDefault();
                setDraft((d) => ({ ...d, query: "" }));
              }
            }}
          />
        </span>
      </div>
      <div className="ins-field ins-field--strike">
        <label htmlFor={MAX_STRIKE_FIELD_ID}>Max strike</label>
        <span className="ins-input">
          <span aria-hidden="true">$</span>
          <input
            id={MAX_STRIKE_FIELD_ID}
            name={PARAM.maxStrike}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            placeholder="Any"
            value={draft.max}
            onChange={(event) => setDraft((d) => ({ ...d, max: event.target.value }))}
          />
        </span>
      </div>
      {open ? <input type="hidden" name={PARAM.open} value={open} /> : null}
      {open && date ? <input type="hidden" name={PARAM.date} value={date} /> : null}
      {shown ? <input type="hidden" name={PARAM.shown} value={shown} /> : null}
      <noscript>
        <button type="submit" className="button ins-filters__apply">
          Apply
        </button>
      </noscript>
    </Form>
  );
}
