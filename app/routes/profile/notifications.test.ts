import { describe, expect, it } from "vitest";
import type { NotificationItem } from "#contract/entities.ts";
import {
  countErrorText,
  filterNotifications,
  notificationKind,
  parseFilter,
  toggleErrorText,
} from "./notifications.ts";
import { browserName, iosTooOldForPush, osName } from "./device-info.ts";
import { safeAppPath } from "#contract/push-routing.ts";

const item = (id: number, type: string, read: 0 | 1): NotificationItem => ({
  id,
  read,
  created_at: "2026-11-21T20:00:00.000Z",
  notification: { type, title: `t${id}`, body: "b", action_required: 0, url: null },
});
const items = [
  item(1, "trade", 0),
  item(2, "alert", 1),
  item(3, "success", 0),
  item(4, "maintenance", 0),
  item(5, "system", 1),
];

describe("notifications panel rules (docs/product.md#screens-notifications, #entities-notification)", () => {
  it("types other than trade, alert and success count as system", () => {
    expect(["trade", "alert", "success", "maintenance", "", "TRADE"].map(notificationKind)).toEqual([
      "trade",
      "alert",
      "success",
      "system",
      "system",
      "system",
    ]);
  });

  it("filters all, unread, trade and system", () => {
    const ids = (f: Parameters<typeof filterNotifications>[1]) => filterNotifications(items, f).map((i) => i.id);
    expect(ids("all")).toEqual([1, 2, 3, 4, 5]);
    expect(ids("unread")).toEqual([1, 3, 4]);
    expect(ids("trade")).toEqual([1]);
    expect(ids("system")).toEqual([4, 5]);
    expect(parseFilter("bogus")).toBe("all");
    expect(parseFilter("unread")).toBe("unread");
  });

  it("tells the four count-fetch failures apart with the texts of docs/product.md#errors-notifications", () => {
    expect(countErrorText({ kind: "response", message: "Boom" })).toBe("Error: Boom");
    expect(countErrorText({ kind: "response" })).toBe("Error: Failed to fetch notification count");
    expect(countErrorText({ kind: "no-response" })).toBe(
      "No response from server. Please check your network connection.",
    );
    expect(countErrorText({ kind: "setup", message: "bad URL" })).toBe("Error: bad URL");
    expect(countErrorText({ kind: "other" })).toBe("An unexpected error occurred. Please try again later.");
  });

  it("toggle failures: 404 and 403 have their own texts, anything else the toggle's fallback", () => {
    const fallback = "An unexpected error occurred while toggling auto refresh";
    expect(toggleErrorText(404, fallback)).toBe("Not found");
    expect(toggleErrorText(403, fallback)).toBe("Not authorized to perform this action");
    expect(toggleErrorText(500, fallback)).toBe(fallback);
    expect(toggleErrorText(undefined, fallback)).toBe(fallback);
  });
});

describe("device info and push links", () => {
  it("names browser and OS from common user agents", () => {
    const android =
      "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Mobile Safari/537.36";
    const iphone =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 16_3 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.3 Mobile/15E148 Safari/604.1";
    const edge =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 Edg/140.0";
    const firefox = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0";
    expect([browserName(android), osName(android)]).toEqual(["Chrome", "Android"]);
    expect([browserName(iphone), osName(iphone)]).toEqual(["Safari", "iOS"]);
    expect([browserName(edge), osName(edge)]).toEqual(["Edge", "Windows"]);
    expect([browserName(firefox), osName(firefox)]).toEqual(["Firefox", "Linux"]);
  });

  it("push on iOS needs 16.4 or later", () => {
    const ios = (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) Safari/604.1`;
    expect(iosTooOldForPush(ios("16_3"))).toBe(true);
    expect(iosTooOldForPush(ios("15_8"))).toBe(true);
    expect(iosTooOldForPush(ios("16_4"))).toBe(false);
    expect(iosTooOldForPush(ios("17_0"))).toBe(false);
    expect(iosTooOldForPush("Mozilla/5.0 (Linux; Android 14) Chrome/140")).toBe(false);
  });

  it("a notification opens only a path of this app", () => {
    expect(safeAppPath("/insights")).toBe("/insights");
    expect(safeAppPath("/user-stocks?open=AAPL")).toBe("/user-stocks?open=AAPL");
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "",
      null,
      "/\t/evil.example",
      "/\n/evil.example",
    ]) {
      expect(safeAppPath(bad)).toBe("/profile?panel=notifications");
    }
  });
});
