/**
 * The built-in analyst: the default explainer, offline. It writes plain text from the gathered
 * facts only (facts.ts does the arithmetic, format.ts the renderings), says so where a fact is
 * missing, and hands over each paragraph as soon as it is written.
 */
import type { BestPut, LevelGap, RecommendationFacts, StockFacts } from "./facts-derive.ts";
import { aboveBelow, change, count, day, fixed2, instant, list, money, ORDINAL, percent, percentTo } from "./format.ts";
import type { Explainer } from "./port.ts";

const DISCLAIMER = "These figures come from the provider's data; this is an explanation, not financial advice.";

const LEVEL_NAMES: Record<LevelGap["level"], string> = {
  average_iv: "average intrinsic value",
  base_iv: "base intrinsic value",
  conservative_iv: "conservative intrinsic value",
  buy_level_one: "first buy level",
  buy_level_two: "second buy level",
  buy_level_three: "third buy level",
  buy_level_four: "fourth buy level",
};

function whose(source: StockFacts["levelsSource"]): string {
  return source === "watchlist" ? "your" : "the UIP list's";
}

/** The stock analysis, paragraph by paragraph. */
export function* stockAnalysisText(f: StockFacts): Generator<string> {
  yield `${f.ticker} (${f.name})\nBuilt-in analysis from the provider's data as of ${instant(f.asOf)}.\n\n`;

  // Price and the values it is judged against.
  const lines: string[] = [];
  if (f.price?.source === "market") lines.push(`Price: ${money(f.price.value)} (live quote).`);
  else if (f.price) {
    lines.push(
      `Price: ${money(f.price.value)}, the last price stored${f.price.asOf ? ` on ${day(f.price.asOf)}` : ""}; no live quote could be read.`,
    );
  } else lines.push(`No price is known for ${f.ticker}, so it cannot be compared with any value.`);

  if (f.levelsSource === "none" || !f.levels) {
    lines.push(
      `You have no intrinsic values or buy levels for ${f.ticker} in your watchlist, and it is not on the UIP list, so the price cannot be judged against a fair value or buy levels.`,
    );
  } else {
    lines.push(
      f.levelsSource === "watchlist"
        ? `Values from your watchlist:`
        : `${f.ticker} is not in your watchlist, so these are the UIP list's values:`,
    );
    const byLevel = new Map(f.gaps.map((g) => [g.level, g]));
    const ivs = (["average_iv", "base_iv", "conservative_iv"] as const).filter((l) => f.levels![l] > 0);
    if (ivs.length === 0) lines.push("No intrinsic values are set.");
    else {
      lines.push(
        `${list(ivs.map((l) => `${LEVEL_NAMES[l]} ${money(f.levels![l])}`))}.`.replace(/^./, (c) => c.toUpperCase()),
      );
      const compared = (["average_iv", "conservative_iv"] as const)
        .map((l) => byLevel.get(l))
        .filter((g) => g !== undefined);
      if (compared.length) {
        lines.push(`The price is ${list(compared.map((g) => `${aboveBelow(g.gap)} the ${LEVEL_NAMES[g.level]}`))}.`);
      }
    }
    const buys = (["buy_level_one", "buy_level_two", "buy_level_three", "buy_level_four"] as const).filter(
      (l) => f.levels![l] > 0,
    );
    if (buys.length === 0) lines.push("No buy levels are set.");
    else {
      lines.push(`Buy levels: ${list(buys.map((l) => money(f.levels![l])))}.`);
      const gaps = buys.map((l) => byLevel.get(l)).filter((g) => g !== undefined);
      const reached = gaps.filter((g) => g.gap <= 0);
      if (gaps.length === 0) {
        // No price to compare with; already said above.
      } else if (reached.length) {
        const deepest = reached.reduce((a, b) => (a.value < b.value ? a : b));
        lines.push(
          `The price is at or below the ${LEVEL_NAMES[deepest.level]} (${money(deepest.value)}): inside a zone ${whose(f.levelsSource)} levels mark for buying.`,
        );
      } else {
        const nearest = gaps.reduce((a, b) => (a.value > b.value ? a : b));
        lines.push(
          `The price is above all of them, ${percent(nearest.gap)} above the nearest, the ${LEVEL_NAMES[nearest.level]}.`,
        );
      }
    }
  }
  if (f.category) lines.push(`UIP category: ${f.category}.`);
  else lines.push(`${f.ticker} has no UIP category (it is not on the UIP list).`);
  yield `${lines.join(" ")}\n\n`;

  // Trend and volatility.
  const market: string[] = [];
  if (f.trend) {
    const t = f.trend;
    market.push(
      `Trend: over the last ${t.days} trading days (${day(t.from)} to ${day(t.to)}) the close went from ${money(t.firstClose)} to ${money(t.lastClose)}, ${change(t.change)}` +
        (t.recentDays !== null && t.recentChange !== null
          ? `; over the last ${t.recentDays} trading days it is ${change(t.recentChange)}.`
          : "."),
    );
    market.push(
      t.fromHigh === 0
        ? `The last close is the period's high; the low was ${money(t.low)}.`
        : `The range was ${money(t.low)} to ${money(t.high)}; the last close is ${percent(t.fromHigh)} below the high.`,
    );
  } else market.push("There is no usable price history, so the trend cannot be judged.");
  const v = f.volatility;
  if (v.historical !== null) {
    market.push(`Historical volatility over the last ${v.returns} daily returns: ${percent(v.historical)} a year.`);
  } else if (f.trend) market.push("The price history is too short for a historical volatility.");
  if (v.atmImplied !== null) {
    market.push(`At-the-money implied volatility, about a month out: ${percent(v.atmImplied)}.`);
    if (v.historical !== null) {
      market.push(
        v.atmImplied > v.historical
          ? "Options are priced for bigger moves than the stock has made lately, which pays put sellers more for the risk."
          : "Options are priced for smaller moves than the stock has made lately, so premiums are thin for the risk.",
      );
    }
  } else if (f.putSearch)
    market.push("The option chain has no usable at-the-money quote, so there is no implied volatility.");
  else market.push("The option chain could not be read, so there is no implied volatility.");
  if (v.ivSource !== null) {
    // The figures and digits of the option cards ("rank 13 % · percentile 10 %", "building: n of 20 days").
    const where = v.ivSource === "run" ? ", as on your recommendations for it" : "";
    market.push(
      v.ivRank !== null && v.ivPercentile !== null
        ? `IV rank ${percentTo(v.ivRank, 0)}, IV percentile ${percentTo(v.ivPercentile, 0)}, against ${count(v.ivHistoryDays)} days of daily at-the-money implied volatility${where}.`
        : `IV rank: building, ${Math.min(20, v.ivHistoryDays)} of 20 days of daily implied volatility stored${where}.`,
    );
  }
  yield `${market.join(" ")}\n\n`;

  // Earnings.
  if (f.earnings) {
    const when =
      f.earnings.daysAway <= 0 ? "today" : f.earnings.daysAway === 1 ? "tomorrow" : `in ${f.earnings.daysAway} days`;
    yield `Next earnings report: ${day(f.earnings.date)}, ${when}. Earnings can move the stock sharply through a strike.\n\n`;
  } else if (f.missing.includes("the earnings calendar")) {
    yield "The earnings calendar could not be read, so an earnings report before an expiry cannot be ruled out.\n\n";
  } else yield "No upcoming earnings date is known.\n\n";

  // The reader's own first pick: what their list shows first, with their filters.
  if (f.bestPut) yield `${bestPutText(f.bestPut, f)}\n\n`;
  else if (f.volatility.ivSource === "run") yield `No put of ${f.ticker} passes your filters right now.\n\n`;
  else if (f.putSearch) {
    yield `No put passes your filters now: of the ${count(f.putSearch.putsInChain)} puts in the chain, ${count(f.putSearch.eligible)} expire in ${f.putSearch.minDays} to ${f.putSearch.maxDays} days with a bid and trading interest, and none of them passes your filters or pays enough for its risk.\n\n`;
  } else yield "Without the option chain no put can be suggested.\n\n";

  if (f.missing.length) yield `Missing from this analysis: ${list(f.missing)}.\n\n`;
  yield DISCLAIMER;
}

