/**
 * Close codes of the live websockets (docs/product.md#calls-websockets; ADR 0013), shared by the provider, the app's
 * relay and the page. 4000–4999 are the application's own range (RFC 6455 §7.4.2).
 */

/**
 * The credential the socket was opened with expired or is no longer accepted: the provider's
 * bearer token (provider → relay), or the browser's session (relay → browser). Open a new socket
 * with a valid credential; the relay does so by itself with another signed-in browser's token.
 */
export const WS_CLOSE_UNAUTHORIZED = 4401;
