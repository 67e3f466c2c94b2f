import { beforeAll, describe, expect, it } from "vitest";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import { INSIGHTS_INTENT } from "#app/lib/insights-intents.ts";
import { messages } from "#app/lib/messages.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { FILTERS_SAVED } from "#app/routes/insights-list/trader-filters.server.ts";
import * as list from "#app/routes/insights/route.tsx";
import * as route from "#app/routes/insights-list/route.tsx";
import * as detail from "#app/routes/recommendation.$id/route.tsx";
import { callAction, callLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/**
 * /insights: its two forms (generate, save filters), the list's loader and the option detail's
 * (/recommendation/:id), through the route modules against the embedded provider.
 */
const app = routeHarnessForFile();

describe("/insights generate", () => {
  it("generates for a ticker and comes back with its card expanded and the provider's message", async () => {
    const answer = await callAction(route, app.trader, "/insights?q=app&date=2099-01-01", {
      intent: INSIGHTS_INTENT.generate,
      ticker: "AAPL",
    });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/insights?q=app&open=AAPL");
    expect(answer.toast?.type).toBe("success");
    expect(answer.toast?.text).not.toBe("");
    // The expanded card lists the ticker's new recommendations.
    const options = await openOptions("AAPL");
    expect(options.length).toBeGreaterThan(0);
    expect(options.every((option) => option.option_identifier.startsWith("AAPL"))).toBe(true);
  });

  it("takes a post without an intent (the form as first sent) as a generation", async () => {
    const answer = await callAction(route, app.trader, "/insights", { ticker: "MSFT" });
    expect(answer).toMatchObject({ status: 302, location: "/insights?open=MSFT", toast: { type: "success" } });
  });

  it("answers a fetcher with the refusal as data, and a plain form with the list and a toast", async () => {
    const enhanced = await callAction(route, app.trader, "/insights", {
      intent: INSIGHTS_INTENT.generate,
      ticker: "",
      [ENHANCED_FIELD]: "1",
    });
    expect(enhanced.status).toBe(422);
    expect(enhanced.data).toMatchObject({ ok: false, ticker: null, toast: { type: "error" } });

    const plain = await callAction(route, app.trader, "/insights?q=x", {
      intent: INSIGHTS_INTENT.generate,
      ticker: "",
    });
    expect(plain).toMatchObject({ status: 302, location: "/insights?q=x", toast: { type: "error" } });
    expect(plain.toast?.text).toBe((enhanced.data as { toast: { text: string } }).toast.text);
  });

  it("says 'Not found' for a ticker the provider does not know", async () => {
    const answer = await callAction(route, app.trader, "/insights", {
      intent: INSIGHTS_INTENT.generate,
      ticker: "ZZZZQ",
    });
    expect(answer).toMatchObject({ location: "/insights", toast: { type: "error", text: messages.notFound } });
  });
});

describe("/insights save filters", () => {
  // The whole form, as it is posted: every field is sent.
  const filters = {
    at_or_below_conservative: "1",
    skip_earnings: "0",
    delta_min: "0.1",
    delta_max: "0.35",
    dte_min: "7",
    dte_max: "45",
    min_bid: "0.2",
    min_open_interest: "10",
    max_spread: "15",
    commission: "0.65",
  };

  it("refuses a filter out of bounds and keeps what was typed in the address", async () => {
    const answer = await callAction(route, app.trader, "/insights?q=ko", {
      intent: INSIGHTS_INTENT.saveFilters,
      ...filters,
      delta_min: "5",
    });
    expect(answer.status).toBe(302);
    expect(answer.toast?.type).toBe("error");
    const back = new URL(answer.location!, "http://app.test");
    expect(back.pathname).toBe("/insights");
    expect(back.searchParams.get("q")).toBe("ko");
    expect(back.searchParams.get("delta_min")).toBe("5");
  });

  it("saves the trader's defaults, which the list then shows on its form", async () => {
    const answer = await callAction(route, app.trader, "/insights", {
      intent: INSIGHTS_INTENT.saveFilters,
      ...filters,
    });
    expect(answer.toast).toEqual({ type: "success", text: FILTERS_SAVED });
    const page = await callLoader(list, app.trader, "/insights");
    expect((page.data as { filters: Record<string, string> }).filters).toMatchObject(filters);
  });
});

/** The expanded card's recommendations of a ticker, as the list's loader gives them. */
async function openOptions(ticker: string): Promise<TradeRecommendation[]> {
  const page = await callLoader(list, app.trader, `/insights?open=${ticker}`);
  return (page.data as { options: TradeRecommendation[] | null }).options ?? [];
}

describe("/insights signed out", () => {
  it("sends a signed-out visit and a signed-out post to sign in", async () => {
    expect(await callLoader(list, signedOut(), "/insights")).toMatchObject({ status: 302, location: "/login" });
    const post = await callAction(route, signedOut(), "/insights", { intent: INSIGHTS_INTENT.generate, ticker: "KO" });
    expect(post).toMatchObject({ status: 302, location: "/login" });
    expect(await callLoader(detail, signedOut(), "/recommendation/1", { id: "1" })).toMatchObject({
      status: 302,
      location: "/login",
    });
  });
});

describe("/recommendation/:id loader", () => {
  it("opens a recommendation of the list, never kept in a cache", async () => {
    const [option] = await openOptions("AAPL");
    const page = await callLoader(detail, app.trader, `/recommendation/${option!.id}`, { id: String(option!.id) });
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.data).toMatchObject({
      recommendation: { id: option!.id, option_identifier: option!.option_identifier },
      error: null,
      explanation: null,
    });
  });

  it("writes the AI explanation into the page with ?explain=1 (the button without JavaScript)", async () => {
    const [option] = await openOptions("AAPL");
    const page = await callLoader(detail, app.trader, `/recommendation/${option!.id}?explain=1`, {
      id: String(option!.id),
    });
    const explanation = (page.data as { explanation: { text: string; error: string | null } }).explanation;
    expect(explanation.error).toBeNull();
    expect(explanation.text).toMatch(/AAPL/);
  });

  it("says 'Not found' with 404 for an id that is no recommendation, or not a number", async () => {
    for (const id of ["999999", "abc"]) {
      const page = await callLoader(detail, app.trader, `/recommendation/${id}`, { id });
      expect(page).toMatchObject({ status: 404, data: { recommendation: null, error: messages.notFound } });
    }
  });
});

