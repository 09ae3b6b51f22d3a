import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { DataClient } from "./dataClient.ts";
import { LiveConnection, type LiveSnapshot } from "./liveConnection.ts";

/** The page's live view of the service through `client`: connected while the calling component is mounted. */
export function useLiveConnection(client: DataClient): LiveSnapshot {
  const connection = useMemo(() => new LiveConnection(client), [client]);
  useEffect(() => connection.start(), [connection]);
  return useSyncExternalStore(connection.subscribe, connection.getSnapshot);
}
