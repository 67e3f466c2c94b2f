import { describe, expect, it } from "vitest";
import { messages } from "#app/lib/messages.ts";
import { CATEGORY_REQUIRED } from "#app/lib/stock-fields.ts";
import * as addUip from "#app/routes/add-uip-stock/route.tsx";
import * as addUser from "#app/routes/add-user-stock/route.tsx";
import * as editUip from "#app/routes/uip-stock.$ticker/route.tsx";
import * as editUser from "#app/routes/user-stock.$ticker/route.tsx";
import { OFFLINE_SAVE_HEADER } from "#app/offline/index.ts";
import { offlineMiddleware } from "#app/offline/index.server.ts";
import { callAction, callLoader, get, settle, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/**
 * The two lists' add and edit pages (one form each, configured per list), through their route modules
 * against the embedded provider: each intent, the permission guards and the refusals the page keeps.
 */
const app = routeHarnessForFile();

/** The kept form the page shows again: its values and its errors by field. */
const kept = (data: unknown) =>
  (data as { result: { initialValue: Record<string, string>; error: Record<string, string[]> | null } }).result;
const values = {
  base_iv: "300",
  conservative_iv: "180",
  buy_level_one: "150",
  buy_level_two: "",
  buy_level_three: "",
  buy_level_four: "",
};

async function categoryId(name: string): Promise<string> {
  const page = await callLoader(addUip, app.admin, "/add-uip-stock");
  const categories = (page.data as { categories: { id: number; name: string }[] }).categories;
  return String(categories.find((c) => c.name === name)!.id);
}

describe("signed out", () => {
  it("sends each add and edit page, and a post to it, to sign in", async () => {
    const toLogin = { status: 302, location: "/login" };
    expect(await callLoader(addUser, signedOut(), "/add-user-stock")).toMatchObject(toLogin);
    expect(await callLoader(addUip, signedOut(), "/add-uip-stock")).toMatchObject(toLogin);
    expect(await callLoader(editUser, signedOut(), "/user-stock/KO", { ticker: "KO" })).toMatchObject(toLogin);
    expect(await callLoader(editUip, signedOut(), "/uip-stock/KO", { ticker: "KO" })).toMatchObject(toLogin);
    const fields = { intent: "create", ticker: "NFLX", name: "Netflix, Inc.", ...values };
    expect(await callAction(addUser, signedOut(), "/add-user-stock", fields)).toMatchObject(toLogin);
    expect(await callAction(editUser, signedOut(), "/user-stock/KO", values, { ticker: "KO" })).toMatchObject(toLogin);
    const page = await callLoader(editUser, app.trader, "/user-stock/KO", { ticker: "KO" });
    expect((page.data as { row: { base_iv: number } }).row.base_iv).not.toBe(300);
  });
});

describe("/add-user-stock", () => {
  it("opens for a trader", async () => {
    expect(await callLoader(addUser, app.trader, "/add-user-stock")).toMatchObject({ status: 200, data: null });
  });

  it("says the ticker is unknown under the field when the lookup finds no company, keeping the values", async () => {
    const answer = await callAction(addUser, app.trader, "/add-user-stock", {
      intent: "lookup",
      ticker: "zzzzq",
      ...values,
    });
    expect(answer.status).toBe(200);
    expect(kept(answer.data).error?.ticker?.[0]).toMatch(/ZZZZQ/);
    expect(kept(answer.data).initialValue).toMatchObject({ ticker: "ZZZZQ", base_iv: "300" });
    // No company name is shown for it (an empty field is left out of the kept values).
    expect(kept(answer.data).initialValue.name ?? "").toBe("");
  });

  it("looks the company name up without JavaScript and keeps the typed values", async () => {
    const answer = await callAction(addUser, app.trader, "/add-user-stock", {
      intent: "lookup",
      ticker: "ts-la",
      ...values,
    });
    expect(answer.status).toBe(200);
    expect(kept(answer.data).initialValue).toMatchObject({ ticker: "TSLA", name: "Tesla, Inc.", base_iv: "300" });
  });

  it("keeps a ticker already in the watchlist on the page, with the server's detail under the ticker", async () => {
    const answer = await callAction(addUser, app.trader, "/add-user-stock", {
      intent: "create",
      ticker: "AAPL",
      ...values,
    });
    expect(answer.status).toBe(409);
    expect(kept(answer.data).error?.ticker?.[0]).toMatch(/AAPL/);
    expect(kept(answer.data).initialValue).toMatchObject({ ticker: "AAPL", base_iv: "300" });
  });

  it("adds the stock (a post without an intent too) and goes back to the watchlist with a toast", async () => {
    const answer = await callAction(addUser, app.trader, "/add-user-stock", {
      ticker: "tsla",
      name: "Tesla, Inc.",
      ...values,
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/user-stocks",
      toast: { type: "success", text: messages.added("TSLA") },
    });
  });
});

describe("/add-uip-stock", () => {
  it("sends a trader without UIP_STOCK CREATE back to the UIP list, from the page and from a post", async () => {
    const refused = {
      status: 302,
      location: "/uip-stocks",
      toast: { type: "error", text: messages.notAuthorizedUipCreate },
    };
    expect(await callLoader(addUip, app.trader, "/add-uip-stock")).toMatchObject(refused);
    expect(
      await callAction(addUip, app.trader, "/add-uip-stock", { intent: "create", ticker: "JPM", ...values }),
    ).toMatchObject(refused);
  });

  it("looks the company up for an admin without JavaScript, keeping the category chosen", async () => {
    const category_id = await categoryId("Buy");
    const answer = await callAction(addUip, app.admin, "/add-uip-stock", {
      intent: "lookup",
      ticker: "nflx",
      category_id,
      ...values,
    });
    expect(answer.status).toBe(200);
    expect(kept(answer.data).initialValue).toMatchObject({ ticker: "NFLX", name: "Netflix, Inc.", category_id });
  });

  it("requires a category, keeping the typed values", async () => {
    const answer = await callAction(addUip, app.admin, "/add-uip-stock", {
      intent: "create",
      ticker: "JPM",
      name: "JPMorgan Chase & Co.",
      ...values,
    });
    expect(answer.status).toBe(400);
    expect(kept(answer.data).error?.category_id).toEqual([CATEGORY_REQUIRED]);
    expect(kept(answer.data).initialValue).toMatchObject({ ticker: "JPM", base_iv: "300" });
  });

  it("adds the stock with its category and goes back to the UIP list with a toast", async () => {
    const category_id = await categoryId("Speculative");
    const fields = { intent: "create", ticker: "JPM", name: "JPMorgan Chase & Co.", category_id, ...values };
    const answer = await callAction(addUip, app.admin, "/add-uip-stock", fields);
    expect(answer).toMatchObject({ location: "/uip-stocks", toast: { type: "success", text: messages.added("JPM") } });
    const page = await callLoader(editUip, app.admin, "/uip-stock/JPM", { ticker: "JPM" });
    expect((page.data as { row: { category: { name: string } } }).row.category.name).toBe("Speculative");
  });
});

describe("/user-stock/:ticker", () => {
  it("sends a ticker not in the watchlist back to it", async () => {
    expect(await callLoader(editUser, app.trader, "/user-stock/COST", { ticker: "COST" })).toMatchObject({
      location: "/user-stocks",
      toast: { type: "error", text: messages.userStockNotFound },
    });
  });

  it("sends the service worker's background copy of it back too, but with no toast for the user's next page", async () => {
    // The worker keeps a copy of each page it reads for offline; a row deleted meanwhile must not
    // leave "not found" for the page the user opens after deleting it (root middleware).
    const request = get("/user-stock/COST", { [OFFLINE_SAVE_HEADER]: "1" });
    const loaded = () =>
      Promise.resolve(
        editUser.loader({
          request,
          url: new URL(request.url),
          params: { ticker: "COST" },
          pattern: "",
          context: app.trader,
        }),
      ).catch((thrown: unknown) => thrown) as Promise<Response>;
    const middlewareArgs = { request, params: {}, context: app.trader } as unknown as Parameters<
      typeof offlineMiddleware
    >[0];
    const answer = await settle(() => offlineMiddleware(middlewareArgs, loaded) as Promise<Response>);
    expect(answer).toMatchObject({ status: 302, location: "/user-stocks", toast: null });
    expect(answer.headers.getSetCookie().filter((line) => line.startsWith("__toast="))).toEqual([]);
  });

  it("refuses a value that is not a number, keeping what was typed", async () => {
    const answer = await callAction(
      editUser,
      app.trader,
      "/user-stock/KO",
      { ...values, base_iv: "12a" },
      { ticker: "KO" },
    );
    expect(answer.status).toBe(400);
    expect(kept(answer.data).initialValue).toMatchObject({ base_iv: "12a", conservative_iv: "180" });
  });

  it("saves the values with their average and goes back to the watchlist with a toast", async () => {
    const answer = await callAction(editUser, app.trader, "/user-stock/ko", values, { ticker: "ko" });
    expect(answer).toMatchObject({
      location: "/user-stocks",
      toast: { type: "success", text: messages.updated("KO") },
    });
    const page = await callLoader(editUser, app.trader, "/user-stock/KO", { ticker: "KO" });
    expect((page.data as { row: object }).row).toMatchObject({ base_iv: 300, conservative_iv: 180, average_iv: 240 });
  });
});

describe("/uip-stock/:ticker", () => {
  it("sends a ticker not in the UIP list back to it", async () => {
    expect(await callLoader(editUip, app.trader, "/uip-stock/DIS", { ticker: "DIS" })).toMatchObject({
      location: "/uip-stocks",
      toast: { type: "error", text: messages.uipStockNotFound("DIS") },
    });
  });

  it("keeps a trader's changes on the page with the refusal, as a toast and under the form", async () => {
    const category_id = await categoryId("Hold");
    const answer = await callAction(editUip, app.trader, "/uip-stock/KO", { category_id, ...values }, { ticker: "KO" });
    expect(answer.status).toBe(403);
    expect(kept(answer.data).error?.[""]).toEqual([messages.notAuthorizedUipEdit]);
    expect((answer.data as { toast: { text: string } }).toast.text).toBe(messages.notAuthorizedUipEdit);
  });

  it("saves an admin's values and category and goes back to the UIP list with a toast", async () => {
    const category_id = await categoryId("Buy");
    const answer = await callAction(editUip, app.admin, "/uip-stock/KO", { category_id, ...values }, { ticker: "KO" });
    expect(answer).toMatchObject({ location: "/uip-stocks", toast: { type: "success", text: messages.updated("KO") } });
    const page = await callLoader(editUip, app.admin, "/uip-stock/KO", { ticker: "KO" });
    expect((page.data as { row: object }).row).toMatchObject({
      base_iv: 300,
      average_iv: 240,
      category: { name: "Buy" },
    });
  });
});

describe("values probably not meant: warned, saved once accepted (ADR 0083)", () => {
  const outOfOrder = {
    base_iv: "300",
    conservative_iv: "320",
    buy_level_one: "150",
    buy_level_two: "160",
    buy_level_three: "",
    buy_level_four: "",
  };

  it("keeps an edit with Cons above Base and buy levels out of order on the page, with both warnings, unsaved", async () => {
    const before = await callLoader(editUser, app.trader, "/user-stock/KO", { ticker: "KO" });
    const answer = await callAction(editUser, app.trader, "/user-stock/KO", outOfOrder, { ticker: "KO" });
    expect(answer.status).toBe(200);
    expect((answer.data as { warnings: string[] }).warnings).toEqual([
      "Cons Value ($320.00) is above Base Value ($300.00): the conservative value is meant to be the lower one.",
      "The 2nd buy level ($160.00) is above the 1st ($150.00): buy levels go down from the 1st to the 4th.",
    ]);
    expect(kept(answer.data).initialValue).toMatchObject({ conservative_iv: "320", buy_level_two: "160" });
    const after = await callLoader(editUser, app.trader, "/user-stock/KO", { ticker: "KO" });
    expect((after.data as { row: object }).row).toEqual((before.data as { row: object }).row);
  });

  it("saves them when the box is ticked", async () => {
    const answer = await callAction(
      editUser,
      app.trader,
      "/user-stock/KO",
      { ...outOfOrder, accept_warnings: "1" },
      { ticker: "KO" },
    );
    expect(answer).toMatchObject({ location: "/user-stocks", toast: { text: messages.updated("KO") } });
    const page = await callLoader(editUser, app.trader, "/user-stock/KO", { ticker: "KO" });
    expect((page.data as { row: object }).row).toMatchObject({ conservative_iv: 320, buy_level_two: 160 });
  });

  it("answers a trader who may not edit the UIP list with the refusal, not with warnings", async () => {
    const category_id = await categoryId("Hold");
    const answer = await callAction(
      editUip,
      app.trader,
      "/uip-stock/KO",
      { category_id, ...outOfOrder },
      { ticker: "KO" },
    );
    expect(answer.status).toBe(403);
    expect((answer.data as { warnings?: string[] }).warnings).toBeUndefined();
  });

  it("warns on the add page too, and adds once accepted", async () => {
    const fields = { intent: "create", ticker: "NFLX", name: "Netflix, Inc.", ...outOfOrder };
    const warned = await callAction(addUser, app.trader, "/add-user-stock", fields);
    expect(warned.status).toBe(200);
    expect((warned.data as { warnings: string[] }).warnings).toHaveLength(2);
    expect(kept(warned.data).initialValue).toMatchObject({ ticker: "NFLX", conservative_iv: "320" });
    const added = await callAction(addUser, app.trader, "/add-user-stock", { ...fields, accept_warnings: "1" });
    expect(added).toMatchObject({ status: 302, location: "/user-stocks" });
  });
});