describe("/insights loader", () => {
  it("sends a search with empty fields to a clean address", async () => {
    const answer = await callLoader(list, app.trader, "/insights?q=&max=&open=KO");
    expect(answer).toMatchObject({ status: 302, location: "/insights?open=KO" });
  });

  it("shows the list with the saved filters and says why when the address's are refused", async () => {
    const page = await callLoader(list, app.trader, "/insights?delta_min=5");
    expect(page.status).toBe(200);
    const loaded = page.data as { filtersError: string | null; topLineError: string | null };
    expect(loaded.filtersError).toBeTruthy();
    expect(loaded.topLineError).toBeNull();
  });
});

describe("/insights: a page of the list (ADR 0102)", () => {
  type Loaded = Awaited<ReturnType<typeof list.loader>>["data"];
  const load = async (url: string) => {
    const page = await callLoader(list, app.trader, url);
    expect(page.status).toBe(200);
    return page.data as Loaded;
  };
  const PAGING = 32;

  // More stocks with an active run than a page holds: copies of AAPL's run, ZP01 … ZP32.
  beforeAll(async () => {
    await callAction(route, app.admin, "/insights", { intent: INSIGHTS_INTENT.generate, ticker: "AAPL" });
    const { db } = app.provider.provider.context;
    const source = await db
      .selectFrom("active_recommendation_runs as a")
      .innerJoin("stocks as s", "s.id", "a.stock_id")
      .innerJoin("recommendation_runs as r", "r.id", "a.run_id")
      .select(["a.run_id", "r.inputs"])
      .where("s.ticker", "=", "AAPL")
      .executeTakeFirstOrThrow();
    const { id: _id, ...put } = await db
      .selectFrom("trade_recommendations")
      .selectAll()
      .where("run_id", "=", source.run_id)
      .limit(1)
      .executeTakeFirstOrThrow();
    for (let i = 1; i <= PAGING; i++) {
      const ticker = `ZP${String(i).padStart(2, "0")}`;
      const stock = await db
        .insertInto("stocks")
        .values({ ticker, name: `Paging Test ${ticker} Corp`, current_price: 100 })
        .returning("id")
        .executeTakeFirstOrThrow();
      const run = await db
        .insertInto("recommendation_runs")
        .values({ stock_id: stock.id, inputs: JSON.stringify(source.inputs) })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("trade_recommendations")
        .values({ ...put, run_id: run.id, stock_id: stock.id, extra: JSON.stringify(put.extra) })
        .execute();
      await db.insertInto("active_recommendation_runs").values({ stock_id: stock.id, run_id: run.id }).execute();
    }
  });

  it("holds 25 cards of every stock, in ticker order, and 'Show 25 more' brings the next", async () => {
    const first = await load("/insights");
    expect(first.topLine).toHaveLength(25);
    expect(first.shown).toBe(25);
    expect(first.page.total).toBeGreaterThanOrEqual(PAGING + 1);
    const tickers = first.topLine.map((t) => t.ticker);
    expect(tickers).toEqual([...tickers].sort());

    const more = await load("/insights?shown=50");
    expect(more.topLine).toHaveLength(Math.min(50, more.page.total));
    expect(more.topLine.slice(0, 25)).toEqual(first.topLine);
    expect(more.topLine.at(-1)!.ticker).toBe("ZP32");
  });

  it("finds a stock past the first page by its name", async () => {
    const first = await load("/insights");
    expect(first.topLine.map((t) => t.ticker)).not.toContain("ZP32");
    const found = await load("/insights?q=test%20zp32");
    expect(found.topLine.map((t) => t.ticker)).toEqual(["ZP32"]);
    expect(found.page).toMatchObject({ total: 1, query: "test zp32" });
    const many = await load("/insights?q=paging");
    expect(many.topLine).toHaveLength(25);
    expect(many.page.total).toBe(PAGING);
  });

  it("shows an expanded stock off the page first", async () => {
    const page = await load("/insights?open=ZP32");
    expect(page.page.pinned).toMatchObject({ ticker: "ZP32" });
    expect(page.topLine).toHaveLength(25);
    expect(page.options).not.toBeNull();
    // On the page, it is not shown twice.
    expect((await load("/insights?open=AAPL")).page.pinned).toBeNull();
  });
});
