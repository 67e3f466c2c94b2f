import { createContext } from "react-router";
import type { SessionUser } from "./session.server.ts";

/** The CSP nonce of this request, set by server.ts through entry.server's createLoadContext. */
export const nonceContext = createContext<string>("");

/** The browser's address as Express sees it (TRUST_PROXY applied), for the provider's per-IP limits. */
export const clientAddressContext = createContext<string>("");

/** The signed-in user and their provider token, set by the auth middleware. */
export const sessionContext = createContext<{ token: string; user: SessionUser } | null>(null);
