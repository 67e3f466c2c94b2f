import { describe, expect, it } from "vitest";
import { logoInitials, logoUrl } from "./logo.ts";

describe("logoUrl", () => {
  it("puts the lower-case ticker where the template says {ticker}", () => {
    expect(logoUrl("https://logos.example/{ticker}.png", "AAPL")).toBe("https://logos.example/aapl.png");
    expect(logoUrl("https://img.example/{ticker}/{ticker}.svg", "BRKB")).toBe("https://img.example/brkb/brkb.svg");
  });

  it("is null when the setting is empty or has no {ticker}, so initials are shown", () => {
    expect(logoUrl("", "AAPL")).toBeNull();
    expect(logoUrl(undefined, "AAPL")).toBeNull();
    expect(logoUrl("https://logos.example/logo.png", "AAPL")).toBeNull();
  });
});

describe("logoInitials", () => {
  it("takes the ticker's first two characters", () => {
    expect(logoInitials("AAPL")).toBe("AA");
    expect(logoInitials("V")).toBe("V");
  });
});
