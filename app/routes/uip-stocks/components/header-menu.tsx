import { useEffect, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { MoreIcon } from "#app/components/icons.tsx";

/**
 * A page header's overflow menu (the UIP list's 'Add Stock' and 'Reorder'). A <details>
 * disclosure, so it opens without JavaScript; with it, a tap outside, Escape or choosing an
 * item closes it.
 */
export function HeaderMenu({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const details = ref.current;
    if (!open || !details) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!details.contains(event.target as Node)) details.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [open]);

  return (
    <details ref={ref} className="uip-menu" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary
        className="icon-button"
        role="button"
        aria-label={label}
        title={label}
        aria-expanded={hydrated ? open : undefined}
      >
        <MoreIcon />
      </summary>
      <div
        className="uip-menu__list"
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("a, button") && ref.current) ref.current.open = false;
        }}
      >
        {children}
      </div>
    </details>
  );
}
