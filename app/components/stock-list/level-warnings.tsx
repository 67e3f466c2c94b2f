import { ACCEPT_WARNINGS } from "#app/lib/level-warnings.ts";

/**
 * The values a save stopped at (app/lib/level-warnings.ts, ADR 0083), and the box that accepts them:
 * ticked, the same Save keeps them as they are. A plain checkbox in the form, so it works without JavaScript.
 */
export function LevelWarnings({ warnings }: { warnings: readonly string[] | undefined }) {
  if (!warnings || warnings.length === 0) return null;
  return (
    <div className="level-warnings" role="alert" data-testid="level-warnings">
      <p className="level-warnings__title">Not saved yet: please check these values.</p>
      <ul>
        {warnings.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
      <label className="level-warnings__accept">
        <input type="checkbox" name={ACCEPT_WARNINGS} value="1" />
        Save them as they are
      </label>
    </div>
  );
}
