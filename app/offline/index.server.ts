/**
 * The offline module's face for the app server (docs/decisions/0099-offline-as-one-module.md): the
 * root middleware that answers replayed changes, and the idempotency key each provider call carries.
 */
export { offlineMiddleware, providerKey } from "./middleware.server.ts";
