import { Link } from "react-router";
import { PROFILE_CAPITAL_PATH } from "#app/lib/plan-paths.ts";
import { FIT_TEXT, type FitMark } from "#app/lib/plan-fit.ts";

/**
 * Whether a recommended put fits the trader's plan (docs/product.md#plan-fit, ADR 0081): a verdict
 * in words (not only colour) and why; with `sizing`, the contracts the plan allows. Without capital
 * it says how to set it instead of guessing.
 */
export function PlanFitBlock({
  capitalSet,
  mark,
  sizing,
}: {
  capitalSet: boolean;
  mark: FitMark | undefined;
  sizing?: boolean;
}) {
  if (!capitalSet) {
    // On the cards the filter line says it once (FitFilter); the option detail says it here.
    if (!sizing) return null;
    return (
      <p className="plan-fit" data-testid="plan-fit" data-fits="unknown">
        <Link to={PROFILE_CAPITAL_PATH}>{FIT_TEXT.setCapital}</Link>
      </p>
    );
  }
  if (!mark) return null;
  return (
    <div className={`plan-fit plan-fit--${mark.fits ? "yes" : "no"}`} data-testid="plan-fit" data-fits={mark.fits}>
      <span className="plan-fit__verdict">{mark.fits ? FIT_TEXT.fits : FIT_TEXT.doesNotFit}</span>
      <ul>
        {mark.notes.map((note) => (
          <li key={note}>{note}</li>
        ))}
      </ul>
      {sizing ? (
        <p className="plan-fit__sizing" data-testid="plan-sizing">
          {mark.sizing}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The /insights filter "only puts that fit my free cash and limits" (ADR 0081): a link that turns it
 * on or off in the address, so it works without JavaScript; says how many puts it hides.
 */
export function FitFilter({
  capitalSet,
  on,
  hidden,
  toggleHref,
}: {
  capitalSet: boolean;
  on: boolean;
  hidden: number;
  toggleHref: string;
}) {
  if (!capitalSet) {
    return (
      <p className="ins-fit-filter" data-testid="fit-filter" data-on="false">
        <Link to={PROFILE_CAPITAL_PATH}>{FIT_TEXT.setCapital}</Link>
      </p>
    );
  }
  return (
    <p className="ins-fit-filter" data-testid="fit-filter" data-on={on}>
      <span>{on ? `${FIT_TEXT.onlyFitting}: on.` : `${FIT_TEXT.onlyFitting}: off.`}</span>
      {on && hidden > 0 ? <span data-testid="fit-hidden">{FIT_TEXT.hidden(hidden)}</span> : null}
      <Link to={toggleHref} replace preventScrollReset>
        {on ? FIT_TEXT.showAll : FIT_TEXT.onlyFitting}
      </Link>
    </p>
  );
}
