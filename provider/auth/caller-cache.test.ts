import { afterEach, describe, expect, it } from "vitest";
import { createEventBus, type EventBus } from "#provider/bus/bus.ts";
import type { Db } from "#provider/db/client.ts";
import type { Caller } from "#provider/http/router.ts";
import { createCallerCache, type CallerCache } from "./caller-cache.ts";

/** The in-memory bus two caches share stands for two provider processes on one database. */
let bus: EventBus;
const caches: CallerCache[] = [];
let clock = 1_000_000;
const now = () => clock;

async function cache(options: { ttlMs?: number; maxEntries?: number } = {}): Promise<CallerCache> {
  const made = await createCallerCache({ bus, now, ...options });
  caches.push(made);
  return made;
}
const caller = (id: number, expiresAt?: number): Caller => ({
  id,
  permissions: new Set(["USER_STOCK:VIEW"]),
  expiresAt,
});

afterEach(async () => {
  for (const made of caches.splice(0)) await made.close();
  await bus?.close();
});

describe("the caller cache", () => {
  it("keeps a resolved caller for 5 s, then asks again", async () => {
    bus = createEventBus({ db: undefined as unknown as Db, kind: "pglite" });
    const callers = await cache();
    callers.set("token-a", caller(7), callers.epoch(7));
    clock += 4_999;
    expect(callers.get("token-a")?.id).toBe(7);
    clock += 1;
    expect(callers.get("token-a")).toBeUndefined();
  });

  it("never keeps a caller past the token's own expiry", async () => {
    bus = createEventBus({ db: undefined as unknown as Db, kind: "pglite" });
    const callers = await cache();
    callers.set("token-a", caller(7, clock + 1_000), callers.epoch(7));
    clock += 999;
    expect(callers.get("token-a")).toBeDefined();
    clock += 1;
    expect(callers.get("token-a")).toBeUndefined();
  });

  it("forgets every caller of a user whose sessions ended, and nobody else's", async () => {
    bus = createEventBus({ db: undefined as unknown as Db, kind: "pglite" });
    const callers = await cache();
    callers.set("phone", caller(7), callers.epoch(7));
    callers.set("laptop", caller(7), callers.epoch(7));
    callers.set("other", caller(8), callers.epoch(8));
    await callers.sessionsEnded(7);
    expect(callers.get("phone")).toBeUndefined();
    expect(callers.get("laptop")).toBeUndefined();
    expect(callers.get("other")?.id).toBe(8);
  });

  it("tells the other processes: their callers of that user go when the bus brings the word", async () => {
    bus = createEventBus({ db: undefined as unknown as Db, kind: "pglite" });
    const here = await cache();
    const there = await cache();
    there.set("phone", caller(7), there.epoch(7));
    await here.sessionsEnded(7);
    await expect.poll(() => there.get("phone")).toBeUndefined();
  });

  it("does not keep what a query read before the session ended, even when it answers after", async () => {
    bus = createEventBus({ db: undefined as unknown as Db, kind: "pglite" });
    const callers = await cache();
    // A request starts resolving the token (not signed out yet) ...
    const before = callers.epoch(7);
    // ... the user signs out meanwhile ...
    await callers.sessionsEnded(7);
    // ... and the request's answer comes back: it is not kept for the next request.
    callers.set("phone", caller(7), before);
    expect(callers.get("phone")).toBeUndefined();
    callers.set("phone", caller(7), callers.epoch(7));
    expect(callers.get("phone")?.id).toBe(7);
  });

  it("keeps at most maxEntries callers, dropping the oldest first", async () => {
    bus = createEventBus({ db: undefined as unknown as Db, kind: "pglite" });
    const callers = await cache({ maxEntries: 2 });
    callers.set("a", caller(1), 0);
    callers.set("b", caller(2), 0);
    callers.set("c", caller(3), 0);
    expect(callers.get("a")).toBeUndefined();
    expect(callers.get("b")?.id).toBe(2);
    expect(callers.get("c")?.id).toBe(3);
  });
});
