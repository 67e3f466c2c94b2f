import { Link } from "react-router";
import type { OpenOption } from "#contract/entities.ts";
import { ROLL_TEXT, rollHref } from "#app/lib/roll-link.ts";

/**
 * An open short put's way to its roll candidates: for every put, and with a written status
 * ("Tested", "Losing") and a prominent link when the put is tested or losing (docs/decisions/0036).
 */
export function RollLink({ option }: { option: OpenOption }) {
  const tradeId = option.trade_ids[0];
  if (option.option_type !== "put" || tradeId === undefined) return null;
  const flagged = option.tested || option.losing;
  return (
    <div className={flagged ? "roll-link roll-link--flagged" : "roll-link"}>
      {option.tested ? <p className="roll-status">{ROLL_TEXT.tested}</p> : null}
      {option.losing ? <p className="roll-status">{ROLL_TEXT.losing}</p> : null}
      <Link
        to={rollHref(tradeId)}
        className={flagged ? "button button--primary" : "button"}
        aria-label={`${ROLL_TEXT.link}: ${option.ticker} ${option.strike} put expiring ${option.expiry}`}
      >
        {ROLL_TEXT.link}
      </Link>
    </div>
  );
}
