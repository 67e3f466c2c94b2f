import type { ButtonHTMLAttributes } from "react";

/**
 * An on/off switch: a real button (so it can submit a form without JavaScript) announced as
 * a switch. `busy` keeps its place and shows that a change is on its way.
 */
export function Switch({
  checked,
  busy = false,
  className,
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, "role"> & { checked: boolean; busy?: boolean }) {
  return (
    <button
      type="button"
      {...props}
      role="switch"
      aria-checked={checked}
      aria-busy={busy || undefined}
      className={["switch", className].filter(Boolean).join(" ")}
    >
      <span className="switch__thumb" aria-hidden="true" />
    </button>
  );
}
