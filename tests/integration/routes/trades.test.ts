import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Journal } from "#contract/entities.ts";
import { IMPORT_FILE_MAX_BYTES } from "#app/lib/trade-fields.ts";
import { ImportFormSchema } from "#app/routes/import-trades/import-schema.ts";
import { localDateTime } from "#app/lib/trade-fields.ts";
import type { TradeIntent } from "#app/lib/trade-intents.ts";
import { JOURNAL_TEXT } from "#app/server/trades.server.ts";
import * as addTrade from "#app/routes/add-trade/route.tsx";
import * as importTrades from "#app/routes/import-trades/route.tsx";
import * as portfolio from "#app/routes/portfolio/route.tsx";
import * as tradesExport from "#app/routes/resources/trades-export.ts";
import { callAction, callLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";
import { weeklyExpiryIn } from "#provider/testing/expiries.ts";

/**
 * The wheel journal's screens, through their route modules against the embedded provider: the
 * Trades screen (/portfolio, delete), Add Trade (save-stock, save-option), Import (preview-import,
 * import) and the CSV export.
 */
const app = routeHarnessForFile();

const intent = (name: TradeIntent) => name;

interface JournalPage {
  filters: { instrument: string; period: string };
  journal: Journal;
  rows: (Journal["rows"][number] & { instrument: string })[];
  closedCount: number;
  netPnl: number;
}
async function journal(url = "/portfolio?period=all"): Promise<JournalPage> {
  return (await callLoader(portfolio, app.trader, url)).data as JournalPage;
}
const tradeIds = async () => (await journal()).rows.map((row) => row.id).sort((a, b) => a - b);

/** The kept form the page shows again: its values and its errors by field ("" for the form's own). */
const kept = (data: unknown) =>
  (data as { result: { initialValue: Record<string, string>; error: Record<string, string[]> | null } }).result;

const HOUR = 3_600_000;
/** A datetime-local value `hoursAgo` hours before now (the forms refuse a trade dated in the future). */
const hoursAgo = (hours: number) => localDateTime(new Date(Date.now() - hours * HOUR));
/** The weekly expiry on or after `days` from now, as the demo market lists it. */
const expiryIn = (days: number) => weeklyExpiryIn(days);

const sellKoPut = () => ({
  intent: intent("save-option"),
  action: "sell_to_open",
  symbol: "ko",
  optionType: "put",
  strike: "50",
  expiry: expiryIn(30),
  quantity: "1",
  entryPrice: "1.25",
  entryFee: "0.65",
  entryDate: hoursAgo(3),
  confidence: "2",
});

describe("/portfolio loader", () => {
  it("shows a trader without trades an empty journal, on Last 7 Days by default", async () => {
    const page = (await callLoader(portfolio, app.trader, "/portfolio")).data as JournalPage;
    expect(page.filters).toEqual({ instrument: "all", period: "7d" });
    expect(page.rows).toEqual([]);
    expect(page).toMatchObject({ closedCount: 0, netPnl: 0 });
  });

  it("sends a signed-out visit and a signed-out post to sign in", async () => {
    expect(await callLoader(portfolio, signedOut(), "/portfolio")).toMatchObject({ status: 302, location: "/login" });
    const post = await callAction(portfolio, signedOut(), "/portfolio", { intent: intent("delete"), id: "1" });
    expect(post).toMatchObject({ status: 302, location: "/login" });
  });
});

describe("/add-trade loader", () => {
  it("opens the form the address names with its starting values", async () => {
    const page = await callLoader(addTrade, app.trader, "/add-trade?form=stocks");
    expect(page.data).toMatchObject({
      kind: "stocks",
      defaultValue: { type: "buy", portfolio: "Default Portfolio", confidence: "2" },
    });
    expect((await callLoader(addTrade, app.trader, "/add-trade")).data).toEqual({ kind: null, defaultValue: {} });
  });

  it("opens a recommendation's 'Record this trade' link as the options form filled in at the bid", async () => {
    const page = await callLoader(
      addTrade,
      app.trader,
      "/add-trade?ticker=KO&strike=50&expiry=2026-12-18&bid=1.25&type=put",
    );
    expect(page.data).toMatchObject({
      kind: "options",
      defaultValue: {
        action: "sell_to_open",
        symbol: "KO",
        strike: "50",
        expiry: "2026-12-18",
        entryPrice: "1.25",
        optionType: "put",
      },
    });
  });

  it("sends a signed-out visit and a signed-out post to sign in, saving nothing", async () => {
    expect(await callLoader(addTrade, signedOut(), "/add-trade?form=options")).toMatchObject({
      status: 302,
      location: "/login",
    });
    const post = await callAction(addTrade, signedOut(), "/add-trade?form=options", sellKoPut());
    expect(post).toMatchObject({ status: 302, location: "/login" });
    expect(await tradeIds()).toEqual([]);
  });
});

describe("/add-trade save-stock", () => {
  it("keeps every typed value with the errors of the fields the form refuses, saving nothing", async () => {
    const answer = await callAction(addTrade, app.trader, "/add-trade?form=stocks", {
      intent: intent("save-stock"),
      type: "buy",
      symbol: "",
      entryPrice: "sixty",
      quantity: "100",
      entryFee: "1",
      entryDate: hoursAgo(2),
      notes: "a note I typed",
    });
    expect(answer.status).toBe(400);
    const form = kept(answer.data);
    expect(form.initialValue).toMatchObject({ entryPrice: "sixty", quantity: "100", notes: "a note I typed" });
    expect(Object.keys(form.error ?? {}).sort()).toEqual(["entryPrice", "symbol"]);
    expect(await tradeIds()).toEqual([]);
  });

  it("saves a share trade with its exit and the journal shows both and the profit", async () => {
    const answer = await callAction(addTrade, app.trader, "/add-trade?form=stocks", {
      intent: intent("save-stock"),
      type: "buy",
      symbol: "pep",
      entryPrice: "160",
      quantity: "10",
      entryFee: "1",
      entryDate: hoursAgo(5),
      closingPrice: "165",
      exitFee: "1",
      exitDate: hoursAgo(4),
      confidence: "3",
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/portfolio?period=all",
      toast: { type: "success", text: JOURNAL_TEXT.saved("PEP shares", true) },
    });
    const page = await journal();
    expect(page.rows.map((row) => [row.kind, row.ticker, row.price])).toEqual([
      ["stock_sell", "PEP", 165],
      ["stock_buy", "PEP", 160],
    ]);
    // 10 × (165 − 160) less a dollar on each leg.
    expect(page).toMatchObject({ closedCount: 1, netPnl: 48 });
  });
});

describe("/add-trade save-option", () => {
  it("keeps every typed value with the provider's reason when there is no open put to buy back", async () => {
    const before = await tradeIds();
    const answer = await callAction(addTrade, app.trader, "/add-trade?form=options", {
      ...sellKoPut(),
      action: "buy_to_close",
      entryPrice: "0.40",
      notes: "closing early",
    });
    expect(answer.status).toBe(422);
    const form = kept(answer.data);
    expect(form.initialValue).toMatchObject({
      action: "buy_to_close",
      symbol: "ko",
      strike: "50",
      notes: "closing early",
    });
    expect(form.error?.[""]?.[0]).toMatch(/KO/);
    expect(await tradeIds()).toEqual(before);
  });

  it("refuses a Saturday expiry beside the Expiry field, keeping every typed value", async () => {
    const before = await tradeIds();
    const answer = await callAction(addTrade, app.trader, "/add-trade?form=options", {
      ...sellKoPut(),
      expiry: "2026-12-19",
      notes: "a weekend expiry",
    });
    expect(answer.status).toBe(422);
    const form = kept(answer.data);
    expect(form.initialValue).toMatchObject({ expiry: "2026-12-19", strike: "50", notes: "a weekend expiry" });
    expect(form.error?.expiry).toEqual(["Expiry 2026-12-19 is a Saturday: options expire on exchange trading days"]);
    expect(form.error?.[""]).toBeUndefined();
    expect(await tradeIds()).toEqual(before);
  });

  it("refuses a call beyond the shares held beside the Contracts field", async () => {
    const before = await tradeIds();
    const answer = await callAction(addTrade, app.trader, "/add-trade?form=options", {
      ...sellKoPut(),
      optionType: "call",
      strike: "75",
      quantity: "3",
    });
    expect(answer.status).toBe(422);
    const form = kept(answer.data);
    expect(form.initialValue).toMatchObject({ optionType: "call", strike: "75", quantity: "3" });
    expect(form.error?.quantity?.[0]).toMatch(/^Not covered: 3 calls on KO need 300 shares, and \d+ shares? of KO/);
    expect(await tradeIds()).toEqual(before);
  });

  it("saves a sold put, which the journal then lists as an open position", async () => {
    const answer = await callAction(addTrade, app.trader, "/add-trade?form=options", sellKoPut());
    expect(answer).toMatchObject({
      status: 302,
      location: "/portfolio?period=all",
      toast: { type: "success", text: JOURNAL_TEXT.saved("KO 50 put", false) },
    });
    const page = await journal("/portfolio?period=all&instrument=options");
    expect(page.rows.map((row) => [row.kind, row.ticker, row.strike])).toEqual([["sell_to_open", "KO", 50]]);
    expect(page.journal.open_options).toMatchObject([{ ticker: "KO", option_type: "put", strike: 50, contracts: 1 }]);
  });

  // Issue 40 finding 4: these reached the provider and came back as a 500 page, losing the form.
  it.each([
    ["a 7-letter symbol", { symbol: "abcdefg" }, "symbol", "An option's ticker is at most 6 characters"],
    ["a strike under 0.001", { strike: "0.0004" }, "strike", "Strike must be from 0.001 to 99,999.999"],
    ["a strike of 100,000", { strike: "100000" }, "strike", "Strike must be from 0.001 to 99,999.999"],
    ["an expiry in 1999", { expiry: "1999-12-17" }, "expiry", "Expiry must be from 2000-01-01 to 2099-12-31"],
    ["an expiry in 2100", { expiry: "2100-01-15" }, "expiry", "Expiry must be from 2000-01-01 to 2099-12-31"],
    ["a date in year 0", { entryDate: "0000-06-01T12:00" }, "entryDate", "A trade cannot be dated before 1900-01-01"],
  ])("keeps the form with a field error for %s, saving nothing", async (_name, change, field, text) => {
    const before = await tradeIds();
    const answer = await callAction(addTrade, app.trader, "/add-trade?form=options", { ...sellKoPut(), ...change });
    expect(answer.status).toBe(400);
    const form = kept(answer.data);
    expect(form.initialValue).toMatchObject({ ...change, action: "sell_to_open", quantity: "1", entryPrice: "1.25" });
    expect(form.error?.[field]).toEqual([text]);
    expect(await tradeIds()).toEqual(before);
  });

  it("refuses a post that names neither form, saving nothing", async () => {
    const before = await tradeIds();
    const answer = await callAction(addTrade, app.trader, "/add-trade", { ...sellKoPut(), intent: "nonsense" });
    expect(answer).toMatchObject({ status: 400, data: { result: undefined } });
    expect(await tradeIds()).toEqual(before);
  });
});

describe("/portfolio delete", () => {
  it("refuses to delete the put an assignment closed, with the provider's reason, and keeps it", async () => {
    const put = (await journal()).rows.find((row) => row.kind === "sell_to_open")!;
    const assigned = await callAction(addTrade, app.trader, "/add-trade?form=options", {
      ...sellKoPut(),
      action: "assignment",
      expiry: put.expiry!,
      entryPrice: "0",
      entryFee: "0",
      entryDate: hoursAgo(1),
    });
    expect(assigned.toast).toEqual({ type: "success", text: JOURNAL_TEXT.saved("KO 50 put", false) });
    const before = await tradeIds();

    const answer = await callAction(portfolio, app.trader, "/portfolio?period=all&instrument=options", {
      intent: intent("delete"),
      id: String(put.id),
    });
    expect(answer.status).toBe(302);
    expect(answer.location).toBe("/portfolio?period=all&instrument=options");
    expect(answer.toast?.type).toBe("warning");
    expect(answer.toast?.text).toMatch(/^A later trade needs this one: /);
    expect(await tradeIds()).toEqual(before);
  });

  it("deletes a trade nothing else needs, and the journal no longer lists it", async () => {
    const rows = (await journal()).rows;
    const sale = rows.find((row) => row.kind === "stock_sell" && row.ticker === "PEP")!;
    const answer = await callAction(portfolio, app.trader, "/portfolio?period=all", {
      intent: intent("delete"),
      id: String(sale.id),
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/portfolio?period=all",
      toast: { type: "success", text: JOURNAL_TEXT.deleted },
    });
    expect(await tradeIds()).toEqual(
      rows
        .map((row) => row.id)
        .filter((id) => id !== sale.id)
        .sort((a, b) => a - b),
    );
  });

  it("warns with the provider's reason for a trade that is not there", async () => {
    const before = await tradeIds();
    const answer = await callAction(portfolio, app.trader, "/portfolio", { intent: intent("delete"), id: "999999" });
    expect(answer).toMatchObject({ status: 302, location: "/portfolio", toast: { type: "warning" } });
    expect(answer.toast?.text).not.toBe("");
    expect(await tradeIds()).toEqual(before);
  });

  it("answers a post with no intent of the screen's with an error, deleting nothing", async () => {
    const before = await tradeIds();
    const [id] = before;
    const answer = await callAction(portfolio, app.trader, "/portfolio?period=30d", {
      intent: "nonsense",
      id: String(id),
    });
    expect(answer).toMatchObject({
      status: 302,
      location: "/portfolio?period=30d",
      toast: { type: "error", text: JOURNAL_TEXT.unknownAction },
    });
    expect(await tradeIds()).toEqual(before);
  });
});

describe("/import-trades", () => {
  const statement = readFileSync(
    new URL("../../../provider/journal/brokers/fixtures/ibkr-activity-statement.csv", import.meta.url),
    "utf8",
  );
  /** The import form as the browser posts it: the broker and the chosen file. */
  function upload(name: TradeIntent, broker: string, csv: string | null): FormData {
    const form = new FormData();
    form.set("intent", name);
    form.set("broker", broker);
    if (csv !== null) form.set("file", new File([csv], "statement.csv", { type: "text/csv" }));
    return form;
  }

  it("opens for a trader and sends a signed-out visit and post to sign in", async () => {
    expect(await callLoader(importTrades, app.trader, "/import-trades")).toMatchObject({ status: 200, data: null });
    expect(await callLoader(importTrades, signedOut(), "/import-trades")).toMatchObject({ location: "/login" });
    const post = await callAction(importTrades, signedOut(), "/import-trades", upload("import", "ibkr", statement));
    expect(post).toMatchObject({ status: 302, location: "/login" });
  });

  /** The form's refusal of this file text, as its schema words it. */
  const refusalOf = (csv: string) => ImportFormSchema.shape.csv.safeParse(csv).error!.issues[0]!.message;

  it("names what is missing, keeping the broker chosen", async () => {
    const answer = await callAction(importTrades, app.trader, "/import-trades", upload("preview-import", "ibkr", null));
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({ broker: "ibkr", preview: null, errors: { file: [refusalOf("")] } });
  });

  it("refuses a file over 1 MB before reading it, keeping the broker chosen", async () => {
    const big = "x".repeat(IMPORT_FILE_MAX_BYTES + 1);
    const answer = await callAction(importTrades, app.trader, "/import-trades", upload("preview-import", "ibkr", big));
    expect(answer.status).toBe(400);
    expect(answer.data).toMatchObject({ broker: "ibkr", csv: "", preview: null, errors: { file: [refusalOf(big)] } });
  });

  it("shows the provider's reason for a file that is not the broker's, adding nothing", async () => {
    const before = await tradeIds();
    const answer = await callAction(
      importTrades,
      app.trader,
      "/import-trades",
      upload("import", "tastytrade", statement),
    );
    expect(answer.status).toBe(422);
    const state = answer.data as { broker: string; preview: unknown; errors: { file: string[] } };
    expect(state).toMatchObject({ broker: "tastytrade", preview: null });
    expect(state.errors.file[0]).toMatch(/tastytrade/);
    expect(await tradeIds()).toEqual(before);
  });

  it("previews the file without adding anything, keeping its text for the import", async () => {
    const before = await tradeIds();
    const answer = await callAction(
      importTrades,
      app.trader,
      "/import-trades",
      upload("preview-import", "ibkr", statement),
    );
    expect(answer.status).toBe(200);
    const state = answer.data as { broker: string; csv: string; preview: { added: unknown[]; refused: unknown[] } };
    expect(state).toMatchObject({ broker: "ibkr", csv: statement, errors: {} });
    expect(state.preview.added).toHaveLength(6);
    expect(state.preview.refused).toEqual([]);
    expect(await tradeIds()).toEqual(before);
  });

  it("previews an OFX investment statement chosen as such, as a plain form post (issue 43)", async () => {
    const ofx = readFileSync(
      new URL("../../../provider/journal/brokers/fixtures/ofx-ko-wheel.ofx", import.meta.url),
      "utf8",
    );
    const before = await tradeIds();
    const answer = await callAction(importTrades, app.trader, "/import-trades", upload("preview-import", "ofx", ofx));
    expect(answer.status).toBe(200);
    const state = answer.data as { broker: string; preview: { added: unknown[]; refused: unknown[]; skipped: number } };
    expect(state).toMatchObject({ broker: "ofx", errors: {} });
    expect(state.preview.added).toHaveLength(7);
    expect(state.preview.refused).toEqual([]);
    expect(state.preview.skipped).toBe(3);
    expect(await tradeIds()).toEqual(before);
  });

  it("imports the previewed text once, and the journal lists the trades from the broker", async () => {
    const before = (await tradeIds()).length;
    const form = { intent: intent("import"), broker: "ibkr", csv: statement };
    const answer = await callAction(importTrades, app.trader, "/import-trades", form);
    expect(answer).toMatchObject({
      status: 302,
      location: "/portfolio?period=all",
      toast: { type: "success", text: JOURNAL_TEXT.imported(6, 0, 0) },
    });
    const rows = (await journal()).rows;
    expect(rows).toHaveLength(before + 6);
    expect(rows.filter((row) => row.source === "ibkr")).toHaveLength(6);

    const again = await callAction(importTrades, app.trader, "/import-trades", form);
    expect(again.toast).toEqual({ type: "success", text: JOURNAL_TEXT.imported(0, 6, 0) });
    expect(await tradeIds()).toHaveLength(before + 6);
  });

  // A file that starts mid-cycle (ADR 0074): the KO wheel's file from the assignment on, on a ticker
  // of its own so the journal has nothing on it; its put was sold before the file begins.
  const midCycle = readFileSync(
    new URL("../../../provider/journal/brokers/fixtures/ibkr-ko-wheel.csv", import.meta.url),
    "utf8",
  )
    .split("\n")
    .filter((l) => !l.includes("KO 12JUN26") && !l.includes('KO 17JUL26 65 P,"2026-05-26'))
    .join("\n")
    .replaceAll("KO", "WXYZ");
  const OPENING = "opening:WXYZ|put|65|2026-07-17";

  it("asks for an opening position's price; a price that is not one keeps the text with its error", async () => {
    const before = await tradeIds();
    const form = { intent: intent("preview-import"), broker: "ibkr", csv: midCycle, [OPENING]: "two" };
    const answer = await callAction(importTrades, app.trader, "/import-trades", form);
    expect(answer.status).toBe(400);
    const state = answer.data as {
      preview: { openings: { key: string; price: number | null }[]; added: unknown[] };
      errors: Record<string, string[]>;
      openings: Record<string, string>;
    };
    expect(state.preview.openings).toMatchObject([{ key: "WXYZ|put|65|2026-07-17", price: null }]);
    expect(state.errors[OPENING]).toEqual(["Enter a price of at least 0, like 2.10"]);
    expect(state.openings).toEqual({ "WXYZ|put|65|2026-07-17": "two" });
    expect(await tradeIds()).toEqual(before);
  });

  it("with the opening's price, previews it and imports it with the lines that need it", async () => {
    const before = (await tradeIds()).length;
    const preview = await callAction(importTrades, app.trader, "/import-trades", {
      intent: intent("preview-import"),
      broker: "ibkr",
      csv: midCycle,
      [OPENING]: "2.10",
    });
    const state = preview.data as { preview: { added: { line: number }[]; refused: unknown[] } };
    expect(state.preview.added.map((t) => t.line)).toEqual([0, 6, 7, 8]);
    expect(state.preview.refused).toEqual([]);
    const answer = await callAction(importTrades, app.trader, "/import-trades", {
      intent: intent("import"),
      broker: "ibkr",
      csv: midCycle,
      [OPENING]: "2.1",
    });
    expect(answer).toMatchObject({ status: 302, toast: { text: JOURNAL_TEXT.imported(4, 0, 0) } });
    expect(await tradeIds()).toHaveLength(before + 4);
  });
});

describe("/resources/trades-export", () => {
  it("downloads the journal as CSV, one line per trade", async () => {
    const rows = (await journal()).rows;
    const answer = await callLoader(tradesExport, app.trader, "/resources/trades-export");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.csv"$/);
    const lines = String(answer.data).trim().split(/\r?\n/);
    expect(lines).toHaveLength(rows.length + 1);
    expect(lines.slice(1).filter((line) => line.includes("PEP"))).toHaveLength(
      rows.filter((row) => row.ticker === "PEP").length,
    );
  });

  it("sends a signed-out request to sign in", async () => {
    expect(await callLoader(tradesExport, signedOut(), "/resources/trades-export")).toMatchObject({
      status: 302,
      location: "/login",
    });
  });
});