function bestPutText(p: BestPut, f: StockFacts): string {
  const from = f.bestPutSource === "run" ? "the first of your recommendations for it" : "from the option chain now";
  const filters = f.filters
    ? `, with your filters (|delta| ${fixed2(f.filters.deltaMin)} to ${fixed2(f.filters.deltaMax)}, ${f.filters.dteMin} to ${f.filters.dteMax} days)`
    : "";
  // Net as the card's "Monthly, net": time value at the bid less commission. For an in-the-money
  // put that is what it earns if the stock does not move; expiring worthless would keep it all.
  const net =
    p.intrinsicValue > 0
      ? `Net of ${money(p.commission)} commission a contract, on the ${money(p.timeValue)} time value only (${money(p.intrinsicValue)} of the premium is intrinsic), what it earns if the stock does not move: ${percent(p.netMonthly)} a month, ${percent(p.netAnnualized)} a year.`
      : `Net of ${money(p.commission)} commission a contract, if it expires worthless: ${percent(p.netMonthly)} a month, ${percent(p.netAnnualized)} a year.`;
  const parts = [
    `Best put now for you (${from}${filters}): ${p.symbol}, strike ${money(p.strike)}, expiring ${day(p.expiration)} (${p.daysToExpiry} days).`,
    `Selling one contract collects ${money(p.premium)} a share (${money(p.premiumPerContract)}) and sets aside ${money(p.collateral)} of cash.`,
    net,
    `Breakeven ${money(p.breakeven)}, ${percent(p.cushion)} ${p.cushion >= 0 ? "below" : "above"} the price; probability of profit ${percent(p.probabilityOfProfit)}; delta ${fixed2(p.delta)}; implied volatility ${percent(p.impliedVolatility)}.`,
  ];
  if (p.buyLevel) {
    parts.push(
      `The strike is at or below ${whose(f.levelsSource)} ${ORDINAL[p.buyLevel.name]} buy level (${money(p.buyLevel.value)}), so an assignment would buy at a price already marked as a buy.`,
    );
  } else if (f.levels && f.gaps.some((g) => g.level.startsWith("buy_level"))) {
    parts.push(`The strike is above every buy level, so an assignment would buy higher than those levels.`);
  }
  if (p.belowConservativeIv) parts.push("It is below the conservative intrinsic value.");
  if (p.earningsBeforeExpiry)
    parts.push("An earnings report falls before expiry, so the stock could gap through the strike.");
  return parts.join(" ");
}

