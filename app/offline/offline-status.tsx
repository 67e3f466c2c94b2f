import type { Href } from "#app/lib/href.ts";
import { useEffect, useEffectEvent, useState, useSyncExternalStore } from "react";
import { useLocation, useNavigate, useRevalidator } from "react-router";
import { toast as showToast } from "#app/lib/toast.ts";
import { formatAge } from "#app/lib/format.ts";
import { messages, TOAST_MS } from "#app/lib/messages.ts";
import { nextOutboxRetryMs, SAVED_PREFIX, SW, type PendingChange, type ReplayOutcome } from "./protocol.ts";
import { setPendingChanges, usePendingChanges } from "./outbox-store.ts";

type WorkerMessage =
  | { kind: typeof SW.freshness; path: string | null; savedAt: number | null; slow?: boolean; freshFirst?: boolean }
  | { kind: typeof SW.outbox; changes: PendingChange[] }
  | { kind: typeof SW.replayed; change: { label: string; page: string }; outcome: ReplayOutcome }
  | { kind: typeof SW.replayStopped; reason: "offline" | "server"; manual: boolean }
  | { kind: typeof SW.replayDone }
  | { kind: typeof SW.freshAvailable }
  | { kind: typeof SW.notice; type?: ReplayOutcome["type"]; text: string; signedOut?: boolean };

function post(message: unknown): void {
  navigator.serviceWorker?.controller?.postMessage(message);
}

/**
 * The offline indicator and the outbox (issue 11), above every screen: says when the network is
 * gone, when the screen shows a saved copy and how old it is, and how many changes made offline
 * wait to be sent (with Retry). Sends them when the connection returns, shows a toast for each
 * answer and reloads the screen's data afterwards. `forgetKey` changes when the session ended
 * (sign-out, expiry): the saved screens and the outbox are then forgotten.
 */
export function OfflineStatus({ forgetKey }: { forgetKey: string | null }) {
  const online = useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
  const pending = usePendingChanges();
  // When each screen's shown data was saved, by path (absent: fresh from the network).
  const [savedCopies, setSavedCopies] = useState<
    Record<string, { savedAt: number; slow: boolean; freshFirst: boolean }>
  >({});
  const [retryIn, setRetryIn] = useState<number | null>(null);
  const location = useLocation();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const shownCopy = savedCopies[location.pathname] ?? null;
  const now = useClock(shownCopy !== null);

  const onWorkerMessage = useEffectEvent((message: WorkerMessage) => {
    switch (message.kind) {
      case SW.freshness: {
        const { path, savedAt, slow = false, freshFirst = false } = message;
        if (!path) return;
        setSavedCopies((current) => {
          if (!savedAt && !(path in current)) return current;
          const next = { ...current };
          if (savedAt) next[path] = { savedAt, slow, freshFirst };
          else delete next[path];
          return next;
        });
        return;
      }
      case SW.outbox:
        setPendingChanges(message.changes);
        if (message.changes.length === 0) setRetryIn(null);
        return;
      case SW.replayed: {
        const { outcome, change } = message;
        showToast(outcome.text, { type: outcome.type, autoClose: TOAST_MS.app });
        // Still on the form that made it: go where its answer leads, as it would have online.
        if (outcome.ok && outcome.redirectTo && location.pathname === change.page) {
          void navigate(outcome.redirectTo, { replace: true });
        }
        return;
      }
      case SW.replayStopped:
        if (message.manual) {
          showToast(message.reason === "offline" ? messages.stillOffline : messages.serverTrouble, {
            type: "info",
            autoClose: TOAST_MS.app,
            toastId: "outbox-stopped",
          });
        }
        // Tried again on its own, a little later each time. A send that failed while this page knew
        // it was offline does not count: back online, the waits start from the shortest again.
        setRetryIn((current) => (navigator.onLine ? nextOutboxRetryMs(current, message.reason) : null));
        return;
      case SW.replayDone:
      case SW.freshAvailable:
        if (revalidator.state === "idle") void revalidator.revalidate();
        return;
      case SW.notice:
        showToast(message.text, { type: message.type ?? "info", autoClose: TOAST_MS.app });
        // The changes could not be sent because the session ended: sign in again.
        if (message.signedOut && location.pathname !== ("/login" satisfies Href))
          void navigate("/login" satisfies Href);
        return;
    }
  });

  useEffect(() => {
    if (!("serviceWorker" in navigator)) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { kind?: unknown } | null;
      if (typeof data?.kind === "string" && data.kind.startsWith("offline:")) onWorkerMessage(data as WorkerMessage);
    };
    navigator.serviceWorker.addEventListener("message", onMessage);
    const hello = () => post({ kind: SW.hello });
    // The page may be taken over by the worker after it loaded (first visit, after an update).
    navigator.serviceWorker.addEventListener("controllerchange", hello);
    hello();
    return () => {
      navigator.serviceWorker.removeEventListener("message", onMessage);
      navigator.serviceWorker.removeEventListener("controllerchange", hello);
    };
  }, []);

  // Back online (or opened online with changes waiting): send them.
  const waiting = pending.length > 0;
  useEffect(() => {
    if (online && waiting) post({ kind: SW.replay });
  }, [online, waiting]);

  // After a refused send, try again on its own.
  useEffect(() => {
    if (retryIn === null || !online || !waiting) return;
    const timer = setTimeout(() => post({ kind: SW.replay }), retryIn);
    return () => clearTimeout(timer);
  }, [retryIn, online, waiting]);

  // The session ended: what this browser kept of the user's data goes.
  useEffect(() => {
    if (!forgetKey) return;
    // The worker answers with the (now empty) outbox.
    post({ kind: SW.forget });
    void forgetSavedScreens();
  }, [forgetKey]);

  if (online && shownCopy === null && pending.length === 0) return null;

  const age = shownCopy === null ? null : formatAge(new Date(shownCopy.savedAt), new Date(now));
  const recommendations = shownCopy?.freshFirst ?? false;
  return (
    <div className="offline-status" role="status" data-offline={online ? undefined : ""}>
      <p className="offline-status__text">
        {!online ? (
          <strong>{messages.offline} </strong>
        ) : shownCopy !== null ? (
          <strong>{shownCopy.slow ? messages.slowConnection : messages.cannotReachServer} </strong>
        ) : null}
        {age ? (recommendations ? messages.savedRecommendationsAge(age) : messages.savedDataAge(age)) : null}
        {pending.length > 0 ? <span> {messages.changesWaiting(pending.length)}</span> : null}
      </p>
      {pending.length > 0 ? (
        <button type="button" className="pwa-button" onClick={() => post({ kind: SW.replay, manual: true })}>
          {messages.retryNow}
        </button>
      ) : null}
    </div>
  );
}

function subscribeOnline(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

/** The browser's clock while an age is on screen, every 15 s. */
function useClock(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, 15_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [running]);
  return now;
}

/** The page can drop the saved screens itself too (the worker may be asleep or missing). */
async function forgetSavedScreens(): Promise<void> {
  if (!("caches" in window)) return;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(SAVED_PREFIX)).map((name) => caches.delete(name)));
}
