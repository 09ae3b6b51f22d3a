// What the app shows the user outside its window (notifications, the tray), written to its log as it happens: one
// line each, so that a person reading the log, and the Electron end-to-end tests reading the app's stderr, see the
// same record. No keys or tokens are ever in these lines.
import type { Logger } from "../../shared/log/logger.ts";
import type { AlertNotification } from "./alertNotification.ts";
import type { TrayModel } from "./trayModel.ts";

export const NOTIFICATION_SHOWN = "notification shown";
export const TRAY_CHANGED = "tray changed";

/**
 * At info: a notification is rare (at most one per rule per cooldown) and worth finding in the log. `ruleId` names the
 * rule (`busy:<chainId>` and `calm:<chainId>` for the built-in pair), `block` the block that completed the crossing.
 */
export function logNotificationShown(logger: Logger, { event, title, body }: AlertNotification): void {
  logger.info(NOTIFICATION_SHOWN, { chainId: event.chainId, ruleId: event.ruleId, when: event.when, block: event.block, title, body });
}

/**
 * At debug, and only when what the tray shows differs from the last line: the fee changes with most blocks.
 * Returns the function to call with each model the tray draws.
 */
export function trayChangeLogger(logger: Logger): (model: TrayModel) => void {
  let last = "";
  return (model) => {
    const shown = { title: model.title, tooltip: model.tooltip, congestion: model.congestion, chainId: model.chainId ?? null };
    const key = JSON.stringify(shown);
    if (key === last) return;
    last = key;
    logger.debug(TRAY_CHANGED, shown);
  };
}
