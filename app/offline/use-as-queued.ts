import { useMemo } from "react";
import { applyQueued } from "./protocol.ts";
import { usePendingChanges } from "./outbox-store.ts";

/** The list's rows as they will be once the changes made offline on `page` are sent (app/offline/protocol.ts). */
export function useAsQueued<Row extends { id: number }>(rows: Row[], page: string): Row[] {
  const changes = usePendingChanges();
  return useMemo(() => {
    const queued = applyQueued(rows, changes, page);
    return queued === rows ? rows : [...queued];
  }, [rows, changes, page]);
}
