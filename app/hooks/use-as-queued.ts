import { useMemo } from "react";
import { applyQueued } from "#app/lib/offline.ts";
import { usePendingChanges } from "#app/lib/outbox-store.ts";

/** The list's rows as they will be once the changes made offline on `page` are sent (lib/offline.ts). */
export function useAsQueued<Row extends { id: number }>(rows: Row[], page: string): Row[] {
  const changes = usePendingChanges();
  return useMemo(() => {
    const queued = applyQueued(rows, changes, page);
    return queued === rows ? rows : [...queued];
  }, [rows, changes, page]);
}
