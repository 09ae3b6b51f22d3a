import type { NotificationSettings } from "../config/settings.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { type AlertPolicy, type BusyAlert, BusyAlerts } from "./busyAlerts.ts";

export function alertPolicyOf(settings: NotificationSettings): AlertPolicy {
  return {
    enterAfterBlocks: settings.enterAfterBlocks,
    enterMarginPercent: settings.enterMarginPercent,
    calmAfterBlocks: settings.calmAfterBlocks,
    cooldownMs: settings.cooldownMinutes * 60_000,
  };
}

export interface BusyAlertWatch {
  /** New notification settings take effect at the next block. */
  configure(settings: NotificationSettings): void;
  stop(): void;
}

/**
 * Feeds every publication of a chain with data to the hysteresis and hands each alert to `notify` (the desktop app
 * shows it as a notification). With notifications off (or the chain muted), the state is still followed, so that
 * turning them on announces the chain's state as it is then, not crossings long past.
 */
export function watchBusyAlerts(
  source: FeeSource,
  settings: NotificationSettings,
  notify: (alert: BusyAlert) => void,
  now: () => number = Date.now,
): BusyAlertWatch {
  let current = settings;
  const alerts = new BusyAlerts(alertPolicyOf(settings), (chainId) => !current.enabled || current.mutedChainIds.includes(chainId));
  const unsubscribe = source.subscribe((publication) => {
    const { snapshot } = publication;
    if (snapshot === undefined) return;
    const alert = alerts.observe({
      chainId: publication.chainId,
      name: publication.name,
      blockNumber: snapshot.newestBlock,
      currentBaseFeeWei: snapshot.currentBaseFeeWei,
      busyThresholdWei: snapshot.busyThresholdWei,
      atMs: now(),
    });
    if (alert) notify(alert);
  });
  return {
    configure(next) {
      current = next;
      alerts.setPolicy(alertPolicyOf(next));
    },
    stop: unsubscribe,
  };
}
