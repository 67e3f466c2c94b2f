import { expect, type Page } from "@playwright/test";
import type { TestSubscription } from "../../support/push-receiver.ts";
import { signIn } from "./sign-in.ts";

/**
 * Signs the demo trader in on the app at `origin` and turns push on from /profile. Headless
 * Chromium cannot subscribe to a real push service, so PushManager.subscribe answers with the local
 * push receiver's subscription (tests/support/push-receiver.ts), which the provider then pushes to.
 */
export async function turnPushOn(page: Page, origin: string, subscription: TestSubscription) {
  await page.context().grantPermissions(["notifications"], { origin });
  await page.addInitScript((json) => {
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      return {
        endpoint: json.endpoint,
        expirationTime: null,
        options,
        toJSON: () => json,
        unsubscribe: async () => true,
        getKey: () => null,
      } as unknown as PushSubscription;
    };
  }, subscription.json);
  await signIn(page, "demo", "demo1234", origin);
  await page.goto(`${origin}/profile`);
  const toggle = page
    .getByRole("region", { name: "Notifications" })
    .getByRole("switch", { name: "Push Notifications" });
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-checked", "true");
}

/** A provider token for `username`, straight from the provider's token call. */
export async function providerToken(providerUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${providerUrl}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}
