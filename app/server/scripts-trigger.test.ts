import type { EntryContext } from "react-router";
import { describe, expect, test } from "vitest";
import * as login from "#app/routes/login/route.tsx";
import { scriptsTrigger } from "./scripts-trigger.server.ts";

/** The part of React Router's entry context the decision reads: a document for /login, or another page. */
function pageContext({
  page = "routes/login",
  toast = null as unknown,
  statusCode = 200,
}: { page?: string; toast?: unknown; statusCode?: number } = {}): EntryContext {
  return {
    staticHandlerContext: {
      matches: [{ route: { id: "root" } }, { route: { id: page } }],
      loaderData: { root: { toast } },
      statusCode,
    },
    routeModules: { root: {}, "routes/login": login, "routes/user-stocks": {} },
  } as unknown as EntryContext;
}

const get = (path: string) => new Request(`http://localhost${path}`);

describe("when a page's scripts load (ADR 0061)", () => {
  test("the landing page waits for the first interaction, in any of its modes", () => {
    for (const path of ["/login", "/login?mode=signup", "/login?redirectTo=%2Finsights"]) {
      expect(scriptsTrigger(get(path), pageContext()), path).toMatchObject({ when: "interaction" });
    }
  });

  test("opened on the demo dialog, with a flash message, or as an error page, it loads them after the paint", () => {
    expect(scriptsTrigger(get("/login?demo=1"), pageContext())).toEqual({ when: "paint" });
    const signedOut = { id: "t1", type: "success", text: "Signed out.", autoClose: 3000, clearStorage: true };
    expect(scriptsTrigger(get("/login"), pageContext({ toast: signedOut }))).toEqual({ when: "paint" });
    expect(scriptsTrigger(get("/login"), pageContext({ statusCode: 500 }))).toEqual({ when: "paint" });
  });

  test("every other page loads them after the paint", () => {
    expect(scriptsTrigger(get("/user-stocks"), pageContext({ page: "routes/user-stocks" }))).toEqual({
      when: "paint",
    });
  });
});
