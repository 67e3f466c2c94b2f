import type { Href } from "#app/lib/href.ts";
import { useFetcher } from "react-router";
import type { ConfigKey } from "#contract/entities.ts";
import { PROFILE_INTENT } from "#app/routes/profile/intents.ts";
import { CONFIG_LABELS } from "#app/routes/profile/system-settings.ts";
import { Switch } from "./switch.tsx";

/**
 * An admin switch (docs/product.md#states-admin): it flips only after the PATCH succeeds, because its state is
 * the loader's value, read again after the action.
 */
export function ConfigToggle({ configKey, on }: { configKey: ConfigKey; on: boolean | null }) {
  const fetcher = useFetcher();
  const label = CONFIG_LABELS[configKey];
  const busy = fetcher.state !== "idle";
  const id = `config-${configKey}`;
  return (
    <fetcher.Form method="post" action={"/profile" satisfies Href} className="setting" preventScrollReset>
      <input type="hidden" name="intent" value={PROFILE_INTENT.config} />
      <input type="hidden" name="key" value={configKey} />
      <input type="hidden" name="value" value={on ? "0" : "1"} />
      <div className="setting__text">
        <span id={id} className="setting__title">
          {label.title}
        </span>
        <span className="setting__hint">{on === null ? "Unavailable right now" : label.hint}</span>
      </div>
      <Switch type="submit" checked={on === true} busy={busy} disabled={on === null || busy} aria-labelledby={id} />
    </fetcher.Form>
  );
}
