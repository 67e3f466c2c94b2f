/**
 * The trader's book (issue 42, docs/decisions/0081-capital-plan-from-the-journal-replay.md): their
 * capital settings, the Plan screen's figures, whether a recommended put fits, and the best puts
 * across the plan. Kept out of entities.ts, which every screen loads.
 *
 * Money is in dollars. Collateral is cash-secured (strike × 100 × contracts), never margin.
 */
import { z } from "zod";
import { Id, TradeRecommendation } from "./entities.ts";

export { CapitalSettings, DEFAULT_CAPITAL_SETTINGS } from "./capital-settings.ts";
import { CapitalSettings } from "./capital-settings.ts";

const BuyLevel = z.enum(["one", "two", "three", "four"]);

/** One open short put of the journal. */
const PlanPut = z.object({
  ticker: z.string(),
  strike: z.number(),
  expiry: z.string(),
  contracts: z.number().int(),
  /** strike × 100 × contracts: cash-secured. */
  collateral: z.number(),
  /** Premium received for the open contracts, net of the commissions paid to open them. */
  premium_kept: z.number(),
  /** The lowest of the trader's buy levels the strike is at or below, or null. */
  buy_level: BuyLevel.nullable(),
  /** strike ÷ conservative value − 1 (−0.06 = 6 % under it); null without a conservative value. */
  vs_conservative: z.number().nullable(),
});

/** What the trader would own of one ticker if every open put were assigned. */
const PlanExposure = z.object({
  ticker: z.string(),
  sector: z.string(),
  shares_held: z.number().int(),
  /** Shares held plus 100 per open put contract. */
  shares_if_assigned: z.number().int(),
  /** Held shares at their adjusted basis plus the open puts' strikes: the cash it takes. */
  cost_if_assigned: z.number(),
  /** cost_if_assigned less the open puts' premiums kept, per share. */
  basis_if_assigned: z.number(),
  share_of_capital: z.number().nullable(),
  over_limit: z.boolean(),
  conservative_value: z.number().nullable(),
  puts: z.array(PlanPut),
});

const PlanSector = z.object({
  sector: z.string(),
  cost_if_assigned: z.number(),
  share_of_capital: z.number().nullable(),
  over_limit: z.boolean(),
});

const ScenarioPut = z.object({
  ticker: z.string(),
  strike: z.number(),
  contracts: z.number().int(),
  /** The stock's last price, null when the store has none. */
  spot: z.number().nullable(),
  /** spot × (1 + move) at the put's expiry. */
  price_at_expiry: z.number().nullable(),
  in_the_money: z.boolean(),
  /** Cash to buy the shares if assigned (strike × 100 × contracts); 0 when out of the money. */
  cash_needed: z.number(),
  /** (strike − scenario price) × 100 × contracts when in the money, before any assignment fee. */
  loss_at_price: z.number(),
  premium_kept: z.number(),
});

const ScenarioExpiry = z.object({
  expiry: z.string(),
  puts: z.array(ScenarioPut),
  cash_needed: z.number(),
  loss_at_price: z.number(),
  premium_kept: z.number(),
});

const Scenario = z.object({
  /** The market's move to each expiry, −0.1 = 10 % lower. */
  move: z.number(),
  custom: z.boolean(),
  expiries: z.array(ScenarioExpiry),
  cash_needed: z.number(),
  loss_at_price: z.number(),
  premium_kept: z.number(),
  /** premium_kept − loss_at_price. */
  net: z.number(),
});
export type Scenario = z.infer<typeof Scenario>;

export const Plan = z.object({
  as_of: z.string(),
  settings: CapitalSettings,
  /** Sum of the collateral of every open short put not past its expiry. */
  committed: z.number(),
  /** Shares held, at their adjusted basis. */
  shares_cost: z.number(),
  holdings: z.array(z.object({ ticker: z.string(), shares: z.number().int(), adjusted_basis: z.number() })),
  /** capital × reserve_share; null without capital. */
  reserve: z.number().nullable(),
  /** capital − reserve − committed − shares_cost; null without capital. */
  free_cash: z.number().nullable(),
  puts: z.array(PlanPut),
  /**
   * Short puts past their expiry day's close and not yet recorded as expired or assigned: they hold
   * no cash (not in committed, exposures or scenarios), as on Trades (docs/decisions/0078).
   */
  awaiting_resolution: z.array(
    z.object({
      ticker: z.string(),
      strike: z.number(),
      expiry: z.string(),
      contracts: z.number().int(),
      premium_kept: z.number(),
    }),
  ),
  exposures: z.array(PlanExposure),
  sectors: z.array(PlanSector),
  scenarios: z.array(Scenario),
});
export type Plan = z.infer<typeof Plan>;
export type PlanExposure = z.infer<typeof PlanExposure>;

/** A custom scenario's move, as a fraction: −90 % to +50 %. */
const ScenarioMove = z.coerce
  .number({ error: "The market move must be a number" })
  .min(-0.9, "The market move must be from −90% to +50%")
  .max(0.5, "The market move must be from −90% to +50%");

export const PlanQuery = z.object({ move: ScenarioMove.optional() });

/** How many contracts of one put the plan allows, and by which limit. */
export const PutFit = z.object({
  id: Id,
  ticker: z.string(),
  sector: z.string(),
  /** strike × 100. */
  collateral_per_contract: z.number(),
  contracts_allowed: z.number().int(),
  by_cash: z.number().int(),
  by_ticker: z.number().int(),
  by_sector: z.number().int(),
  fits: z.boolean(),
  /** The ticker's and the sector's share of capital with one more contract. */
  ticker_share: z.number(),
  sector_share: z.number(),
});
export type PutFit = z.infer<typeof PutFit>;

/** What the fit marks need of the book, with the fits; capital null = not set (no fits then). */
const BookHeader = {
  capital: z.number().nullable(),
  free_cash: z.number().nullable(),
  ticker_limit: z.number(),
  sector_limit: z.number(),
  only_fitting: z.boolean(),
};

export const PlanFits = z.object({ ...BookHeader, fits: z.array(PutFit) });
export type PlanFits = z.infer<typeof PlanFits>;

export const PlanFitsQuery = z.object({
  ids: z
    .string()
    .regex(/^\d+(,\d+){0,199}$/, "ids: up to 200 recommendation ids, separated by commas")
    .transform((s) => s.split(",").map(Number))
    // The ids are the database's integers: a larger number names no recommendation (and overflows).
    .refine((ids) => ids.every((id) => id <= 2_147_483_647), "ids: each id must be at most 2,147,483,647"),
});

/** One put of the best-puts list: one contract, with the cash used so far. */
const BestPut = z.object({
  recommendation: TradeRecommendation,
  fit: PutFit,
  contracts: z.number().int(),
  cash: z.number(),
  running_total: z.number(),
});
export const BestPuts = z.object({ ...BookHeader, picks: z.array(BestPut) });
export type BestPuts = z.infer<typeof BestPuts>;

/** A trader's own sector for a ticker (empty = back to the market source's). */
export const SectorOverride = z.object({
  sector: z
    .string()
    .trim()
    .max(40, "A sector name is at most 40 characters")
    .transform((s) => (s === "" ? null : s)),
});
