import type { Page } from "@playwright/test";
import { expect, test } from "./support/test.ts";
import { ownPorts } from "./support/ports.ts";
import { startNode, tempDir, type Started } from "./support/processes.ts";
import { startFakeChatVendor, type FakeChatVendor } from "../support/fake-chat-vendor.ts";
import { signIn } from "./support/sign-in.ts";

/**
 * AI texts through the real build: browser → app resource route → provider → model. An app with
 * its embedded provider in OpenAI-compatible mode talks to a local fake model whose timing the
 * test controls, so it can show the first words reach the browser while the model is still
 * writing (nothing on the way buffers), and that cancelling in the browser reaches the model.
 * The default app (built-in analyst) answers a summary the same way.
 */
const ports = ownPorts();
const appPort = ports.app[0]!;
const providerPort = ports.provider[0]!;
const appUrl = `http://localhost:${appPort}`;
let vendor: FakeChatVendor;
let app: Started;

test.beforeAll(async () => {
  // Starting servers (and seeding a store) takes over a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  vendor = await startFakeChatVendor();
  app = await startNode(
    "server.ts",
    {
      NODE_ENV: "production",
      PORT: String(appPort),
      PROVIDER_PORT: String(providerPort),
      DATA_DIR: tempDir("putseller-ai-"),
      SEED_DEMO: "true",
      SESSION_SECRET: "ai-stream-session-secret-ai-stream-0123456789",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
      AI_BASE_URL: vendor.baseUrl,
      AI_MODEL: "test-model",
      AI_TIMEOUT_MS: "5000",
      // One trader asks for many texts here: the per-trader limit has its own spec (work-limits.spec.ts).
      AI_TEXTS_PER_MINUTE: "100000",
    },
    appUrl,
  );
});

test.afterAll(async () => {
  await app?.stop();
  await vendor?.close();
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function signInTo(page: Page) {
  await signIn(page, "demo", "demo1234", appUrl);
}

/** Starts a POST in the page and keeps its reader on window for later reads. */
async function startInPage(page: Page, path: string, body: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const abort = new AbortController();
      const response = await fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: abort.signal,
      });
      const w = window as unknown as Record<string, unknown>;
      w.aiAbort = abort;
      w.aiReader = response.body?.getReader();
      return {
        status: response.status,
        type: response.headers.get("content-type"),
        cacheControl: response.headers.get("cache-control"),
      };
    },
    { path, body },
  );
}

/** The next piece the page receives, or null at the end. */
const readInPage = (page: Page) =>
  page.evaluate(async () => {
    const reader = (window as unknown as { aiReader: ReadableStreamDefaultReader<Uint8Array> }).aiReader;
    const { done, value } = await reader.read();
    return done ? null : new TextDecoder().decode(value);
  });

test("the first words reach the browser while the model is still writing", async ({ page }) => {
  await signInTo(page);
  const finish = deferred();
  let finished = false;
  vendor.answer = async (reply) => {
    reply.role();
    reply.piece("AAPL: first words. ");
    await finish.promise;
    finished = true;
    reply.piece("The rest.");
    reply.done();
  };

  const head = await startInPage(page, "/resources/ai/stock-analysis", { ticker: "aapl" });
  expect(head).toEqual({
    status: 200,
    type: "text/plain; charset=utf-8",
    cacheControl: "private, no-store, no-transform",
  });
  expect(await readInPage(page)).toBe("AAPL: first words. ");
  expect(finished).toBe(false);

  finish.resolve();
  let rest = "";
  for (let piece = await readInPage(page); piece !== null; piece = await readInPage(page)) rest += piece;
  expect(rest).toBe("The rest.");
  // The provider asked the model about AAPL with the demo user's own watchlist values.
  const prompt = vendor.requests.at(-1)!.messages[1]!.content;
  expect(prompt).toContain('"ticker":"AAPL"');
  expect(prompt).toContain('"levelsSource":"watchlist"');
});

test("cancelling in the browser stops the model's answer", async ({ page }) => {
  await signInTo(page);
  const gone = deferred();
  vendor.answer = async (reply) => {
    reply.piece("Started. ");
    await reply.clientGone;
    gone.resolve();
  };
  await startInPage(page, "/resources/ai/stock-analysis", { ticker: "MSFT" });
  expect(await readInPage(page)).toBe("Started. ");
  await page.evaluate(() => (window as unknown as { aiAbort: AbortController }).aiAbort.abort());
  await expect
    .poll(
      () => Promise.race([gone.promise.then(() => "closed"), new Promise((r) => setTimeout(() => r("open"), 200))]),
      {
        timeout: 5000,
      },
    )
    .toBe("closed");
});

test("failures answer an error status: the model's 500, an unknown ticker, a bad body", async ({ page }) => {
  await signInTo(page);
  vendor.answer = (reply) => reply.fail(500, { error: { message: "boom" } });
  const failed = await startInPage(page, "/resources/ai/stock-analysis", { ticker: "AAPL" });
  expect(failed.status).toBe(502);

  const unknown = await startInPage(page, "/resources/ai/stock-analysis", { ticker: "NOPE" });
  expect(unknown.status).toBe(404);

  const bad = await page.evaluate(async () => {
    const r = await fetch("/resources/ai/summarize", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ option_identifier: "AAPL261218P00180000" }),
    });
    return { status: r.status, body: await r.json() };
  });
  expect(bad.status).toBe(422);
  expect(bad.body.detail).toBeTruthy();
});

test("without a session the routes send the browser to /login", async ({ request }) => {
  const res = await request.post(`${appUrl}/resources/ai/stock-analysis`, {
    data: { ticker: "AAPL" },
    maxRedirects: 0,
  });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toMatch(/^\/login/);
});

test("the default built-in analyst explains a recommendation through the app", async ({ page }) => {
  await signIn(page);
  const result = await page.evaluate(async () => {
    const r = await fetch("/resources/ai/summarize", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        option_identifier: "AAPL261218P00180000",
        strike_price: 180,
        expiration_date: "2026-12-18",
        current_stock_price: 200,
        current_option_price: 1.5,
        days_to_expiry: 30,
        implied_volatility: 0.3,
      }),
    });
    const reader = r.body!.getReader();
    const decoder = new TextDecoder();
    let pieces = 0;
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces++;
      text += decoder.decode(value, { stream: true });
    }
    return { status: r.status, pieces, text };
  });
  expect(result.status).toBe(200);
  expect(result.text).toMatch(/^Selling AAPL261218P00180000: a put on AAPL \(Apple Inc\.\), strike \$180\.00/);
  expect(result.text).toContain("Cash needed: $18,000.00 a contract");
  // How many pieces arrive depends on timing (the built-in analyst writes fast and TCP may join
  // them); that nothing is buffered is proven above with the slow vendor.
  expect(result.pieces).toBeGreaterThan(0);
});
