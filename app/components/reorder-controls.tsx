import { useEffect, useRef } from "react";
import { Form, useFetcher, useNavigate } from "react-router";
import type { ActionReply } from "#app/lib/action-reply.ts";
import { useReplyToast } from "#app/hooks/use-reply-toast.ts";
import { EnhancedField } from "./enhanced-field.tsx";
import { ArrowDownIcon, ArrowUpIcon } from "./icons.tsx";

/**
 * Reorder mode's controls of a list (ADR 9): move buttons per row and Finish Reorder. Without
 * JavaScript each move is a post of `intent=move` (saved at once); with it the moves change a
 * local draft and Finish Reorder posts `intent=reorder` with the whole order in place.
 * (The watchlist has its own copies of these; the UIP list uses this shared version.)
 */

/** Move one place up or down: a form per row without JavaScript (saved at once), local with it. */
export function MoveButtons({
  id,
  ticker,
  first,
  last,
  onMove,
}: {
  id: number;
  ticker: string;
  first: boolean;
  last: boolean;
  onMove: ((direction: "up" | "down") => void) | undefined;
}) {
  return (
    <Form method="post" className="move-buttons" preventScrollReset>
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={id} />
      {(["up", "down"] as const).map((direction) => (
        <button
          key={direction}
          type="submit"
          name="direction"
          value={direction}
          className="icon-button"
          aria-label={`Move ${ticker} ${direction}`}
          disabled={direction === "up" ? first : last}
          onClick={(event) => {
            if (!onMove) return;
            event.preventDefault();
            onMove(direction);
          }}
        >
          {direction === "up" ? <ArrowUpIcon /> : <ArrowDownIcon />}
        </button>
      ))}
    </Form>
  );
}

/** docs/product.md#states-lists: turning reorder mode off saves the new order; nothing moved just leaves the mode. */
export function FinishReorder({
  order,
  serverOrder,
  doneTo,
}: {
  order: number[];
  serverOrder: string;
  doneTo: string;
}) {
  const fetcher = useFetcher<ActionReply>();
  const navigate = useNavigate();
  useReplyToast(fetcher.data);
  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    if (fetcher.data.ok) void navigate(doneTo, { replace: true, preventScrollReset: true });
  });
  const changed = order.join(",") !== serverOrder;

  return (
    <fetcher.Form
      method="post"
      preventScrollReset
      onSubmit={(event) => {
        if (!changed && fetcher.state === "idle") {
          event.preventDefault();
          void navigate(doneTo, { replace: true, preventScrollReset: true });
        }
      }}
    >
      <input type="hidden" name="intent" value="reorder" />
      <input type="hidden" name="order" value={order.join(",")} />
      <EnhancedField />
      <button type="submit" className="button button--primary button--small" disabled={fetcher.state !== "idle"}>
        Finish Reorder
      </button>
    </fetcher.Form>
  );
}
