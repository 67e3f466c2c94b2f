import { describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import type { TradeRecommendation } from "#contract/entities.ts";
import { userCall } from "#app/server/auth.server.ts";
import * as stockAnalysis from "#app/routes/resources/ai.stock-analysis.ts";
import * as summarize from "#app/routes/resources/ai.summarize.ts";
import * as companyName from "#app/routes/resources/company-name.ts";
import * as stockHistory from "#app/routes/resources/stock-history.$ticker.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import {
  callAction,
  callLoader,
  Json,
  post,
  runAction,
  signedOut,
  routeHarnessForFile,
} from "../../support/app-routes.ts";

/**
 * The resource routes the pages' scripts call (JSON or streamed text, never a page): the add
 * forms' company name, a row's price chart, and the two AI texts. Through the route modules
 * against the embedded provider, its simulated market and its built-in analyst.
 */
const app = routeHarnessForFile();

const nameOf = (ticker: string) => DEMO_TICKERS.find((t) => t.ticker === ticker)!.name;

describe("/resources/company-name", () => {
  it("names the company of a ticker, however it was typed, for an hour in the browser's cache", async () => {
    const answer = await callLoader(companyName, app.trader, "/resources/company-name?ticker=%20ko%20");
    expect(answer).toMatchObject({ status: 200, data: { ticker: "KO", name: nameOf("KO") } });
    expect(answer.headers.get("cache-control")).toBe("private, max-age=3600");
  });

  it("answers 404 with the reason for a ticker the market does not know, 400 without one", async () => {
    const unknown = await callLoader(companyName, app.trader, "/resources/company-name?ticker=ZZZZQ");
    expect(unknown.status).toBe(404);
    expect((unknown.data as { detail: string }).detail).toMatch(/ZZZZQ/);
    const none = await callLoader(companyName, app.trader, "/resources/company-name?ticker=");
    expect(none.status).toBe(400);
    expect(none.data).toHaveProperty("detail");
  });

  it("sends a signed-out request to sign in", async () => {
    expect(await callLoader(companyName, signedOut(), "/resources/company-name?ticker=KO")).toMatchObject({
      status: 302,
      location: "/login",
    });
  });
});

describe("/resources/stock-history/:ticker", () => {
  it("gives a year of daily closes, oldest first, for the row's chart", async () => {
    const answer = await callLoader(stockHistory, app.trader, "/resources/stock-history/KO", { ticker: "KO" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("private, max-age=300");
    const points = answer.data as { time: string; value: number }[];
    expect(points.length).toBeGreaterThan(200);
    expect(points.every((p) => typeof p.time === "string" && p.value > 0)).toBe(true);
    expect([...points].sort((a, b) => a.time.localeCompare(b.time))).toEqual(points);
  });

  it("answers 404 for a ticker with no history, saying so", async () => {
    const answer = await callLoader(stockHistory, app.trader, "/resources/stock-history/ZZZZQ", { ticker: "ZZZZQ" });
    expect(answer.status).toBe(404);
    expect((answer.data as { detail: string }).detail).toMatch(/ZZZZQ/);
  });

  it("sends a signed-out request to sign in", async () => {
    expect(await callLoader(stockHistory, signedOut(), "/resources/stock-history/KO", { ticker: "KO" })).toMatchObject({
      status: 302,
      location: "/login",
    });
  });
});

describe("/resources/ai/stock-analysis", () => {
  it("streams the analysis of a stock as text, never cached", async () => {
    const answer = await callAction(
      stockAnalysis,
      app.trader,
      "/resources/ai/stock-analysis",
      new Json({ ticker: "KO" }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(answer.headers.get("cache-control")).toMatch(/no-store/);
    expect(String(answer.data)).toMatch(/KO|Coca-Cola/);
  });

  it("answers a body without a ticker with the provider's refusal as JSON", async () => {
    const answer = await runAction(stockAnalysis, app.trader, post("/resources/ai/stock-analysis", { ticker: "KO" }));
    expect(answer.status).toBe(422);
    expect(answer.data).toHaveProperty("detail");
  });

  it("sends a signed-out request to sign in", async () => {
    const answer = await callAction(
      stockAnalysis,
      signedOut(),
      "/resources/ai/stock-analysis",
      new Json({ ticker: "KO" }),
    );
    expect(answer).toMatchObject({ status: 302, location: "/login" });
  });
});

describe("/resources/ai/summarize", () => {
  it("streams the explanation of a recommendation as text", async () => {
    await userCall(app.trader, calls.generateRecommendations, { params: { ticker: "AAPL" } });
    const [option] = (await userCall(app.trader, calls.tradeRecommendations, {
      params: { symbol: "AAPL" },
    })) as TradeRecommendation[];
    const answer = await callAction(summarize, app.trader, "/resources/ai/summarize", new Json(option));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(String(answer.data)).toMatch(/AAPL/);
  });

  it("refuses a body that is not a recommendation with 422 and the reason", async () => {
    const answer = await callAction(
      summarize,
      app.trader,
      "/resources/ai/summarize",
      new Json({ strike_price: "high" }),
    );
    expect(answer.status).toBe(422);
    expect(answer.data).toHaveProperty("detail");
  });

  it("sends a signed-out request to sign in", async () => {
    const answer = await callAction(summarize, signedOut(), "/resources/ai/summarize", new Json({}));
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/login");
  });
});
