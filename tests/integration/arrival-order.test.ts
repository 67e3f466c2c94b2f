import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Pages start in the order their requests arrived (ADR 0069). The test is the load that showed the
 * fault: keep-alive connections each asking again the moment an answer ends, against a page that
 * holds the process for a few milliseconds as a render does (a server process of its own). Served
 * in arrival order, a request waits for the requests already there and no others; before, one
 * connection in ten was answered after everyone else's next request, again and again.
 */
const CONNECTIONS = 10;
const REQUESTS_EACH = 30;
const SERVER = fileURLToPath(new URL("./fixtures/busy-page-server.ts", import.meta.url));

let child: ChildProcess;
let port: number;
beforeAll(async () => {
  child = spawn(process.execPath, [SERVER, "6"], { stdio: ["ignore", "pipe", "inherit"] });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  port = Number(String(line).trim());
});
afterAll(() => {
  child.kill();
});

interface Answer {
  sentAt: number;
  answeredAt: number;
}

/** Every connection sends its next request as soon as its answer ends, like a busy browser pool. */
async function load(): Promise<Answer[]> {
  const answers: Answer[] = [];
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      for (let i = 0; i < REQUESTS_EACH; i++) {
        const sentAt = performance.now();
        await new Promise<void>((resolve, reject) => {
          const req = request({ host: "127.0.0.1", port, path: "/page", agent }, (res) => {
            res.resume();
            res.on("end", () => {
              answers.push({ sentAt, answeredAt: performance.now() });
              resolve();
            });
          });
          req.on("error", reject);
          req.end();
        });
      }
      agent.destroy();
    }),
  );
  return answers;
}

/** For each answer, how many requests sent after it were answered before it. */
const overtaken = (answers: Answer[]) =>
  answers.map((a) => answers.filter((b) => b.sentAt > a.sentAt && b.answeredAt < a.answeredAt).length);

describe("requests started in arrival order", () => {
  it("answers a request before the requests sent after it, once the connections are open", async () => {
    const answers = await load();
    expect(answers).toHaveLength(CONNECTIONS * REQUESTS_EACH);
    // The first round opens the connections, in whatever order the handshakes end.
    const opened = Math.max(...answers.slice(0, CONNECTIONS).map((a) => a.answeredAt));
    const steady = overtaken(answers.filter((a) => a.sentAt > opened));
    // Before: about one answer in ten came after eight or nine requests sent later.
    expect(steady.filter((n) => n > 2)).toEqual([]);
  });

  it("passes each request on unchanged, its method, path and body included", async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/echo`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "sell the 95 put",
    });
    expect(await answer.text()).toBe("POST /echo sell the 95 put");
  });
});
