import { expect, test } from "./support/test.ts";

/**
 * Sign-out ends the session on the server: a copy of the session cookie taken before signing out
 * (another tab's, a stolen one) opens nothing afterwards. Plain HTTP, no browser needed.
 */
test("a cookie saved before sign-out reads and writes nothing afterwards", async ({ playwright, baseURL }) => {
  const browserless = await playwright.request.newContext({ baseURL });
  const login = await browserless.post("/login", {
    form: { intent: "login", username: "demo", password: "demo1234" },
    maxRedirects: 0,
  });
  expect(login.status()).toBe(302);
  const saved = (await browserless.storageState()).cookies.find((c) => c.name === "__session")!;
  expect(saved).toBeDefined();
  const signedIn = await browserless.get("/user-stocks", { maxRedirects: 0 });
  expect(signedIn.status()).toBe(200);
  // Nothing of a signed-in trader's is kept by a shared cache or shown again by Back after sign-out.
  expect(login.headers()["cache-control"]).toBe("private, no-store");
  expect(signedIn.headers()["cache-control"]).toBe("private, no-store");
  expect((await browserless.get("/user-stocks.data")).headers()["cache-control"]).toBe("private, no-store");

  const out = await browserless.post("/logout", { maxRedirects: 0 });
  expect(out.status()).toBe(302);
  await browserless.dispose();

  // The saved cookie, sent as it was before sign-out.
  const replay = await playwright.request.newContext({
    baseURL,
    extraHTTPHeaders: { cookie: `__session=${saved.value}` },
  });
  const page = await replay.get("/user-stocks", { maxRedirects: 0 });
  expect(page.status()).toBe(302);
  expect(page.headers()["location"]).toMatch(/^\/login/);
  const write = await replay.post("/add-user-stock", { form: { ticker: "IBM" }, maxRedirects: 0 });
  expect(write.status()).toBe(302);
  expect(write.headers()["location"]).toMatch(/^\/login/);
  await replay.dispose();
});
