/**
 * The provider's event bus: publish a JSON message on a channel, and every subscriber in every
 * provider process sharing the database receives it. On a PostgreSQL server it rides on
 * LISTEN/NOTIFY; with PGlite there is only one process, so it stays in memory. Delivery is at most
 * once and in publish order per channel; messages published while a listener is disconnected are
 * lost (subscribers that must not miss state reload it, as the live views do on reconnect).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import type { Db } from "#provider/db/client.ts";

export type BusListener = (message: unknown) => void | Promise<void>;

export interface EventBus {
  /** Sends `message` (anything JSON can carry) to every subscriber of `channel`, in every process. */
  publish(channel: string, message: unknown): Promise<void>;
  /** Calls `listener` for each message on `channel`; resolves (listening) to an unsubscribe function. */
  subscribe(channel: string, listener: BusListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface EventBusOptions {
  db: Db;
  kind: "postgres" | "pglite";
  /** The server's URL; needed with kind "postgres" for the listening connection. */
  databaseUrl?: string | undefined;
  /** First reconnect delay of the listening connection; doubles up to 30 s. */
  reconnectMs?: number | undefined;
}

export function createEventBus(options: EventBusOptions): EventBus {
  if (options.kind === "pglite") return createLocalBus();
  if (!options.databaseUrl) throw new Error("The PostgreSQL event bus needs the database URL to listen");
  return createPostgresBus(options.db, options.databaseUrl, options.reconnectMs ?? 1_000);
}

/** Subscribers by channel, each channel delivering one message at a time, in order. */
class Fanout {
  private readonly listeners = new Map<string, Set<BusListener>>();
  private readonly queues = new Map<string, Promise<void>>();

  add(channel: string, listener: BusListener): boolean {
    let set = this.listeners.get(channel);
    const first = !set;
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    return first;
  }

  /** Removes the listener; true when the channel has no listener left. */
  remove(channel: string, listener: BusListener): boolean {
    const set = this.listeners.get(channel);
    if (!set) return false;
    set.delete(listener);
    if (set.size > 0) return false;
    this.listeners.delete(channel);
    return true;
  }

  channels(): string[] {
    return [...this.listeners.keys()];
  }

  /** Queues `produce` (which yields the message) behind the channel's earlier deliveries. */
  deliver(channel: string, produce: () => unknown | Promise<unknown>): void {
    const previous = this.queues.get(channel) ?? Promise.resolve();
    const next = previous.then(async () => {
      let message: unknown;
      try {
        message = await produce();
      } catch (error) {
        console.error(`[bus] dropped a message on ${channel}:`, (error as Error).message);
        return;
      }
      if (message === undefined) return;
      for (const listener of [...(this.listeners.get(channel) ?? [])]) {
        try {
          await listener(message);
        } catch (error) {
          console.error(`[bus] a subscriber of ${channel} failed:`, error);
        }
      }
    });
    this.queues.set(channel, next);
    void next.then(() => {
      if (this.queues.get(channel) === next) this.queues.delete(channel);
    });
  }

  /** Waits for every queued delivery. */
  async drain(): Promise<void> {
    while (this.queues.size) await Promise.all(this.queues.values());
  }
}

/** One process: messages go straight to the subscribers, as a JSON copy like the server would give. */
function createLocalBus(): EventBus {
  const fanout = new Fanout();
  let closed = false;
  return {
    async publish(channel, message) {
      if (closed) throw new Error("The event bus is closed");
      const copy = JSON.parse(JSON.stringify(message ?? null)) as unknown;
      fanout.deliver(channel, () => copy);
    },
    async subscribe(channel, listener) {
      fanout.add(channel, listener);
      return async () => {
        fanout.remove(channel, listener);
      };
    },
    async close() {
      closed = true;
      await fanout.drain();
    },
  };
}

/**
 * A NOTIFY payload must stay under 8000 bytes, and a channel's recommendations are bigger, so a
 * large message goes as numbered base64 parts sent in one transaction: PostgreSQL delivers a
 * transaction's notifications together, in order, and never merges parts that differ.
 */
const INLINE_MAX_BYTES = 7_000;
const PART_CHARS = 7_000;
/** Parts of a message that never completes (its sender died mid-way cannot happen, but be safe) expire. */
const PARTIAL_TTL_MS = 60_000;

export function encodeNotifications(message: unknown): string[] {
  const json = JSON.stringify(message ?? null);
  if (Buffer.byteLength(json) <= INLINE_MAX_BYTES) return [`m${json}`];
  const base64 = Buffer.from(json).toString("base64");
  const id = randomUUID();
  const count = Math.ceil(base64.length / PART_CHARS);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(`p${id}:${i}:${count}:${base64.slice(i * PART_CHARS, (i + 1) * PART_CHARS)}`);
  }
  return parts;
}

