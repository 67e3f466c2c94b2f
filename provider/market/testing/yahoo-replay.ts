/**
 * Yahoo Finance replayed from fixtures/yahoo through yahoo-finance2's `fetch` option: the library's
 * cookie and crumb handshake, parsing and schema validation all run; only the network is replaced.
 */
import { readFileSync } from "node:fs";

export interface Recorded {
  response: { status: number; headers: Record<string, string>; bodyJson?: unknown; bodyText?: string };
}
export const fixture = (name: string): Recorded =>
  JSON.parse(readFileSync(new URL(`../fixtures/yahoo/${name}.json`, import.meta.url), "utf8")) as Recorded;

export function reply({ response }: Recorded): Response {
  const body = response.bodyText ?? JSON.stringify(response.bodyJson);
  return new Response(body, { status: response.status, headers: response.headers });
}

/** A replaying vendor: `routes` maps "quote AAPL", "chart AAPL", "options AAPL [date]" to fixture names. */
export function vendor(routes: Record<string, string | (() => Response | Promise<Response>)>) {
  const requests: string[] = [];
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(String(input));
    requests.push(url.href);
    if (url.hostname === "finance.yahoo.com") {
      // The page that sets Yahoo's session cookie (the library's first handshake step).
      const headers = new Headers({ "content-type": "text/html" });
      headers.append(
        "set-cookie",
        "A3=d=recorded&S=cookie; Expires=Sun, 3 Oct 2027 14:16:59 GMT; Domain=.yahoo.com; Path=/; Secure",
      );
      return new Response("<!doctype html><title>Apple</title>", { status: 200, headers });
    }
    if (url.pathname === "/v1/test/getcrumb") return new Response("Xy7crumb.Rec", { status: 200 });
    let key: string | undefined;
    if (url.pathname === "/v7/finance/quote") key = `quote ${url.searchParams.get("symbols")}`;
    else if (url.pathname.startsWith("/v8/finance/chart/")) key = `chart ${decodeURIComponent(url.pathname.slice(18))}`;
    else if (url.pathname.startsWith("/v7/finance/options/")) {
      const date = url.searchParams.get("date");
      key = `options ${url.pathname.slice(20)}${date ? ` ${new Date(Number(date) * 1000).toISOString().slice(0, 10)}` : ""}`;
    }
    const route = key ? routes[key] : undefined;
    if (!route) return reply(fixture("chart-not-found"));
    return typeof route === "string" ? reply(fixture(route)) : route();
  };
  return { fetch, requests };
}
