import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { TrustBadges } from "./landing-sections.tsx";

describe("the landing's trust badges say what they measure (issue 46)", () => {
  it("calls TLS encryption in transit, not end to end", () => {
    const html = renderToStaticMarkup(<TrustBadges />);
    expect(html).not.toMatch(/end to end|end-to-end/i);
    expect(html).toContain("Encrypted in transit");
    expect(html).toContain("HTTPS (TLS) between your browser and us");
  });
});
