import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { CoveredCall } from "#contract/covered-calls.ts";
import { CallCard } from "./call-card.tsx";

/** The figures' names and values as a reader of the server-rendered card gets them, tags dropped. */
function figures(call: CoveredCall, spot: number, adjustedBasis: number): Record<string, string> {
  const html = renderToStaticMarkup(
    <MemoryRouter>
      <CallCard
        call={call}
        ticker="KO"
        spot={spot}
        adjustedBasis={adjustedBasis}
        commission={0.65}
        exDividend={null}
        earningsDate={null}
        recordHref="/add-trade"
      />
    </MemoryRouter>,
  );
  const pairs = [...html.matchAll(/<dt>(.*?)<\/dt><dd[^>]*>(.*?)<\/dd>/g)];
  return Object.fromEntries(pairs.map(([, dt, dd]) => [dt!.replace(/&#x27;/g, "'"), dd!.replace(/<[^>]+>/g, "")]));
}

describe("the covered-call card names the base of each return (ADR 0079)", () => {
  it("a KO 65 call on shares at $61.20 with a $63.22 adjusted basis: unchanged on the price, called away on the basis", () => {
    // Bid 0.80, 30 days, $0.65 a contract: unchanged (0.80 − 0.0065) ÷ 61.20 = 1.30 % over 30 days;
    // called away (0.80 + 65 − 63.22 − 0.0065) ÷ 63.22 = 4.07 %. Figures as the provider sends them.
    const call: CoveredCall = {
      occ_symbol: "KO261218C00065000",
      expiry: "2026-12-18",
      strike: 65,
      bid: 0.8,
      ask: 0.84,
      mid: 0.82,
      days_to_expiry: 30,
      open_interest: 500,
      spread: 0.04 / 0.82,
      intrinsic_value: 0,
      time_value: 0.8,
      return_if_unchanged: 0.013,
      return_if_unchanged_monthly: 0.0132,
      return_if_unchanged_annualised: 0.158,
      return_if_called: 0.0407,
      return_if_called_monthly: 0.0412,
      return_if_called_annualised: 0.495,
      chance_called: 0.3,
      delta: 0.33,
      breakeven: 62.43,
      ex_dividend_before_expiry: false,
      early_assignment_risk: false,
      earnings_before_expiry: false,
      rank: 1,
    };
    const shown = figures(call, 61.2, 63.22);
    expect(shown["If unchanged (on $61.20 price), monthly, net"]).toBe("1.3%");
    expect(shown["If called away (on $63.22 basis), monthly, net"]).toBe("4.1%");
    expect(shown["If unchanged (on $61.20 price), annualised, net"]).toBe("15.8%");
    expect(shown["If called away (on $63.22 basis), annualised, net"]).toBe("49.5%");
  });
});
