import { data } from "react-router";
import { messages } from "#app/lib/messages.ts";
import { ProviderError } from "./provider.server.ts";

/**
 * A page's load that fails because the service cannot answer (the provider unreachable, status 0,
 * or answering 503 while its database is unavailable) answers 503 with the unavailable sentence and
 * Retry-After, not a 500 (issue 40, finding 9). Other failures pass on as they were.
 */
export async function orUnavailable<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ProviderError && (error.status === 0 || error.status === 503)) {
      throw data(messages.serviceUnavailable, {
        status: 503,
        headers: { "retry-after": "5", "cache-control": "no-store" },
      });
    }
    throw error;
  }
}
