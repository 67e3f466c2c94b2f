import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { CallRecord } from "#contract/track-record.ts";
import { CallTotals } from "./call-totals.tsx";

/** The text a reader of the server-rendered page gets, tags dropped. */
const text = (calls: CallRecord) =>
  renderToStaticMarkup(<CallTotals calls={calls} />)
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

describe("the covered calls on /track-record", () => {
  it("names each figure with what it measures, for one call called away and one kept", () => {
    // KO 65 call at 0.80 on a 63.22 basis: closed 66.10, called away, 2.58 a share (4.081%);
    // the same call closing 64.00: kept, 0.80 a share (1.265%). Means: promised 1.265%,
    // realised (4.081 + 1.265) ÷ 2 = 2.673%; P&L 258 + 80 = $338 for one contract of each.
    const page = text({
      count: 2,
      called_away: 1,
      kept: 1,
      pending: 3,
      simulated: true,
      mean_promised_return: 0.8 / 63.22,
      mean_realised_return: (2.58 / 63.22 + 0.8 / 63.22) / 2,
      pnl_per_contract: 338,
      mean_chance_called: 0.42,
      first_shown: "2026-11-02",
      last_expiry: "2026-11-20",
    });
    expect(page).toContain("Covered calls suggested");
    expect(page).toContain("2 calls suggested from Nov 2, 2026, expiring up to Nov 20, 2026.");
    expect(page).toContain("Called away 50% (1)");
    expect(page).toContain("Kept, premium and shares 50% (1)");
    expect(page).toContain("Chance of being called shown (mean, risk-neutral) 42");
    expect(page).toContain("Premium on the basis (mean, at the bid) +1.27%");
    expect(page).toContain("Realised return on the basis (mean, gross) +2.67%");
    expect(page).toContain("P&amp;L, one contract of each (gross) +$338");
    expect(page).toContain("3 more suggested calls are waiting for their expiry.");
    expect(page).toContain("Simulated");
  });

  it("says when no suggested call has expired yet", () => {
    const page = text({
      count: 0,
      called_away: 0,
      kept: 0,
      pending: 4,
      simulated: false,
      mean_promised_return: 0,
      mean_realised_return: 0,
      pnl_per_contract: 0,
      mean_chance_called: null,
      first_shown: null,
      last_expiry: null,
    });
    expect(page).toContain("No suggested call has expired yet. 4 suggested calls are waiting for their expiry.");
    expect(page).not.toContain("Simulated");
  });
});
