import { useSyncExternalStore } from "react";
import { useHydrated } from "#app/hooks/use-hydrated.ts";
import { ArrowUpIcon } from "#app/components/icons.tsx";

/** How far the page scrolls before the button shows. */
const SHOW_AFTER_PX = 400;

function subscribeScroll(onChange: () => void) {
  window.addEventListener("scroll", onChange, { passive: true });
  return () => window.removeEventListener("scroll", onChange);
}

/**
 * docs/product.md#screens-watchlist: a scroll-to-top button, shown once the list is scrolled. A link to the page's top
 * anchor, so it works without JavaScript (where CSS keeps it shown); with it, it appears after
 * scrolling and scrolls smoothly (at once for reduced motion).
 */
export function ScrollToTop({ targetId }: { targetId: string }) {
  const hydrated = useHydrated();
  const scrolled = useSyncExternalStore(
    subscribeScroll,
    () => window.scrollY > SHOW_AFTER_PX,
    () => false,
  );
  const hidden = hydrated && !scrolled;

  return (
    <a
      href={`#${targetId}`}
      className="uip-scroll-top"
      data-shown={scrolled || undefined}
      aria-label="Scroll to top"
      title="Scroll to top"
      tabIndex={hidden ? -1 : undefined}
      aria-hidden={hidden || undefined}
      onClick={(event) => {
        event.preventDefault();
        const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
        document.getElementById(targetId)?.focus({ preventScroll: true });
      }}
    >
      <ArrowUpIcon />
    </a>
  );
}
