import { describe, expect, it } from "vitest";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import type { WatchlistRow } from "#app/lib/list-row-data.ts";
import { messages } from "#app/lib/messages.ts";
import type { Intent } from "#app/routes/user-stocks/route.offline.ts";
import * as route from "#app/routes/user-stocks/route.tsx";
import { DEMO_WATCHLIST } from "#provider/db/demo-data.ts";
import { callAction, callLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/** /user-stocks (the watchlist): its loader and each intent of its action, through the route module against the embedded provider. */
const app = routeHarnessForFile();

const intent = (name: Intent) => name;

/** The watchlist the page shows now. */
async function rows(context = app.trader): Promise<WatchlistRow[]> {
  const page = await callLoader(route, context, "/user-stocks");
  return (page.data as { stocks: WatchlistRow[] }).stocks;
}
const tickers = async () => (await rows()).map((row) => row.stock.ticker);
async function rowOf(ticker: string, context = app.trader): Promise<WatchlistRow> {
  const row = (await rows(context)).find((r) => r.stock.ticker === ticker);
  if (!row) throw new Error(`${ticker} is not in the watchlist`);
  return row;
}
/** An id no row has. */
const NO_ROW = "999999";

describe("/user-stocks loader", () => {
  it("shows the trader's watchlist in its saved order, with delete allowed", async () => {
    const page = await callLoader(route, app.trader, "/user-stocks");
    expect(page.status).toBe(200);
    expect(page.data).toMatchObject({ canDelete: true, error: null });
    expect(await tickers()).toEqual(DEMO_WATCHLIST.map((row) => row.ticker));
  });

  it("sends a signed-out visit and a signed-out post to sign in, changing nothing", async () => {
    const before = await tickers();
    expect(await callLoader(route, signedOut(), "/user-stocks")).toMatchObject({ status: 302, location: "/login" });
    const ko = await rowOf("KO");
    const post = await callAction(route, signedOut(), "/user-stocks", {
      intent: intent("delete"),
      id: String(ko.id),
      ticker: "KO",
    });
    expect(post).toMatchObject({ status: 302, location: "/login" });
    expect(await tickers()).toEqual(before);
  });
});

describe("/user-stocks toggle", () => {
  it("switches a stock's recommendations on and comes back to the same search with a toast", async () => {
    const ko = await rowOf("KO");
    expect(ko.generate_recommendation).toBe(false);
    const answer = await callAction(route, app.trader, "/user-stocks?q=ko&delete=KO", {
      intent: intent("toggle"),
      id: String(ko.id),
      ticker: "KO",
      value: "true",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/user-stocks?q=ko",
      toast: { type: "success", text: messages.recommendationSettingUpdated },
    });
    expect((await rowOf("KO")).generate_recommendation).toBe(true);
  });

  it("answers a fetcher with the toast as data, and switches the stock off again", async () => {
    const ko = await rowOf("KO");
    const answer = await callAction(route, app.trader, "/user-stocks", {
      intent: intent("toggle"),
      id: String(ko.id),
      ticker: "KO",
      value: "false",
      [ENHANCED_FIELD]: "1",
    });
    expect(answer.status).toBe(200);
    expect(answer.data).toMatchObject({
      ok: true,
      toast: { type: "success", text: messages.recommendationSettingUpdated },
    });
    expect((await rowOf("KO")).generate_recommendation).toBe(false);
  });

  it("says why when the row is not there, and changes nothing", async () => {
    const before = await rows();
    const answer = await callAction(route, app.trader, "/user-stocks", {
      intent: intent("toggle"),
      id: NO_ROW,
      ticker: "ZZZ",
      value: "true",
      [ENHANCED_FIELD]: "1",
    });
    expect(answer.status).toBe(404);
    const reply = answer.data as { ok: boolean; toast: { type: string; text: string } };
    expect(reply.ok).toBe(false);
    expect(reply.toast.type).toBe("error");
    expect(reply.toast.text.startsWith(messages.recommendationToggleFailed(""))).toBe(true);
    expect(reply.toast.text.length).toBeGreaterThan(messages.recommendationToggleFailed("").length);
    expect(await rows()).toEqual(before);
  });

  it("refuses a post that says neither on nor off (422), and changes nothing", async () => {
    const before = await rows();
    const row = before.find((r) => r.generate_recommendation)!;
    const answer = await callAction(route, app.trader, "/user-stocks", {
      intent: intent("toggle"),
      id: String(row.id),
      ticker: row.stock.ticker,
      [ENHANCED_FIELD]: "1",
    });
    expect(answer.status).toBe(422);
    const reply = answer.data as { ok: boolean; toast: { type: string; text: string } };
    expect(reply.ok).toBe(false);
    expect(reply.toast.text).toBe(messages.recommendationToggleFailed("Neither on nor off was asked for"));
    expect(await rows()).toEqual(before);
  });
});

describe("another user's row", () => {
  it("is neither switched nor deleted nor moved by a trader's post", async () => {
    const before = await rows(app.admin);
    const theirs = await rowOf("KO", app.admin);
    const toggled = await callAction(route, app.trader, "/user-stocks", {
      intent: intent("toggle"),
      id: String(theirs.id),
      ticker: "KO",
      value: "true",
    });
    expect(toggled.toast?.type).toBe("error");
    expect(toggled.toast?.text.startsWith(messages.recommendationToggleFailed(""))).toBe(true);
    const deleted = await callAction(route, app.trader, "/user-stocks", {
      intent: intent("delete"),
      id: String(theirs.id),
      ticker: "KO",
    });
    expect(deleted.toast).toEqual({ type: "error", text: messages.deleteFailed });
    const mine = (await rows()).map((row) => row.id);
    const reordered = await callAction(route, app.trader, "/user-stocks?reorder=1", {
      intent: intent("reorder"),
      order: [theirs.id, ...mine].join(","),
    });
    expect(reordered).toMatchObject({ location: "/user-stocks?reorder=1", toast: { type: "warning" } });
    expect(await rows(app.admin)).toEqual(before);
    expect((await rows()).map((row) => row.id)).toEqual(mine);
  });
});

describe("/user-stocks delete", () => {
  it("deletes the stock, closes the dialog and the expanded row, and the list no longer shows it", async () => {
    const sbux = await rowOf("SBUX");
    const answer = await callAction(route, app.trader, "/user-stocks?q=s&open=SBUX&delete=SBUX", {
      intent: intent("delete"),
      id: String(sbux.id),
      ticker: "SBUX",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/user-stocks?q=s",
      toast: { type: "success", text: messages.deletedFromWatchlist("SBUX") },
    });
    expect(await tickers()).not.toContain("SBUX");
  });

  it("says the stock could not be deleted when the row is not there, and changes nothing", async () => {
    const before = await tickers();
    const answer = await callAction(route, app.trader, "/user-stocks?delete=ZZZ", {
      intent: intent("delete"),
      id: NO_ROW,
      ticker: "ZZZ",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/user-stocks",
      toast: { type: "error", text: messages.deleteFailed },
    });
    expect(await tickers()).toEqual(before);
  });
});

describe("/user-stocks reorder and move", () => {
  it("saves the whole new order (Finish Reorder), leaves reorder mode and shows the list in that order", async () => {
    const ids = (await rows()).map((row) => row.id);
    const reversed = [...ids].reverse();
    const answer = await callAction(route, app.trader, "/user-stocks?reorder=1", {
      intent: intent("reorder"),
      order: reversed.join(","),
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/user-stocks",
      toast: { type: "success", text: messages.watchlistReordered },
    });
    expect((await rows()).map((row) => row.id)).toEqual(reversed);
  });

  it("finishes without a toast when the moves were each saved already (no JavaScript)", async () => {
    const ids = (await rows()).map((row) => row.id);
    const answer = await callAction(route, app.trader, "/user-stocks?reorder=1", {
      intent: intent("reorder"),
      order: ids.join(","),
    });
    expect(answer).toMatchObject({ status: 302, location: "/user-stocks", toast: null });
    expect((await rows()).map((row) => row.id)).toEqual(ids);
  });

  it("refuses an order it cannot read with a warning, staying in reorder mode, and changes nothing", async () => {
    const before = (await rows()).map((row) => row.id);
    const answer = await callAction(route, app.trader, "/user-stocks?reorder=1", {
      intent: intent("reorder"),
      order: "first,second",
    });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/user-stocks?reorder=1");
    expect(answer.toast?.type).toBe("warning");
    expect((await rows()).map((row) => row.id)).toEqual(before);
  });

  it("moves one stock up a place and stays in reorder mode (the arrows without JavaScript)", async () => {
    const [first, second, ...rest] = (await rows()).map((row) => row.id);
    const answer = await callAction(route, app.trader, "/user-stocks?reorder=1", {
      intent: intent("move"),
      id: String(second),
      direction: "up",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/user-stocks?reorder=1",
      toast: { type: "success", text: messages.watchlistReordered },
    });
    expect((await rows()).map((row) => row.id)).toEqual([second, first, ...rest]);
  });

  it("leaves the first stock where it is when moved up, without a toast", async () => {
    const ids = (await rows()).map((row) => row.id);
    const answer = await callAction(route, app.trader, "/user-stocks?reorder=1", {
      intent: intent("move"),
      id: String(ids[0]),
      direction: "up",
    });
    expect(answer).toMatchObject({ status: 302, location: "/user-stocks?reorder=1", toast: null });
    expect((await rows()).map((row) => row.id)).toEqual(ids);
  });
});

describe("/user-stocks unknown form", () => {
  it("answers a post with no intent of the page's with the generic error, changing nothing", async () => {
    const before = await rows();
    const answer = await callAction(route, app.trader, "/user-stocks?q=k", { intent: "nonsense" });
    expect(answer).toMatchObject({
      status: 302,
      location: "/user-stocks?q=k",
      toast: { type: "error", text: messages.unknownError },
    });
    expect(await rows()).toEqual(before);
  });
});
