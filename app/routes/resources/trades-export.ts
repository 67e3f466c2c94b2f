import type { Route } from "./+types/trades-export";
import { exportJournal } from "#app/server/trades.server.ts";

/** The journal as a CSV download. */
export function loader({ context }: Route.LoaderArgs) {
  return exportJournal(context);
}
