/**
 * The parts of the push wire format the service worker needs, without zod, so the worker
 * stays small (contract/push.ts has the schemas).
 */

import { isSitePath } from "./site-path.ts";

/** The `kind` of the message the worker posts to open pages when a push arrives in the foreground. */
export const FOREGROUND_PUSH = "putseller:push";

/** Where a notification leads when it names no screen. */
const DEFAULT_PUSH_PATH = "/profile?panel=notifications";

/** A same-origin path only: a push can never send the user off-site. */
export function safeAppPath(url: string | null | undefined, fallback = DEFAULT_PUSH_PATH): string {
  return isSitePath(url) ? url : fallback;
}
