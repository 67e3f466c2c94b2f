import { describe, expect, it } from "vitest";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { shouldRevalidate as shellShouldRevalidate } from "#app/routes/shell/route.tsx";
import { isSameScreen } from "./revalidation.ts";

const args = (from: string, to: string, formMethod?: "POST"): ShouldRevalidateFunctionArgs =>
  ({
    currentUrl: new URL(from, "http://app.test"),
    nextUrl: new URL(to, "http://app.test"),
    formMethod,
    defaultShouldRevalidate: true,
  }) as ShouldRevalidateFunctionArgs;

describe("isSameScreen", () => {
  it("is a step on one screen when only the search changes and no form was sent", () => {
    expect(isSameScreen(args("/user-stocks", "/user-stocks?reorder=1"))).toBe(true);
    expect(isSameScreen(args("/user-stocks", "/uip-stocks"))).toBe(false);
    expect(isSameScreen(args("/user-stocks?reorder=1", "/user-stocks?reorder=1", "POST"))).toBe(false);
  });
});

describe("the shell's market line", () => {
  it("is not reloaded for a list's search, reorder mode or dialog", () => {
    expect(shellShouldRevalidate(args("/user-stocks", "/user-stocks?reorder=1"))).toBe(false);
    expect(shellShouldRevalidate(args("/uip-stocks?q=a", "/uip-stocks?q=ab"))).toBe(false);
  });

  it("is reloaded on another screen, after a form, and when the same address is reloaded (back online)", () => {
    expect(shellShouldRevalidate(args("/user-stocks", "/profile"))).toBe(true);
    expect(shellShouldRevalidate(args("/user-stocks?reorder=1", "/user-stocks", "POST"))).toBe(true);
    expect(shellShouldRevalidate(args("/user-stocks", "/user-stocks"))).toBe(true);
  });
});
