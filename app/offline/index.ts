/**
 * The offline module's face for everyone (docs/decisions/0099-offline-as-one-module.md): the
 * protocol the page, the worker and the server share (messages, headers, how waiting changes show
 * on a list) and the routes' offline policies (`routeOffline` in `app/routes/…/*.offline.ts`).
 * Pure and React-free, so the service worker, the server and any screen may import it.
 * The other faces: `ui.tsx` (React), `index.server.ts` (the app server), `worker.ts` (the worker).
 */
export * from "./protocol.ts";
export * from "./policy.ts";