/** The recommendation summary, paragraph by paragraph. */
export function* recommendationText(f: RecommendationFacts): Generator<string> {
  const what = f.ticker ? `${f.ticker}${f.name ? ` (${f.name})` : ""}` : "the underlying stock";
  yield (
    `Selling ${f.symbol}: a ${f.type} on ${what}, strike ${money(f.strike)}, expiring ${day(f.expiration)}` +
    (f.daysToExpiry > 0 ? ` (${f.daysToExpiry} days).` : f.daysToExpiry === 0 ? " (today)." : ", which has passed.") +
    (f.type === "call" ? " This explanation is written for cash-secured puts and does not fit a call." : "") +
    "\n\n"
  );

  yield `What it means: you receive ${money(f.premium)} a share (${money(f.premiumPerContract)} a contract) now${f.bid !== null && Math.abs(f.bid - f.premium) < 1e-9 ? `, selling at the bid${f.mid !== null ? ` (the mid is ${money(f.mid)})` : ""},` : ""} and promise to buy ${f.contractSize} shares at ${money(f.strike)} if the stock is below the strike at expiry. Cash needed: ${money(f.collateral)} a contract, held until expiry or until you buy the put back.\n\n`;

  const where = [
    f.inTheMoney
      ? `The stock is at ${money(f.stockPrice)}, so the strike is ${percent(f.strikeDistance)} above it: in the money. ${money(f.intrinsic)} of the premium is intrinsic value and assignment is likely unless the stock rises.`
      : `The stock is at ${money(f.stockPrice)}; the strike is ${percent(f.strikeDistance)} below it (out of the money).`,
    `Breakeven: ${money(f.breakeven)}. ` +
      (f.cushion >= 0
        ? `The stock can fall ${percent(f.cushion)} before you lose money.`
        : `That is ${percent(f.cushion)} above today's price: at today's price the trade is already losing.`),
  ];
  if (f.netMonthly !== null && f.netAnnualized !== null) {
    // Expiring worthless keeps the whole premium; the card's net figure, on the time value only, is
    // what an in-the-money put earns if the stock does not move (the intrinsic part buys the shares).
    if (f.inTheMoney && f.worthlessNetMonthly !== null && f.worthlessNetAnnualized !== null) {
      where.push(
        `Return if it expires worthless, keeping the whole ${money(f.premium)} premium, net of ${money(f.commission)} commission a contract: ${percent(f.worthlessNetMonthly)} a month, ${percent(f.worthlessNetAnnualized)} a year on the cash set aside.`,
        `If the stock does not move, only the ${money(f.timeValue)} time value is earned (the ${money(f.intrinsic)} intrinsic value goes into the shares): ${percent(f.netMonthly)} a month, ${percent(f.netAnnualized)} a year net.`,
      );
    } else {
      where.push(
        `Return if it expires worthless, net of ${money(f.commission)} commission a contract: ${percent(f.netMonthly)} a month, ${percent(f.netAnnualized)} a year on the cash set aside.`,
      );
    }
    if (f.tbillReturn !== null && f.excessReturn !== null) {
      where.push(
        `T-bills would pay ${percentTo(f.tbillReturn, 2)} on the same cash over the same days, so ${f.inTheMoney ? "the time value" : "this"} pays ${percent(f.excessReturn)} ${f.excessReturn >= 0 ? "more" : "less"}.`,
      );
    }
  } else where.push("The return cannot be given: the option expires today or has expired.");
  if (f.probabilityOfAssignment !== null) {
    where.push(
      `Chance of assignment (risk-neutral, N(−d2)): ${percent(f.probabilityOfAssignment)}` +
        (f.greeks
          ? `; |delta| ${fixed2(Math.abs(f.greeks.delta))} is the traders' shortcut for it and reads lower.`
          : "."),
    );
  }
  if (f.ivRank !== null && f.ivPercentile !== null) {
    where.push(
      `IV rank ${percentTo(f.ivRank, 0)}, IV percentile ${percentTo(f.ivPercentile, 0)} over the stored year.`,
    );
  } else if (f.ivHistoryDays !== null) {
    where.push(`IV rank: building, ${Math.min(20, f.ivHistoryDays)} of 20 days stored.`);
  }
  if (f.probabilityOfProfit !== null) {
    where.push(
      f.probabilitySource === "model"
        ? `Probability of profit: about ${percent(f.probabilityOfProfit)}, from the lognormal model at the option's implied volatility.`
        : `Probability of profit: ${percent(f.probabilityOfProfit)}.`,
    );
  } else where.push("No probability of profit was given, and without implied volatility it cannot be computed.");
  yield `${where.join(" ")}\n\n`;

  if (f.greeks) {
    const g = f.greeks;
    yield (
      (g.source === "model" ? "The greeks, computed with the Black-Scholes model from the implied volatility:\n" : "") +
      `Delta ${fixed2(g.delta)}: the option's price moves about ${fixed2(Math.abs(g.delta))} of each dollar the stock moves. Traders read |delta| as the chance of finishing in the money; it understates the risk-neutral chance` +
      (f.probabilityOfAssignment !== null ? ` (${percent(f.probabilityOfAssignment)} here).\n` : ".\n") +
      (g.theta < 0
        ? `Theta ${fixed2(g.theta)}: time decay earns you about ${money(g.theta)} a share (${money(g.thetaPerContract)} a contract) a day while nothing else changes.\n`
        : `Theta ${fixed2(g.theta)}: this deep in the money the option does not lose value with time, so time decay earns the seller nothing.\n`) +
      `Vega ${fixed2(g.vega)}: each one-point rise in implied volatility lifts the option's price by about ${money(g.vega)} a share (${money(g.vegaPerContract)} a contract), a paper loss for the seller; a fall helps.\n\n`
    );
  } else yield "Delta, theta and vega were not given, and without implied volatility they cannot be computed.\n\n";

  const vol: string[] = [];
  if (f.impliedVolatility !== null && f.historicalVolatility !== null) {
    vol.push(
      `Implied volatility ${percent(f.impliedVolatility)} against historical ${percent(f.historicalVolatility)}: ` +
        (f.impliedVolatility > f.historicalVolatility
          ? "the premium prices in bigger moves than the stock has made lately, which favours the seller."
          : "the premium prices in smaller moves than the stock has made lately, so it pays little for the risk."),
    );
  } else if (f.impliedVolatility !== null) vol.push(`Implied volatility: ${percent(f.impliedVolatility)}.`);
  if (f.weeklyLow !== null && f.weeklyHigh !== null && f.weeklyPosition) {
    vol.push(
      `This week the option traded between ${money(f.weeklyLow)} and ${money(f.weeklyHigh)}; at ${money(f.premium)} it is ${
        f.weeklyPosition === "middle" ? "in the middle" : `near the ${f.weeklyPosition}`
      } of that range${f.weeklyPosition === "top" ? ", so selling now collects more than earlier this week" : f.weeklyPosition === "bottom" ? ", so selling now collects less than earlier this week" : ""}.`,
    );
  }
  if (vol.length) yield `${vol.join(" ")}\n\n`;

  const assignment = [
    `If assigned: you buy ${f.contractSize} shares at ${money(f.strike)} with the ${money(f.collateral)} set aside; with the premium kept, your cost is ${money(f.breakeven)} a share.`,
  ];
  if (f.levels && f.levelsSource !== "none") {
    const who = f.levelsSource === "watchlist" ? "your" : "the UIP list's";
    if (f.buyLevel)
      assignment.push(
        `The strike is at or below ${who} ${ORDINAL[f.buyLevel.name]} buy level (${money(f.buyLevel.value)}).`,
      );
    else if (
      [f.levels.buy_level_one, f.levels.buy_level_two, f.levels.buy_level_three, f.levels.buy_level_four].some(
        (l) => l > 0,
      )
    ) {
      assignment.push(`The strike is above all of ${who} buy levels.`);
    }
    if (f.strikeVsConservative !== null) {
      assignment.push(
        `It is ${aboveBelow(f.strikeVsConservative)} ${who} conservative intrinsic value (${money(f.levels.conservative_iv)}).`,
      );
    }
  } else if (f.ticker && !f.tracked) {
    assignment.push(
      `The provider does not track ${f.ticker}, so the strike cannot be judged against intrinsic values or buy levels.`,
    );
  } else if (f.ticker) {
    assignment.push(
      `You have no intrinsic values or buy levels for ${f.ticker} in your watchlist, and it is not on the UIP list, so the strike cannot be judged against them.`,
    );
  }
  yield `${assignment.join(" ")}\n\n`;

  const risks = [
    `Risks: below ${money(f.breakeven)} the loss grows dollar for dollar with the stock's fall, up to ${money(f.maxLossPerContract)} a contract if the stock went to zero, while the gain is capped at the premium.`,
  ];
  if (f.earnings?.beforeExpiry)
    risks.push(`An earnings report on ${day(f.earnings.date)} falls before expiry and can move the stock sharply.`);
  else if (f.earnings) risks.push(`The next earnings report, ${day(f.earnings.date)}, comes after expiry.`);
  else if (f.missing.includes("the earnings date"))
    risks.push("The earnings date was not given, so a report before expiry cannot be ruled out.");
  else risks.push("No earnings report is known before expiry.");
  if (f.volume !== null || f.openInterest !== null) {
    const known = [
      f.volume !== null ? `volume ${count(f.volume)}` : null,
      f.openInterest !== null ? `open interest ${count(f.openInterest)}` : null,
    ].filter((x) => x !== null);
    risks.push(
      `Liquidity: ${list(known)}${f.bid !== null && f.ask !== null ? `, bid ${money(f.bid)} and ask ${money(f.ask)}` : ""}; a thin market makes buying the put back costly.`,
    );
  }
  yield `${risks.join(" ")}\n\n`;

  if (f.missing.length) yield `Not available: ${list(f.missing)}.\n\n`;
  yield DISCLAIMER;
}

/** Hands over each paragraph in its own turn of the event loop, so each leaves as its own chunk. */
async function* paced(paragraphs: Iterable<string>, signal: AbortSignal): AsyncGenerator<string> {
  for (const paragraph of paragraphs) {
    if (signal.aborted) return;
    yield paragraph;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export function createBuiltInAnalyst(): Explainer {
  return {
    kind: "built-in",
    stockAnalysis: (facts, signal) => paced(stockAnalysisText(facts), signal),
    recommendationSummary: (facts, signal) => paced(recommendationText(facts), signal),
  };
}
