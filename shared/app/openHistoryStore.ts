import { join } from "node:path";
import { HistoryStore } from "../history/historyStore.ts";
import { HistoryStoreError } from "../history/historyStoreErrors.ts";
import type { Logger } from "../log/logger.ts";

/** The history's file in a config folder, beside settings.json. */
export function historyPath(configDir: string): string {
  return join(configDir, "history.sqlite");
}

/**
 * Opens the history store, or says why it cannot (a damaged file, one from a newer gasfees, no permission) and
 * returns undefined: the service then runs with its history in memory only, never failing to start over it.
 */
export function openHistoryStore(file: string, logger: Logger): HistoryStore | undefined {
  try {
    const store = HistoryStore.open(file);
    logger.info("history kept in", { file });
    return store;
  } catch (error) {
    if (!(error instanceof HistoryStoreError)) throw error;
    logger.warn(error.message);
    return undefined;
  }
}