/** Reassembles notifications into messages; returns undefined until a message is complete. */
export function createDecoder() {
  const partial = new Map<string, { parts: string[]; seen: number; started: number }>();
  return (payload: string): unknown => {
    if (payload.startsWith("m")) return JSON.parse(payload.slice(1));
    const match = /^p([0-9a-f-]{36}):(\d+):(\d+):(.*)$/s.exec(payload);
    if (!match) throw new Error(`Unrecognised notification payload (${payload.length} characters)`);
    const [, id, index, count, data] = match as unknown as [string, string, string, string, string];
    const now = Date.now();
    for (const [key, entry] of partial) if (now - entry.started > PARTIAL_TTL_MS) partial.delete(key);
    let entry = partial.get(id);
    if (!entry) partial.set(id, (entry = { parts: new Array<string>(Number(count)), seen: 0, started: now }));
    if (entry.parts[Number(index)] === undefined) entry.seen++;
    entry.parts[Number(index)] = data;
    if (entry.seen < entry.parts.length) return undefined;
    partial.delete(id);
    return JSON.parse(Buffer.from(entry.parts.join(""), "base64").toString("utf8"));
  };
}

function createPostgresBus(db: Db, url: string, reconnectMs: number): EventBus {
  const fanout = new Fanout();
  const decode = createDecoder();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let delay = reconnectMs;
  let closed = false;

  const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

  /** The one listening connection, (re)connected on demand, LISTENing on every subscribed channel. */
  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    if (connecting) return connecting;
    connecting = (async () => {
      const c = new pg.Client({ connectionString: url });
      c.on("notification", (msg) => {
        const payload = msg.payload ?? "";
        fanout.deliver(msg.channel, () => decode(payload));
      });
      const lost = (error?: Error) => {
        if (client !== c) return;
        client = null;
        c.removeAllListeners("notification");
        void c.end().catch(() => {});
        if (closed) return;
        console.error(`[bus] listening connection lost${error ? `: ${error.message}` : ""}; reconnecting`);
        scheduleReconnect();
      };
      c.on("error", lost);
      c.on("end", () => lost());
      try {
        await c.connect();
        for (const channel of fanout.channels()) await c.query(`LISTEN ${quote(channel)}`);
      } catch (error) {
        await c.end().catch(() => {});
        throw error;
      }
      client = c;
      delay = reconnectMs;
      return c;
    })().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect().catch((error: Error) => {
        console.error(`[bus] reconnect failed: ${error.message}`);
        delay = Math.min(delay * 2, 30_000);
        scheduleReconnect();
      });
    }, delay);
    retryTimer.unref();
  };

  return {
    async publish(channel, message) {
      if (closed) throw new Error("The event bus is closed");
      const notifications = encodeNotifications(message);
      if (notifications.length === 1) {
        await sql`select pg_notify(${channel}, ${notifications[0]!})`.execute(db);
        return;
      }
      await db.transaction().execute(async (tx) => {
        for (const payload of notifications) await sql`select pg_notify(${channel}, ${payload})`.execute(tx);
      });
    },

    async subscribe(channel, listener) {
      if (closed) throw new Error("The event bus is closed");
      const first = fanout.add(channel, listener);
      if (first) {
        try {
          // LISTEN is idempotent, so a connection that just opened and listened already is fine.
          const c = await connect();
          await c.query(`LISTEN ${quote(channel)}`);
        } catch (error) {
          fanout.remove(channel, listener);
          throw error;
        }
      }
      return async () => {
        if (fanout.remove(channel, listener) && client) {
          await client.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
        }
      };
    },

    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const c = client ?? (await connecting?.catch(() => null)) ?? null;
      client = null;
      await fanout.drain();
      if (c) await c.end().catch(() => {});
    },
  };
}
