import { useEffect, useRef, useState } from "react";
import { logoInitials } from "#app/lib/logo.ts";

/**
 * A company logo in a fixed 40 px square (nothing moves when it loads). The initials sit
 * underneath and show when there is no logo address or the image fails to load. Neither has a
 * class of its own (`.stock-logo > img`): every list row carries one (ADR 0059).
 */
export function StockLogo({ ticker, src }: { ticker: string; src: string | null }) {
  const [failed, setFailed] = useState(false);
  const image = useRef<HTMLImageElement>(null);

  // An image that failed before React took over the page fired its error event too early to be seen.
  useEffect(() => {
    const img = image.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, [src]);

  return (
    <span className="stock-logo" aria-hidden="true">
      {logoInitials(ticker)}
      {src && !failed ? (
        <img
          ref={image}
          src={src}
          alt=""
          width={40}
          height={40}
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          onError={() => setFailed(true)}
        />
      ) : null}
    </span>
  );
}
