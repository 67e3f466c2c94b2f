/**
 * The fixed text of a stock list's row as HTML (ADR 0056): ticker and price, name and average IV,
 * the four buy levels. StockRow puts each into the page with `dangerouslySetInnerHTML`, so React
 * neither renders nor hydrates their elements; every value in them goes through escapeHtml. The
 * same markup as components would write, with the same texts (docs/product.md#screens-watchlist,
 * #constants-display), colour never the only sign (ADR 0050). Class names are the row's own short
 * ones, styled within `.stock-row` (ADR 0059).
 */
import { formatIv, formatLevel, formatPrice, levelTone, priceTone, truncateName } from "./format.ts";
import { escapeHtml } from "./html.ts";

/** What a green price means, for screen readers (components/below-iv-note.tsx says it for forms). */
export const BELOW_IV_NOTE = ", below intrinsic value";

const LEVEL_NAMES = ["1st", "2nd", "3rd", "4th"] as const;

/** React's form of raw markup; a new object each call, as React compares the string inside. */
interface Html {
  __html: string;
}

/** Ticker, price (green below the average IV) and, when green, what that means. */
export function priceLineHtml(ticker: string, price: number, averageIv: number): Html {
  const tone = priceTone(price, averageIv);
  const note = tone === "green" ? `<span class="visually-hidden">${BELOW_IV_NOTE}</span>` : "";
  return {
    __html:
      `<span class="ticker">${escapeHtml(ticker)}</span>` +
      `<span class="price price--${tone}">${escapeHtml(formatPrice(price))}</span>${note}`,
  };
}

/** The name cut to 45 characters (the whole one on hover when cut) and the average IV. */
export function nameLineHtml(name: string, averageIv: number): Html {
  const shortName = truncateName(name);
  const title = shortName === name ? "" : ` title="${escapeHtml(name)}"`;
  return {
    __html:
      `<span class="name"${title}>${escapeHtml(shortName)}</span>` +
      `<span class="iv"><span class="label">Intrinsic value</span> ${escapeHtml(formatIv(averageIv))}</span>`,
  };
}

/**
 * The four buy levels, each named for screen readers; a reached one (at or above the price) says so.
 * The name is a level's inner span, hidden from sight with `.visually-hidden` (`.main .level > span`,
 * app/styles/app.css; ADR 0059): a list repeats it four times a row.
 */
export function levelsHtml(levels: readonly [number, number, number, number], price: number): Html {
  return {
    __html: levels
      .map((level, i) => {
        const reached = levelTone(level, price) === "green";
        const name = `${LEVEL_NAMES[i]} buy level ${reached ? "(reached) " : ""}`;
        return (
          `<span class="${reached ? "level level--green" : "level"}">` +
          `<span>${name}</span>${escapeHtml(formatLevel(level))}</span>`
        );
      })
      .join(""),
  };
}
