import type { Db } from "#provider/db/client.ts";
import { DEFAULT_CAPITAL_SETTINGS, type CapitalSettings } from "#contract/plan.ts";
import type { MarketData } from "#provider/market/port.ts";
import { LEVEL_COLUMNS, type ReferenceLevels } from "#provider/recommend/level-flags.ts";

/** The plan's tables (ADR 0081): capital settings, sectors (the source's and the trader's own), prices and levels. */

const SETTING_COLUMNS = ["capital", "reserve_share", "ticker_limit", "sector_limit", "only_fitting"] as const;

/** The trader's capital settings; no row means the defaults (capital not set). */
export async function savedCapitalSettings(db: Db, userId: number): Promise<CapitalSettings> {
  const row = await db
    .selectFrom("capital_settings")
    .select(SETTING_COLUMNS)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ? { ...row } : { ...DEFAULT_CAPITAL_SETTINGS };
}

export async function saveCapitalSettings(db: Db, userId: number, values: CapitalSettings): Promise<CapitalSettings> {
  const row = {
    capital: values.capital,
    reserve_share: values.reserve_share,
    ticker_limit: values.ticker_limit,
    sector_limit: values.sector_limit,
    only_fitting: values.only_fitting,
  };
  await db
    .insertInto("capital_settings")
    .values({ user_id: userId, ...row })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...row, updated_at: new Date() }))
    .execute();
  return row;
}

/** The trader's own sector for a ticker; null removes it (back to the market source's). */
export async function saveSectorOverride(db: Db, userId: number, ticker: string, sector: string | null): Promise<void> {
  if (sector === null) {
    await db.deleteFrom("trader_sectors").where("user_id", "=", userId).where("ticker", "=", ticker).execute();
    return;
  }
  await db
    .insertInto("trader_sectors")
    .values({ user_id: userId, ticker, sector })
    .onConflict((oc) => oc.columns(["user_id", "ticker"]).doUpdateSet({ sector }))
    .execute();
}

/** What the plan needs of the store for these tickers: last prices, the trader's levels, sectors so far. */
export async function tickerFacts(db: Db, userId: number, tickers: readonly string[]) {
  const spots = new Map<string, number>();
  const levels = new Map<string, ReferenceLevels>();
  const sourceSectors = new Map<string, string>();
  const overrides = new Map<string, string>();
  if (tickers.length === 0) return { spots, levels, sourceSectors, overrides, known: new Set<string>() };
  const list = [...tickers];
  const [stocks, levelRows, overrideRows] = await Promise.all([
    db.selectFrom("stocks").select(["ticker", "current_price", "sector"]).where("ticker", "in", list).execute(),
    db
      .selectFrom("user_stocks as us")
      .innerJoin("stocks as s", "s.id", "us.stock_id")
      .select(["s.ticker", ...LEVEL_COLUMNS.map((c) => `us.${c}` as const)])
      .where("us.user_id", "=", userId)
      .where("us.active", "=", 1)
      .where("s.ticker", "in", list)
      .execute(),
    db
      .selectFrom("trader_sectors")
      .select(["ticker", "sector"])
      .where("user_id", "=", userId)
      .where("ticker", "in", list)
      .execute(),
  ]);
  for (const s of stocks) {
    spots.set(s.ticker, s.current_price);
    if (s.sector) sourceSectors.set(s.ticker, s.sector);
  }
  for (const { ticker, ...row } of levelRows) levels.set(ticker, row);
  for (const o of overrideRows) overrides.set(o.ticker, o.sector);
  return { spots, levels, sourceSectors, overrides, known: new Set(stocks.map((s) => s.ticker)) };
}

/**
 * Each ticker's sector: the trader's own, else the one stored from the market source, else the
 * source is asked (and its answer stored for a ticker the store knows). A source that cannot say
 * leaves the ticker out (the plan counts it as "Unknown").
 */
export async function sectorsOf(
  db: Db,
  market: MarketData,
  tickers: readonly string[],
  facts: Pick<Awaited<ReturnType<typeof tickerFacts>>, "sourceSectors" | "overrides" | "known">,
): Promise<Map<string, string>> {
  const sectors = new Map(facts.sourceSectors);
  const missing = tickers.filter((t) => !sectors.has(t) && !facts.overrides.has(t));
  if (missing.length > 0 && market.sector) {
    const answers = await Promise.all(missing.map((t) => market.sector!(t).catch(() => null)));
    const stored: Promise<unknown>[] = [];
    missing.forEach((ticker, i) => {
      const sector = answers[i];
      if (!sector) return;
      sectors.set(ticker, sector);
      if (facts.known.has(ticker)) {
        stored.push(db.updateTable("stocks").set({ sector }).where("ticker", "=", ticker).execute());
      }
    });
    await Promise.all(stored);
  }
  for (const [ticker, sector] of facts.overrides) sectors.set(ticker, sector);
  return sectors;
}
