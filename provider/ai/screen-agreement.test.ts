import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { TopLineRecommendation, TradeRecommendation } from "#contract/entities.ts";
import { formatPercent, formatPrice } from "#app/lib/format.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { numbersIn, renderingsOf } from "../../tests/support/grounding.ts";

/**
 * Issue 46, "one set of facts": an AI text says what the screens say to the same reader. Each test
 * reads what /insights shows the demo trader (their list of a stock's puts, with their filters and
 * levels, and the stock's card) and checks every number of the text against it, written with the
 * screens' own formatters (app/lib/format.ts); a number the screen does not show must be a named
 * arithmetic of what it shows (one contract is 100 shares, the whole premium less commission).
 */

// Wednesday 2026-11-18, noon in New York: the market is open and the chains are full.
const NOW = new Date("2026-11-18T17:00:00Z");
const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW });

let provider: TestProvider;
let token: string;
/** The demo trader's watchlist rows, as /user-stocks shows them (their levels). */
let watchlist: { stock: { ticker: string }; conservative_iv: number }[];

beforeAll(async () => {
  provider = await testProvider({ market });
  token = await provider.login("demo", "demo1234");
  const me = (await provider.call(calls.me, { token })).body as { id: number };
  watchlist = (await provider.call(calls.listUserStocks, { token, params: { userId: me.id } }))
    .body as typeof watchlist;
  for (const ticker of ["AAPL", "MSFT"]) {
    expect((await provider.call(calls.generateRecommendations, { token, params: { ticker } })).status).toBe(200);
  }
});
afterAll(() => provider.close());

/** The reader's list of a stock's puts, as /insights loads it (their saved filters unless overridden). */
async function screenList(symbol: string, query?: Record<string, string>): Promise<TradeRecommendation[]> {
  return calls.tradeRecommendations.response.parse(
    (await provider.call(calls.tradeRecommendations, { token, params: { symbol }, query })).body,
  );
}

async function screenCard(ticker: string): Promise<TopLineRecommendation> {
  const cards = calls.topLineRecommendations.response.parse(
    (await provider.call(calls.topLineRecommendations, { token })).body,
  );
  return cards.find((c) => c.ticker === ticker)!;
}

describe("the stock analysis says what the reader's screen says", () => {
  it("gives the card's IV rank and percentile, and the reader's first pick with its net figures labelled net", async () => {
    const list = await screenList("AAPL");
    const card = await screenCard("AAPL");
    const first = list.find((r) => r.rank === 1)!;
    expect(first).toBeDefined();
    const { body } = await provider.call(calls.stockAnalysis, { token, body: { ticker: "AAPL" } });
    const text = body as string;

    // The card's "rank 13 % · percentile 10 %", not "too few stored".
    expect(card.iv_rank).not.toBeNull();
    expect(text).toContain(
      `IV rank ${formatPercent(card.iv_rank!, 0)}, IV percentile ${formatPercent(card.iv_percentile!, 0)}, against ${card.iv_history_days} days`,
    );
    expect(text).not.toContain("Too few daily implied volatilities");

    // The reader's first pick, within their filters, as the list shows it.
    const pick = text.split("\n\n").find((p) => p.startsWith("Best put now for you"))!;
    expect(pick).toContain(`${first.option_identifier}, strike $${formatPrice(first.strike_price)}`);
    expect(pick).toContain(
      `${formatPercent(first.net_monthly_return)} a month, ${formatPercent(first.net_annualized_return)} a year`,
    );
    expect(pick).toMatch(/Net of \$0\.65 commission a contract/);
    // Every number of the pick's paragraph is on the reader's screen (the card, its filters) or
    // one contract of it.
    const filters = (await provider.call(calls.traderFilters, { token })).body;
    const levels = watchlist.find((w) => w.stock.ticker === "AAPL");
    const shown = renderingsOf({ first, filters, levels, perContract: first.current_option_price * 100 });
    expect(numbersIn(pick).filter((n) => !shown.has(n))).toEqual([]);
  });

  it("does not suggest a put the reader's filters exclude", async () => {
    const list = await screenList("MSFT");
    const facts = (await provider.call(calls.stockAnalysis, { token, body: { ticker: "MSFT" } })).body as string;
    const pick = facts.split("\n\n").find((p) => p.startsWith("Best put now for you"));
    if (list.some((r) => r.rank === 1)) {
      expect(pick).toContain(list.find((r) => r.rank === 1)!.option_identifier);
    } else {
      expect(facts).toContain("No put of MSFT passes your filters right now.");
    }
  });
});

