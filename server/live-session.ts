import type { IncomingMessage } from "node:http";
import { readSession } from "../app/server/session.server.ts";

/**
 * The provider token of the signed-in browser behind a websocket upgrade request, read from the
 * session cookie as the app's loaders read it (readSession takes a Request; only the cookie matters).
 */
export async function sessionTokenOf(request: IncomingMessage): Promise<string | undefined> {
  const cookie = request.headers.cookie;
  if (!cookie) return undefined;
  const session = await readSession(new Request("http://app.invalid/", { headers: { cookie } }));
  return session?.token;
}
