/**
 * The service worker's global scope, typed here: the app's tsconfig uses the DOM library, not
 * WebWorker's (the worker is app/service-worker.ts; these modules are its parts).
 */
interface WindowClientLike {
  id: string;
  url: string;
  visibilityState: "visible" | "hidden" | "prerender";
  focus(): Promise<WindowClientLike>;
  navigate(url: string): Promise<WindowClientLike | null>;
  postMessage(message: unknown): void;
}
interface ExtendableEventLike extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
export interface FetchEventLike extends ExtendableEventLike {
  request: Request;
  clientId: string;
  resultingClientId: string;
  respondWith(response: Response | Promise<Response>): void;
}
export interface MessageEventLike extends ExtendableEventLike {
  data: unknown;
  source: { id: string; postMessage(message: unknown): void } | null;
}
interface SyncEventLike extends ExtendableEventLike {
  tag: string;
}

interface WorkerScope {
  location: Location;
  registration: ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } };
  clients: {
    get(id: string): Promise<WindowClientLike | undefined>;
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<WindowClientLike[]>;
    openWindow(url: string): Promise<WindowClientLike | null>;
    claim(): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "install" | "activate", listener: (event: ExtendableEventLike) => void): void;
  addEventListener(type: "fetch", listener: (event: FetchEventLike) => void): void;
  addEventListener(type: "message", listener: (event: MessageEventLike) => void): void;
  addEventListener(type: "sync", listener: (event: SyncEventLike) => void): void;
}

export const sw = self as unknown as WorkerScope;

/** Tells every open page of the app. */
export async function tellPages(message: unknown): Promise<void> {
  const windows = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) client.postMessage(message);
}

/** Tells one page (a fetch's `clientId`); nothing when it is gone or unknown. */
export async function tellPage(clientId: string, message: unknown): Promise<void> {
  if (!clientId) return;
  const client = await sw.clients.get(clientId);
  client?.postMessage(message);
}
