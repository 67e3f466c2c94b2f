import { describe, expect, it } from "vitest";
import {
  answers,
  applyQueued,
  nextOutboxRetryMs,
  offlineAnswer,
  pageOfDataUrl,
  queuedToggle,
  routesOf,
} from "./protocol.ts";

const url = (path: string) => new URL(path, "https://app.test");

describe("pageOfDataUrl", () => {
  it("names the page of a single-fetch URL without _routes and index", () => {
    expect(pageOfDataUrl(url("/user-stocks.data?_routes=routes%2Fuser-stocks"))).toEqual({
      pathname: "/user-stocks",
      search: "",
    });
    expect(pageOfDataUrl(url("/profile.data?panel=notifications&_routes=routes%2Fprofile"))).toEqual({
      pathname: "/profile",
      search: "?panel=notifications",
    });
    expect(pageOfDataUrl(url("/_.data?index"))).toEqual({ pathname: "/", search: "" });
    expect(pageOfDataUrl(url("/user-stock/AAPL.data"))).toEqual({ pathname: "/user-stock/AAPL", search: "" });
  });
});

describe("answers", () => {
  it("a saved answer serves a read of the same page that asks for no more routes than it holds", () => {
    const all = url("/user-stocks.data");
    const one = url("/user-stocks.data?_routes=routes%2Fuser-stocks");
    const two = url("/user-stocks.data?_routes=root,routes%2Fuser-stocks");
    expect(routesOf(all)).toBeNull();
    expect([...routesOf(two)!]).toEqual(["root", "routes/user-stocks"]);
    expect(answers(all, one)).toBe(true);
    expect(answers(two, one)).toBe(true);
    expect(answers(one, two)).toBe(false);
    expect(answers(one, all)).toBe(false);
    expect(answers(all, url("/uip-stocks.data"))).toBe(false);
    expect(answers(url("/profile.data"), url("/profile.data?panel=notifications"))).toBe(false);
  });
});

describe("offlineAnswer", () => {
  it("tells the worker's offline answers from other bodies", () => {
    expect(offlineAnswer('{"offline":{"queued":true,"label":"Changes to AAPL"}}')).toEqual({
      queued: true,
      label: "Changes to AAPL",
    });
    expect(offlineAnswer({ offline: { queued: false, noCopy: true } })).toEqual({ queued: false, noCopy: true });
    expect(offlineAnswer("Service Unavailable")).toBeNull();
    expect(offlineAnswer('{"detail":"down"}')).toBeNull();
    expect(offlineAnswer({ offline: "yes" })).toBeNull();
    expect(offlineAnswer(null)).toBeNull();
  });
});

describe("queuedToggle", () => {
  const change = (id: number, page: string, fields: Record<string, string>) => ({
    id,
    label: "",
    createdAt: 0,
    page,
    fields,
  });
  it("is the latest waiting value of that switch, or null", () => {
    const changes = [
      change(1, "/user-stocks", { intent: "toggle", id: "7", value: "true" }),
      change(2, "/user-stocks", { intent: "delete", id: "7" }),
      change(3, "/uip-stocks", { intent: "toggle", id: "7", value: "true" }),
      change(4, "/user-stocks", { intent: "toggle", id: "7", value: "false" }),
      change(5, "/user-stocks", { intent: "toggle", id: "8", value: "true" }),
    ];
    expect(queuedToggle(changes, { page: "/user-stocks", intent: "toggle", id: "7" })).toBe(false);
    expect(queuedToggle(changes.slice(0, 3), { page: "/user-stocks", intent: "toggle", id: "7" })).toBe(true);
    expect(queuedToggle(changes, { page: "/user-stocks", intent: "toggle", id: "8" })).toBe(true);
    expect(queuedToggle(changes, { page: "/user-stocks", intent: "toggle", id: "9" })).toBeNull();
    expect(queuedToggle(changes, { page: "/uip-stocks", intent: "alert", id: "7" })).toBeNull();
    expect(queuedToggle([], { page: "/user-stocks", intent: "toggle", id: "7" })).toBeNull();
  });
});

describe("applyQueued", () => {
  const rows = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
  const change = (page: string, fields: Record<string, string>) => ({ id: 0, label: "", createdAt: 0, page, fields });
  it("leaves out rows deleted offline and applies a new order, in the order they were made", () => {
    expect(applyQueued(rows, [], "/user-stocks")).toBe(rows);
    const changes = [
      change("/user-stocks", { intent: "reorder", order: "3,1,2" }),
      change("/user-stocks", { intent: "delete", id: "1" }),
      change("/uip-stocks", { intent: "delete", id: "2" }),
      change("/user-stocks", { intent: "toggle", id: "3", value: "true" }),
    ];
    expect(applyQueued(rows, changes, "/user-stocks").map((r) => r.id)).toEqual([3, 2, 4]);
    expect(applyQueued(rows, changes, "/uip-stocks").map((r) => r.id)).toEqual([1, 3, 4]);
  });
});

describe("nextOutboxRetryMs", () => {
  it("tries again 1 s after no network, 5 s after a refusing server, doubling to a minute", () => {
    // Back online, the first send fails (the network is not through yet): 1 s, then 2, 4, 8 …
    expect(nextOutboxRetryMs(null, "offline")).toBe(1_000);
    expect(nextOutboxRetryMs(1_000, "offline")).toBe(2_000);
    expect(nextOutboxRetryMs(2_000, "server")).toBe(4_000);
    expect(nextOutboxRetryMs(null, "server")).toBe(5_000);
    expect(nextOutboxRetryMs(5_000, "server")).toBe(10_000);
    expect(nextOutboxRetryMs(40_000, "server")).toBe(60_000);
    expect(nextOutboxRetryMs(60_000, "offline")).toBe(60_000);
  });
});
