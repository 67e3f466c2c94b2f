import { describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { LOGIN_INTENT } from "#app/lib/login-intents.ts";
import { marketNote } from "#app/routes/shell/market-note.ts";
import { callProvider } from "#app/server/provider.server.ts";
import * as index from "#app/routes/index/route.tsx";
import * as login from "#app/routes/login/route.tsx";
import * as shell from "#app/routes/shell/route.tsx";
import * as trackRecord from "#app/routes/track-record/route.tsx";
import { callAction, callLoader, get, runLoader, signedOut, routeHarnessForFile } from "../../support/app-routes.ts";

/** The loaders of the pages without forms: `/`, the shell around the main screens, and the public track record. */
routeHarnessForFile();

describe("/", () => {
  it("is the watchlist", async () => {
    expect(await callLoader(index, signedOut(), "/")).toMatchObject({ status: 302, location: "/user-stocks" });
  });
});

describe("the shell", () => {
  it("gives the market line beside the Live dot, as the market status has it", async () => {
    const page = await callLoader(shell, signedOut(), "/user-stocks");
    const status = await callProvider(calls.marketStatus);
    expect(page).toMatchObject({ status: 200, data: { marketNote: marketNote(status) } });
  });
});

describe("/track-record", () => {
  it("shows the public record to anyone, and knows whether the visitor is signed in", async () => {
    const record = await callProvider(calls.trackRecord);
    const anonymous = await callLoader(trackRecord, signedOut(), "/track-record");
    expect(anonymous).toMatchObject({ status: 200, data: { signedIn: false, record: { totals: record.totals } } });

    const signedIn = await callAction(login, signedOut(), "/login", {
      intent: LOGIN_INTENT.login,
      username: "demo",
      password: "demo1234",
    });
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
    const page = await runLoader(trackRecord, signedOut(), get("/track-record", { cookie }));
    expect(page).toMatchObject({ status: 200, data: { signedIn: true } });
  });

  it("filters the latest scored puts by outcome from the address, and ignores anything else (issue 46)", async () => {
    const assigned = await callLoader(trackRecord, signedOut(), "/track-record?outcome=assigned");
    expect(assigned).toMatchObject({ status: 200, data: { outcome: "assigned" } });
    const record = (assigned.data as { record: { recent_assigned?: { outcome: string }[] } }).record;
    expect((record.recent_assigned ?? []).every((p) => p.outcome === "assigned")).toBe(true);
    const bad = await callLoader(trackRecord, signedOut(), "/track-record?outcome=nonsense");
    expect(bad).toMatchObject({ status: 200, data: { outcome: null } });
  });
});
