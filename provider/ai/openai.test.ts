import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as calls from "#contract/calls.ts";
import { createSimulatedMarket } from "#provider/market/simulated.ts";
import { DEMO_TICKERS } from "#provider/db/demo-data.ts";
import { testProvider, type TestProvider } from "#provider/testing/provider.ts";
import { providerStartOptions, readProviderEnv } from "#provider/env.ts";
import { startFakeChatVendor, type FakeChatVendor } from "../../tests/support/fake-chat-vendor.ts";
import { stockFacts } from "./facts.ts";
import { serverSentEvents } from "./openai.ts";

/**
 * The OpenAI-compatible explainer through the provider's routes, against a local server that
 * speaks the chat-completions streaming protocol (tests/support/fake-chat-vendor.ts).
 */

const NOW = new Date("2026-11-18T17:00:00Z");
const market = createSimulatedMarket({ seed: 3, tickers: DEMO_TICKERS, now: () => NOW });
const TIMEOUT_MS = 400;

let vendor: FakeChatVendor;
let provider: TestProvider;
let token: string;
let userId: number;

beforeAll(async () => {
  vendor = await startFakeChatVendor();
  provider = await testProvider({
    market,
    ai: { baseUrl: vendor.baseUrl, apiKey: "sk-test-key", model: "test-model", timeoutMs: TIMEOUT_MS },
  });
  token = await provider.login("demo", "demo1234");
  userId = (await provider.call(calls.me, { token })).body.id;
});
afterAll(async () => {
  await provider.close();
  await vendor.close();
});
beforeEach(() => {
  vendor.requests.length = 0;
});

