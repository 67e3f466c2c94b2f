import { describe, expect, it } from "vitest";
import { AlertSettings } from "#contract/position-alerts.ts";
import { AlertSettingsForm } from "#app/lib/alert-settings-schema.ts";
import { toAlertSettings, toAlertSettingsForm } from "./alert-settings.ts";

describe("the alert thresholds form", () => {
  it("sends percentages as the contract's fractions without binary noise: 7% is 0.07, 3.5% is 0.035", () => {
    const settings = toAlertSettings({ profit_share: 7, strike_distance: 3.5, earnings_days: 2 });
    expect(settings).toEqual({ profit_share: 0.07, strike_distance: 0.035, earnings_days: 2 });
    expect(AlertSettings.safeParse(settings).success).toBe(true);
    expect(toAlertSettingsForm({ profit_share: 0.07, strike_distance: 0.035, earnings_days: 2 })).toEqual({
      profit_share: 7,
      strike_distance: 3.5,
      earnings_days: 2,
    });
  });

  it("refuses what the provider would refuse, with the same words", () => {
    const refused = AlertSettingsForm.safeParse({ profit_share: 150, strike_distance: 3, earnings_days: 2 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe("Profit taken must be at most 100%");
    const provider = AlertSettings.safeParse({ profit_share: 1.5, strike_distance: 0.03, earnings_days: 2 });
    expect(provider.error?.issues[0]?.message).toBe("Profit taken must be at most 100%");
  });
});
