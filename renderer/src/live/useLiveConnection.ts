import { useEffect, useMemo, useSyncExternalStore } from "react";
import type { DataClient } from "./dataClient.ts";
import { LiveConnection, type LiveSnapshot } from "./liveConnection.ts";

/**
 * The page's live view of the service through `client`: connected while the calling component is mounted; with the
 * way to ask for the alert rules' state again (after the settings page changed them).
 */
export function useLiveConnection(client: DataClient): LiveSnapshot & { readonly refreshAlerts: () => void } {
  const connection = useMemo(() => new LiveConnection(client), [client]);
  useEffect(() => connection.start(), [connection]);
  const snapshot = useSyncExternalStore(connection.subscribe, connection.getSnapshot);
  return { ...snapshot, refreshAlerts: connection.refreshAlerts };
}