/** Posts to the provider and hands back the response unread, so a test can read it piece by piece. */
function post(path: string, body: unknown): Promise<Response> {
  return provider.fetch(
    new Request(`http://provider.test${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
}
const analyse = (ticker = "AAPL") => post("/api/gen-ai-stock-analysis", { ticker });

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function readAll(response: Response): Promise<string> {
  return response.text();
}

describe("OpenAI-compatible explainer", () => {
  it("streams the model's pieces as they come, with the facts in the prompt", async () => {
    const finish = deferred();
    vendor.answer = async (reply) => {
      reply.role();
      reply.piece("AAPL trades ");
      await finish.promise;
      reply.piece("below your average value.");
      reply.piece("", "stop");
      reply.done();
    };
    const response = await analyse("AAPL");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // The first piece is here while the model is still writing.
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe("AAPL trades ");
    finish.resolve();
    let rest = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    expect(rest).toBe("below your average value.");

    const [request] = vendor.requests;
    expect(request!.model).toBe("test-model");
    expect(request!.stream).toBe(true);
    expect(request!.messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(request!.messages[0]!.content).toContain("Use only the facts");
    // The same facts the built-in analyst writes from, as JSON at the end of the user message.
    const sent = JSON.parse(request!.messages[1]!.content.split("Facts:\n")[1]!);
    const facts = await stockFacts(provider.context, "AAPL", userId);
    expect(sent.levelsSource).toBe("watchlist");
    // The prompt writes numbers to 6 significant digits (prompt.ts), so float noise is rounded away.
    for (const [level, value] of Object.entries(facts.levels!)) expect(sent.levels[level]).toBeCloseTo(value, 6);
    expect(sent.bestPut.symbol).toBe(facts.bestPut!.symbol);
    expect(sent.price.value).toBeCloseTo(facts.price!.value, 4);
  });

  it("sends the key as a bearer token to {AI_BASE_URL}/chat/completions", async () => {
    let seen: { path: string; authorization: string | undefined } | undefined;
    vendor.answer = (reply) => {
      seen = { path: reply.path, authorization: reply.headers.authorization };
      reply.piece("ok");
      reply.done();
    };
    expect(await readAll(await analyse())).toBe("ok");
    expect(seen).toEqual({ path: "/v1/chat/completions", authorization: "Bearer sk-test-key" });
  });

  it("summarizes a recommendation the same way", async () => {
    vendor.answer = (reply) => {
      reply.piece("Selling this put ");
      reply.piece("ties up $18,000.00.");
      reply.done();
    };
    const response = await post("/api/summarize-trade-recommendation", {
      option_identifier: "AAPL261218P00180000",
      strike_price: 180,
      expiration_date: "2026-12-18",
      current_stock_price: 221.33,
      current_option_price: 1.2,
      days_to_expiry: 30,
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("Selling this put ties up $18,000.00.");
    const sent = JSON.parse(vendor.requests[0]!.messages[1]!.content.split("Facts:\n")[1]!);
    expect(sent).toMatchObject({ symbol: "AAPL261218P00180000", ticker: "AAPL", collateral: 18000, breakeven: 178.8 });
  });

  it("turns a vendor error before any text into 502 with the vendor's message (never its 401)", async () => {
    vendor.answer = (reply) =>
      reply.fail(500, { error: { message: "The server had an error while processing your request." } });
    let response = await analyse();
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      detail: "The AI service answered 500: The server had an error while processing your request.",
    });

    vendor.answer = (reply) => reply.fail(401, { error: { message: "Incorrect API key provided" } });
    response = await analyse();
    expect(response.status).toBe(502);
    expect((await response.json()).detail).toBe("The AI service answered 401: Incorrect API key provided.");
  });

  it("answers 504 when the vendor does not start answering within the timeout", async () => {
    vendor.answer = () => {}; // never answers
    const started = Date.now();
    const response = await analyse();
    const waited = Date.now() - started;
    expect(response.status).toBe(504);
    expect(await response.json()).toEqual({ detail: "The AI service did not answer within 0.4 s." });
    expect(waited).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(TIMEOUT_MS + 2000);
  });

  it("ends the text with a clear line when the vendor stalls mid-answer", async () => {
    vendor.answer = (reply) => {
      reply.piece("Half an answer");
      // then nothing, connection left open
    };
    const response = await analyse();
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      "Half an answer\n\n[The AI service sent nothing for 0.4 s. The text above is incomplete.]",
    );
  });

  it("ends the text with a clear line on an error event or a dropped connection mid-answer", async () => {
    vendor.answer = (reply) => {
      reply.piece("Start");
      reply.event(JSON.stringify({ error: { message: "Model overloaded", type: "server_error" } }));
    };
    expect(await (await analyse()).text()).toBe(
      "Start\n\n[The AI service reported an error: Model overloaded. The text above is incomplete.]",
    );

    vendor.answer = (reply) => {
      reply.piece("Start");
      setTimeout(() => reply.cut(), 20);
    };
    const text = await (await analyse()).text();
    expect(text).toMatch(/^Start\n\n\[The AI service connection failed \(.+\)\. The text above is incomplete\.\]$/);
  });

  it("answers 502 for an empty answer", async () => {
    vendor.answer = (reply) => {
      reply.role();
      reply.piece("", "stop");
      reply.done();
    };
    const response = await analyse();
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({ detail: "The AI service returned an empty answer." });
  });

  it("answers 502 when the vendor cannot be reached", async () => {
    const closed = await startFakeChatVendor();
    const baseUrl = closed.baseUrl;
    await closed.close();
    const other = await testProvider({ market, ai: { baseUrl, model: "m", timeoutMs: TIMEOUT_MS } });
    try {
      const t = await other.login("demo", "demo1234");
      const res = await other.call(calls.stockAnalysis, { token: t, body: { ticker: "AAPL" } });
      expect(res.status).toBe(502);
      expect(res.body.detail).toMatch(/^The AI service could not be reached \(.+\)\.$/);
    } finally {
      await other.close();
    }
  });

  it("notes an answer cut at the length limit, and reads a server that ignores stream: true", async () => {
    vendor.answer = (reply) => {
      reply.piece("A long answer", "length");
      reply.done();
    };
    expect(await (await analyse()).text()).toBe("A long answer\n\n[The AI service stopped at its length limit.]");

    vendor.answer = (reply) => reply.json("Whole answer at once.");
    expect(await (await analyse()).text()).toBe("Whole answer at once.");
  });

  it("stops the vendor's answer when the reader goes away", async () => {
    const gone = deferred();
    vendor.answer = async (reply) => {
      reply.piece("First piece");
      await reply.clientGone;
      gone.resolve();
    };
    const response = await analyse();
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await expect(Promise.race([gone.promise.then(() => "closed"), sleep(3000).then(() => "still open")])).resolves.toBe(
      "closed",
    );
  });

  it("still answers 404 for an unknown ticker without asking the vendor", async () => {
    const response = await analyse("NOPE");
    expect(response.status).toBe(404);
    expect(vendor.requests).toHaveLength(0);
  });
});

describe("serverSentEvents", () => {
  it("reads data lines split anywhere across chunks, CRLF, multi-line data and comments", async () => {
    const wire = ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\nevent: x\ndata: line one\ndata: line two\n\ndata:[DONE]\n\n';
    for (const size of [1, 3, 7, wire.length]) {
      const pieces: string[] = [];
      for (let i = 0; i < wire.length; i += size) pieces.push(wire.slice(i, i + size));
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const p of pieces) controller.enqueue(new TextEncoder().encode(p));
          controller.close();
        },
      });
      const events: string[] = [];
      for await (const e of serverSentEvents(body)) events.push(e);
      expect(events, `chunk size ${size}`).toEqual(['{"a":1}', "line one\nline two", "[DONE]"]);
    }
  });

  it("keeps multi-byte characters split between chunks", async () => {
    const bytes = new TextEncoder().encode('data: {"c":"€ and ü"}\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const b of bytes) controller.enqueue(new Uint8Array([b]));
        controller.close();
      },
    });
    const events: string[] = [];
    for await (const e of serverSentEvents(body)) events.push(e);
    expect(events).toEqual(['{"c":"€ and ü"}']);
  });
});

describe("AI settings", () => {
  it("uses the OpenAI-compatible client only when AI_BASE_URL is set, and needs AI_MODEL with it", () => {
    expect(providerStartOptions(readProviderEnv({})).ai).toBeUndefined();
    expect(
      providerStartOptions(
        readProviderEnv({ AI_BASE_URL: "http://localhost:11434/v1", AI_MODEL: "llama3.2", AI_TIMEOUT_MS: "5000" }),
      ).ai,
    ).toEqual({ baseUrl: "http://localhost:11434/v1", apiKey: undefined, model: "llama3.2", timeoutMs: 5000 });
    expect(() => readProviderEnv({ AI_BASE_URL: "http://localhost:11434/v1" })).toThrow(
      "AI_MODEL: required when AI_BASE_URL is set",
    );
    expect(() => readProviderEnv({ AI_BASE_URL: "not a url", AI_MODEL: "m" })).toThrow(/AI_BASE_URL/);
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
