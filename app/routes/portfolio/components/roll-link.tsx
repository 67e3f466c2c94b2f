import { Link } from "react-router";
import type { OpenOption } from "#contract/entities.ts";
import { ROLL_TEXT, rollHref } from "#app/lib/roll-link.ts";

/**
 * An open short option's way to its roll candidates: for every put and covered call, with a written
 * status ("Tested", "Losing") and a prominent link when it is tested or losing (docs/decisions/0036, 0103).
 */
export function RollLink({ option }: { option: OpenOption }) {
  const tradeId = option.trade_ids[0];
  if (tradeId === undefined) return null;
  const type = option.option_type;
  const flagged = option.tested || option.losing;
  return (
    <div className={flagged ? "roll-link roll-link--flagged" : "roll-link"}>
      {option.tested ? <p className="roll-status">{ROLL_TEXT.tested(type)}</p> : null}
      {option.losing ? <p className="roll-status">{ROLL_TEXT.losing(type)}</p> : null}
      <Link
        to={rollHref(tradeId)}
        className={flagged ? "button button--primary" : "button"}
        aria-label={`${ROLL_TEXT.link}: ${option.ticker} ${option.strike} ${type} expiring ${option.expiry}`}
      >
        {ROLL_TEXT.link}
      </Link>
    </div>
  );
}
