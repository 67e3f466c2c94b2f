import { describe, expect, it } from "vitest";
import { messages } from "#app/lib/messages.ts";
import { permissionsFailureText } from "./auth.server.ts";
import { ProviderError } from "./provider.server.ts";

describe("a sign-in whose permissions cannot be read (docs/product.md#errors-session)", () => {
  it("names the provider's status, says when it could not be reached, and falls back to the generic text", () => {
    expect(permissionsFailureText(new ProviderError(503, "Service Unavailable"))).toBe(
      "Failed to fetch permissions: 503 - Service Unavailable",
    );
    expect(permissionsFailureText(new ProviderError(0, "fetch failed"))).toBe(messages.permissionsNetwork);
    expect(messages.permissionsNetwork).toBe("Network error while fetching permissions.");
    expect(permissionsFailureText(new TypeError("not JSON"))).toBe(
      "An unexpected error occurred while fetching permissions.",
    );
  });
});