describe("the option explanation says what the option's screen says", () => {
  /** The numbers an explanation may write about `r`: the card's and the detail's, and named arithmetic of them. */
  function screenNumbers(r: TradeRecommendation): Set<string> {
    const shares = 100;
    const net = (premium: number) => (premium - r.commission / shares) / r.strike_price;
    const levels = watchlist.find((w) => r.option_identifier.startsWith(w.stock.ticker))!;
    return renderingsOf({
      r,
      // The reader's own levels (/user-stocks), and the strike against their conservative value.
      levels,
      strikeVsConservative: r.strike_price / levels.conservative_iv - 1,
      contract: {
        shares,
        premium: r.current_option_price * shares,
        collateral: r.strike_price * shares,
        theta: r.theta * shares,
        vega: r.vega * shares,
        maxLoss: r.breakeven * shares,
      },
      // Expiring worthless keeps the whole premium (less commission), over the same days as the card.
      worthless: {
        month: (net(r.current_option_price) * 30) / r.days_to_expiry,
        year: (net(r.current_option_price) * 365) / r.days_to_expiry,
      },
      distance: r.strike_price / r.current_stock_price - 1,
      cushion: r.cushion,
    });
  }

  async function explain(r: TradeRecommendation): Promise<string> {
    const res = await provider.call(calls.summarizeRecommendation, { token, body: r });
    expect(res.status).toBe(200);
    return res.body as string;
  }

  // Wider filters than the demo's defaults, as a trader may set them, so an in-the-money put shows.
  const WIDE = { at_or_below_conservative: "0", skip_earnings: "0", delta_max: "0.6", min_open_interest: "0" };

  it("for an out-of-the-money put: the card's net return if it expires worthless, its T-bill figure, nothing else", async () => {
    const r = (await screenList("AAPL", WIDE)).find((o) => o.strike_price < o.current_stock_price)!;
    const text = await explain(r);
    expect(text).toContain(
      `Return if it expires worthless, net of $${formatPrice(r.commission)} commission a contract: ${formatPercent(r.net_monthly_return)} a month, ${formatPercent(r.net_annualized_return)} a year`,
    );
    expect(text).toContain(`T-bills would pay ${formatPercent(r.tbill_return, 2)} on the same cash`);
    expect(text).not.toMatch(/good time to sell/i);
    expect(numbersIn(text).filter((n) => !screenNumbers(r).has(n))).toEqual([]);
  });

  it("for an in-the-money put: the whole premium if it expires worthless, the time value if the stock does not move", async () => {
    const r = (await screenList("AAPL", WIDE)).find((o) => o.strike_price > o.current_stock_price)!;
    expect(r).toBeDefined();
    expect(r.intrinsic_value).toBeGreaterThan(0);
    const text = await explain(r);
    // Hand-worked from the card: (bid − commission / 100) / strike × 30 / days.
    const whole = ((r.current_option_price - r.commission / 100) / r.strike_price) * (30 / r.days_to_expiry);
    expect(whole).toBeGreaterThan(r.net_monthly_return);
    expect(text).toContain(
      `Return if it expires worthless, keeping the whole $${formatPrice(r.current_option_price)} premium, net of $${formatPrice(r.commission)} commission a contract: ${formatPercent(whole)} a month`,
    );
    expect(text).toContain(
      `If the stock does not move, only the $${formatPrice(r.time_value)} time value is earned (the $${formatPrice(r.intrinsic_value)} intrinsic value goes into the shares): ${formatPercent(r.net_monthly_return)} a month, ${formatPercent(r.net_annualized_return)} a year net.`,
    );
    expect(text).toContain(`T-bills would pay ${formatPercent(r.tbill_return, 2)} on the same cash`);
    expect(text).not.toMatch(/good time to sell/i);
    expect(numbersIn(text).filter((n) => !screenNumbers(r).has(n))).toEqual([]);
  });
});
