/** A small spinner with a label for screen readers. */
export function Spinner({ label = "Loading", className }: { label?: string; className?: string }) {
  return (
    <span className={["spinner", className].filter(Boolean).join(" ")} role="status">
      <span className="spinner__ring" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
