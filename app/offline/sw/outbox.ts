import { IDEMPOTENCY_HEADER } from "#contract/headers.ts";
import { messages } from "#app/lib/messages.ts";
import {
  OFFLINE_REPLAY_HEADER,
  OUTCOME_HEADER,
  SW,
  type OfflineAnswer,
  type PendingChange,
  type ReplayOutcome,
} from "#app/offline/protocol.ts";
import { ENHANCED_FIELD } from "#app/lib/action-reply.ts";
import { withStore } from "./idb.ts";
import { describeChange } from "./route-policies.ts";
import { changedNow } from "./screens.ts";
import { sw, tellPages } from "./scope.ts";

/**
 * The outbox: a change to the watchlist or the UIP list (a form posted as `.data`) is sent with an
 * Idempotency-Key; when the network fails it waits here (IndexedDB), in order, and is sent again
 * with the same key when the page says the connection is back, so it is applied exactly once (the
 * provider keeps the answer per key). Each answer is told to the pages, which show it as a toast.
 */
interface Entry {
  id?: number;
  key: string;
  url: string;
  /** The screen the change was made on, and its form fields. */
  page: string;
  fields: Record<string, string>;
  contentType: string;
  body: ArrayBuffer;
  label: string;
  createdAt: number;
  attempts: number;
}

/** A change is given this long; then it counts as lost in transit (the key makes a resend safe). */
const SEND_TIMEOUT_MS = 20_000;
/** Sends refused by the server (5xx) before the change is given up, and the user told. */
const MAX_ATTEMPTS = 3;

const all = () => withStore<Entry[]>("readonly", (store) => store.getAll() as IDBRequest<Entry[]>);
const count = () => withStore<number>("readonly", (store) => store.count());
const add = (entry: Entry) => withStore("readwrite", (store) => store.add(entry));
const put = (entry: Entry) => withStore("readwrite", (store) => store.put(entry));
const remove = (id: number) => withStore("readwrite", (store) => store.delete(id));
const clear = () => withStore("readwrite", (store) => store.clear());

export async function pendingChanges(): Promise<PendingChange[]> {
  return (await all()).map((e) => ({
    id: e.id!,
    label: e.label,
    createdAt: e.createdAt,
    page: e.page,
    fields: e.fields,
  }));
}

async function tellOutbox(): Promise<void> {
  await tellPages({ kind: SW.outbox, changes: await pendingChanges() });
}

function send(entry: Entry, replay: boolean): Promise<Response> {
  const headers = new Headers({ [IDEMPOTENCY_HEADER]: entry.key });
  if (entry.contentType) headers.set("content-type", entry.contentType);
  if (replay) headers.set(OFFLINE_REPLAY_HEADER, "1");
  return fetch(entry.url, {
    method: "POST",
    headers,
    body: entry.body,
    credentials: "same-origin",
    signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
}

async function fieldsOf(request: Request): Promise<URLSearchParams> {
  try {
    const fields = new URLSearchParams();
    for (const [name, value] of await request.formData()) if (typeof value === "string") fields.append(name, value);
    return fields;
  } catch {
    return new URLSearchParams();
  }
}

/** Answers a change (POST of a list or stock form): sent now, or kept in the outbox. */
export async function handleChange(request: Request, page: string): Promise<Response> {
  const fields = await fieldsOf(request.clone());
  fields.delete(ENHANCED_FIELD);
  const entry: Entry = {
    key: crypto.randomUUID(),
    url: request.url,
    page,
    contentType: request.headers.get("content-type") ?? "",
    body: await request.clone().arrayBuffer(),
    label: describeChange(page, fields),
    fields: Object.fromEntries(fields),
    createdAt: Date.now(),
    attempts: 0,
  };
  // Changes go in the order they were made: what waits is sent first.
  if ((await count()) > 0) {
    await replay(false);
    if ((await count()) > 0) return keep(entry);
  }
  try {
    const response = await send(entry, false);
    changedNow();
    return response;
  } catch {
    // Offline, or lost in transit (it may have arrived: the same key makes the resend safe).
    return keep(entry);
  }
}

async function keep(entry: Entry): Promise<Response> {
  const waiting = await all();
  const last = waiting.at(-1);
  // The same form sent again while it waits (a second tap on Save) is the same change.
  const duplicate = last !== undefined && last.url === entry.url && sameBytes(last.body, entry.body);
  if (!duplicate) await add(entry);
  await tellOutbox();
  void sw.registration.sync?.register("outbox").catch(() => undefined);
  const body: OfflineAnswer = { offline: { queued: true, duplicate, label: entry.label } };
  return new Response(JSON.stringify(body), {
    status: 503,
    statusText: "Offline",
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

function sameBytes(a: ArrayBuffer, b: ArrayBuffer): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  return x.every((byte, i) => byte === y[i]);
}

let running: Promise<void> | null = null;

/** Sends what waits, oldest first; one run at a time. `manual`: the user asked (Retry). */
export function replay(manual: boolean): Promise<void> {
  running ??= drain(manual).finally(() => {
    running = null;
  });
  return running;
}

async function drain(manual: boolean): Promise<void> {
  let sent = 0;
  try {
    for (;;) {
      const [entry] = await all();
      if (!entry) break;
      let response: Response;
      try {
        response = await send(entry, true);
      } catch {
        await tellPages({ kind: SW.replayStopped, reason: "offline", manual });
        return;
      }
      const outcome = outcomeOf(response);
      if (outcome.signedOut) {
        await dropAll(messages.outboxSignedOut, true);
        return;
      }
      if (outcome.retry && entry.attempts + 1 < MAX_ATTEMPTS) {
        await put({ ...entry, attempts: entry.attempts + 1 });
        await tellPages({ kind: SW.replayStopped, reason: "server", manual });
        return;
      }
      await remove(entry.id!);
      sent += 1;
      const told: ReplayOutcome = outcome.retry
        ? { ok: false, type: "error", text: messages.outboxGaveUp(entry.label, outcome.text) }
        : { ...outcome, text: outcome.text || messages.outboxSent(entry.label) };
      await tellPages({
        kind: SW.replayed,
        change: { id: entry.id, label: entry.label, page: entry.page },
        outcome: told,
      });
      await tellOutbox();
    }
  } finally {
    if (sent > 0) {
      changedNow();
      await tellPages({ kind: SW.replayDone });
    }
  }
}

function outcomeOf(response: Response): ReplayOutcome {
  const told = response.headers.get(OUTCOME_HEADER);
  if (told) {
    try {
      return JSON.parse(decodeURIComponent(told)) as ReplayOutcome;
    } catch {
      // fall through to the status
    }
  }
  if (response.ok) return { ok: true, type: "success", text: "" };
  return {
    ok: false,
    type: "error",
    text: messages.httpError(response.status, response.statusText),
    retry: response.status >= 500,
  };
}

/** Empties the outbox, telling the pages what was not sent and why (nothing goes silently). */
export async function dropAll(reason: (labels: string[]) => string, signedOut = false): Promise<void> {
  const dropped = await all();
  await clear();
  if (dropped.length > 0) {
    await tellPages({ kind: SW.notice, type: "error", text: reason(dropped.map((e) => e.label)), signedOut });
  }
  await tellOutbox();
}

export async function hasPending(): Promise<boolean> {
  return (await count()) > 0;
}
