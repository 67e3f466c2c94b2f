import { describe, expect, it } from "vitest";
import type { RouterContextProvider } from "react-router";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import type { UipRow, WatchlistRow } from "#app/lib/list-row-data.ts";
import { messages } from "#app/lib/messages.ts";
import { OFFLINE_SAVE_HEADER } from "#app/offline/index.ts";
import type { Intent } from "#app/routes/uip-stocks/route.offline.ts";
import * as route from "#app/routes/uip-stocks/route.tsx";
import * as watchlist from "#app/routes/user-stocks/route.tsx";
import { DEMO_CATEGORIES, DEMO_UIP } from "#provider/db/demo-data.ts";
import { callAction, callLoader, get, runLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/**
 * /uip-stocks (the shared UIP list): its loader and each intent of its action, through the route
 * module against the embedded provider; a trader may switch alerts and copy rows, only an admin
 * deletes and reorders.
 */
const app = routeHarnessForFile();

const intent = (name: Intent) => name;

interface UipPage {
  stocks: UipRow[];
  categories: { name: string }[];
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  error: string | null;
  analysis: unknown;
}
async function page(context: RouterContextProvider): Promise<UipPage> {
  return (await callLoader(route, context, "/uip-stocks")).data as UipPage;
}
const rows = async (context = app.trader) => (await page(context)).stocks;
const ids = async () => (await rows()).map((row) => row.id);
async function rowOf(ticker: string, context = app.trader): Promise<UipRow> {
  const row = (await rows(context)).find((r) => r.stock.ticker === ticker);
  if (!row) throw new Error(`${ticker} is not in the UIP list`);
  return row;
}
async function watchlistRows(): Promise<WatchlistRow[]> {
  return ((await callLoader(watchlist, app.trader, "/user-stocks")).data as { stocks: WatchlistRow[] }).stocks;
}
/** An id no row has. */
const NO_ROW = "999999";

describe("/uip-stocks loader", () => {
  it("shows a trader the list with its categories, and no admin controls", async () => {
    const shown = await page(app.trader);
    expect(shown).toMatchObject({ canCreate: false, canUpdate: false, canDelete: false, error: null, analysis: null });
    expect(shown.stocks.map((row) => row.stock.ticker).sort()).toEqual(DEMO_UIP.map((row) => row.ticker).sort());
    expect(shown.categories.map((c) => c.name)).toEqual(DEMO_CATEGORIES.map((c) => c.name));
  });

  it("shows an admin the same list with the controls to add, edit and delete", async () => {
    const shown = await page(app.admin);
    expect(shown).toMatchObject({ canCreate: true, canUpdate: true, canDelete: true, error: null });
    expect(shown.stocks.map((row) => row.id)).toEqual(await ids());
  });

  it("writes the AI analysis into a page opened with its modal (?ai=), but never waits for it otherwise", async () => {
    const opened = (await callLoader(route, app.trader, "/uip-stocks?ai=ko")).data as UipPage;
    expect(opened.analysis).toMatchObject({ ticker: "KO", error: null });
    expect((opened.analysis as { text: string }).text).toMatch(/KO|Coca-Cola/);
    // The browser's own data load streams it instead, and the offline copy would spend an AI text for nobody.
    expect(((await callLoader(route, app.trader, "/uip-stocks.data?ai=KO")).data as UipPage).analysis).toBeNull();
    const saved = await runLoader(route, app.trader, get("/uip-stocks?ai=KO", { [OFFLINE_SAVE_HEADER]: "1" }));
    expect((saved.data as UipPage).analysis).toBeNull();
  });

  it("sends a signed-out visit and a signed-out post to sign in, changing nothing", async () => {
    const before = await rows();
    expect(await callLoader(route, signedOut(), "/uip-stocks")).toMatchObject({ status: 302, location: "/login" });
    const ko = await rowOf("KO");
    const post = await callAction(route, signedOut(), "/uip-stocks", {
      intent: intent("alert"),
      id: String(ko.id),
      ticker: "KO",
      value: "true",
    });
    expect(post).toMatchObject({ status: 302, location: "/login" });
    expect(await rows()).toEqual(before);
  });
});

describe("/uip-stocks alert", () => {
  it("switches a trader's price alerts on and off, each with its toast, and the row shows it", async () => {
    const ko = await rowOf("KO");
    expect(ko.price_alert).toBe(false);
    // What the list's switch form posts without JavaScript: the intent, the wanted state and the
    // row's id (the button), no ticker; the toast still names the stock.
    const on = await callAction(route, app.trader, "/uip-stocks?category=3&add=KO", {
      intent: intent("alert"),
      value: "true",
      id: String(ko.id),
    });
    expect(on).toMatchObject({
      status: 302,
      location: "/uip-stocks?category=3",
      toast: { type: "success", text: messages.priceAlertOn("KO") },
    });
    expect((await rowOf("KO")).price_alert).toBe(true);
    // The bell is the trader's own: the admin's row stays off.
    expect((await rowOf("KO", app.admin)).price_alert).toBe(false);

    const off = await callAction(route, app.trader, "/uip-stocks", {
      intent: intent("alert"),
      id: String(ko.id),
      ticker: "KO",
      value: "false",
      [ENHANCED_FIELD]: "1",
    });
    expect(off.data).toMatchObject({ ok: true, toast: { type: "success", text: messages.priceAlertOff("KO") } });
    expect((await rowOf("KO")).price_alert).toBe(false);
  });

  it("says why when the row is not there, and changes nothing", async () => {
    const before = await rows();
    const answer = await callAction(route, app.trader, "/uip-stocks", {
      intent: intent("alert"),
      id: NO_ROW,
      ticker: "ZZZ",
      value: "true",
    });
    expect(answer.status).toBe(302);
    expect(answer.toast?.type).toBe("error");
    expect(answer.toast?.text.startsWith(messages.priceAlertFailed(""))).toBe(true);
    expect(await rows()).toEqual(before);
  });
});

describe("/uip-stocks watchlist", () => {
  it("copies a row with its values into the trader's watchlist", async () => {
    const nvda = await rowOf("NVDA");
    expect((await watchlistRows()).map((row) => row.stock.ticker)).not.toContain("NVDA");
    const answer = await callAction(route, app.trader, "/uip-stocks?q=nv&add=NVDA", {
      intent: intent("watchlist"),
      id: String(nvda.id),
      ticker: "NVDA",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/uip-stocks?q=nv",
      toast: { type: "success", text: messages.addedToWatchlist("NVDA") },
    });
    const copied = (await watchlistRows()).find((row) => row.stock.ticker === "NVDA");
    expect(copied).toMatchObject({
      average_iv: nvda.average_iv,
      buy_level_one: nvda.buy_level_one,
      buy_level_four: nvda.buy_level_four,
    });
  });

  it("warns with the server's reason when the stock is already in the watchlist, adding nothing", async () => {
    const before = await watchlistRows();
    const aapl = await rowOf("AAPL");
    const answer = await callAction(route, app.trader, "/uip-stocks", {
      intent: intent("watchlist"),
      id: String(aapl.id),
      ticker: "AAPL",
      [ENHANCED_FIELD]: "1",
    });
    expect(answer.status).toBe(409);
    expect(answer.data).toMatchObject({ ok: false, toast: { type: "warning" } });
    expect((answer.data as { toast: { text: string } }).toast.text).toMatch(/AAPL/);
    expect(await watchlistRows()).toEqual(before);
  });

  it("says the stock is not in the UIP list when the row is not there", async () => {
    const before = await watchlistRows();
    const answer = await callAction(route, app.trader, "/uip-stocks", {
      intent: intent("watchlist"),
      id: NO_ROW,
      ticker: "ZZZ",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/uip-stocks",
      toast: { type: "warning", text: messages.uipStockNotFound("ZZZ") },
    });
    expect(await watchlistRows()).toEqual(before);
  });
});

describe("/uip-stocks delete", () => {
  it("refuses a trader with the app's message and changes nothing", async () => {
    const before = await rows();
    const intc = await rowOf("INTC");
    const answer = await callAction(route, app.trader, "/uip-stocks?delete=INTC", {
      intent: intent("delete"),
      id: String(intc.id),
      ticker: "INTC",
      [ENHANCED_FIELD]: "1",
    });
    expect(answer.status).toBe(403);
    expect(answer.data).toMatchObject({ ok: false, toast: { type: "error", text: messages.noDeletePermission } });
    expect(await rows()).toEqual(before);
  });

  it("deletes a row for an admin, and nobody's list shows it any more", async () => {
    const intc = await rowOf("INTC", app.admin);
    const answer = await callAction(route, app.admin, "/uip-stocks?delete=INTC&open=INTC&category=5", {
      intent: intent("delete"),
      id: String(intc.id),
      ticker: "INTC",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/uip-stocks?category=5",
      toast: { type: "success", text: messages.deletedFromUip("INTC") },
    });
    expect((await rows(app.admin)).map((row) => row.stock.ticker)).not.toContain("INTC");
    expect((await rows(app.trader)).map((row) => row.stock.ticker)).not.toContain("INTC");
  });

  it("tells an admin the stock could not be deleted when the row is not there", async () => {
    const before = await rows(app.admin);
    const answer = await callAction(route, app.admin, "/uip-stocks", {
      intent: intent("delete"),
      id: NO_ROW,
      ticker: "ZZZ",
    });
    expect(answer.toast).toEqual({ type: "error", text: messages.deleteFailed });
    expect(await rows(app.admin)).toEqual(before);
  });
});

describe("/uip-stocks reorder and move", () => {
  it("refuses a trader's new order with the app's message, leaving reorder mode, and changes nothing", async () => {
    const before = await ids();
    const answer = await callAction(route, app.trader, "/uip-stocks?reorder=1&q=a", {
      intent: intent("reorder"),
      order: [...before].reverse().join(","),
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/uip-stocks?q=a",
      toast: { type: "error", text: messages.notAuthorizedUipReorder },
    });
    expect(await ids()).toEqual(before);
  });

  it("refuses a trader's move the same way", async () => {
    const before = await ids();
    const answer = await callAction(route, app.trader, "/uip-stocks?reorder=1", {
      intent: intent("move"),
      id: String(before[1]),
      direction: "up",
      [ENHANCED_FIELD]: "1",
    });
    expect(answer.status).toBe(403);
    expect(answer.data).toMatchObject({ ok: false, toast: { type: "error", text: messages.notAuthorizedUipReorder } });
    expect(await ids()).toEqual(before);
  });

  it("saves an admin's new order, which every user's list then shows", async () => {
    const reversed = [...(await ids())].reverse();
    const answer = await callAction(route, app.admin, "/uip-stocks?reorder=1", {
      intent: intent("reorder"),
      order: reversed.join(","),
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/uip-stocks",
      toast: { type: "success", text: messages.uipReordered },
    });
    expect(await ids()).toEqual(reversed);
  });

  it("moves a row down a place for an admin and stays in reorder mode", async () => {
    const [first, second, ...rest] = await ids();
    const answer = await callAction(route, app.admin, "/uip-stocks?reorder=1", {
      intent: intent("move"),
      id: String(first),
      direction: "down",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/uip-stocks?reorder=1",
      toast: { type: "success", text: messages.uipReordered },
    });
    expect(await ids()).toEqual([second, first, ...rest]);
  });
});

describe("/uip-stocks unknown form", () => {
  it("answers a post with no intent of the page's with the generic error, changing nothing", async () => {
    const before = await rows();
    const answer = await callAction(route, app.trader, "/uip-stocks?ai=KO", { intent: "nonsense" });
    expect(answer).toMatchObject({
      status: 302,
      location: "/uip-stocks",
      toast: { type: "error", text: messages.unknownError },
    });
    expect(await rows()).toEqual(before);
  });
});
