import { useId } from "react";
import { usePushToggle } from "./use-push-toggle.ts";
import { Switch } from "./switch.tsx";

/** docs/product.md#screens-profile: the push-notification switch for this browser. */
export function PushToggle(props: { userId: number | null; publicKey: string | null; appVersion: string }) {
  const { status, busy, toggle } = usePushToggle(props);
  const labelId = useId();
  const hintId = useId();
  return (
    <div className="setting">
      <div className="setting__text">
        <span id={labelId} className="setting__title">
          Push Notifications
        </span>
        <span id={hintId} className="setting__hint">
          {status === "on"
            ? "Price and trade alerts arrive on this device"
            : "Get price and trade alerts on this device"}
        </span>
        <noscript>
          <span className="setting__hint">Push notifications need JavaScript.</span>
        </noscript>
      </div>
      <Switch
        checked={status === "on"}
        busy={busy || status === "checking"}
        disabled={status === "checking"}
        aria-labelledby={labelId}
        aria-describedby={hintId}
        onClick={() => void toggle()}
      />
    </div>
  );
}
