import assert from "node:assert/strict";
import { test } from "node:test";
import { notificationSettingsSchema } from "../config/settings.ts";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import type { ChainEntry, FeeSource } from "../service/feeSource.ts";
import type { NetworkStatus } from "../wire/networkStatus.ts";
import type { BusyAlert } from "./busyAlerts.ts";
import { watchBusyAlerts } from "./watchBusyAlerts.ts";

/** A fee source whose one chain's snapshot the test sets block by block. */
function fakeSource() {
  const listeners = new Set<(chainId: number) => void>();
  let snapshot: FeeSnapshot | undefined;
  const entry: ChainEntry = {
    chainId: 1,
    get snapshot() {
      return snapshot;
    },
    confirmedAt: 0,
    noBaseFee: false,
    blockTimeMs: 12_000,
    status: () => ({ name: "Ethereum" }) as NetworkStatus,
  };
  const source: FeeSource = {
    chain: (chainId) => (chainId === 1 ? entry : undefined),
    networks: () => [],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const block = (newestBlock: bigint, currentBaseFeeWei: bigint) => {
    snapshot = { newestBlock, currentBaseFeeWei, busyThresholdWei: 100n } as FeeSnapshot;
    for (const listener of listeners) listener(1);
  };
  return { source, block, listenerCount: () => listeners.size };
}

test("chain updates of the fee service become one alert per crossing; off and stop are honoured", () => {
  const { source, block, listenerCount } = fakeSource();
  const alerts: BusyAlert[] = [];
  const settings = notificationSettingsSchema.parse({ enterAfterBlocks: 2, calmAfterBlocks: 2, cooldownMinutes: 0 });
  const watch = watchBusyAlerts(
    source,
    settings,
    (alert) => alerts.push(alert),
    () => 0,
  );
  block(1n, 101n);
  block(2n, 101n);
  block(3n, 150n);
  assert.deepEqual(
    alerts.map((alert) => [alert.kind, alert.name, alert.blockNumber]),
    [["busy", "Ethereum", 2n]],
  );

  watch.configure({ ...settings, enabled: false });
  block(4n, 90n);
  block(5n, 90n);
  assert.equal(alerts.length, 1);

  watch.configure({ ...settings, mutedChainIds: [1] });
  block(6n, 200n);
  assert.equal(alerts.length, 1);

  watch.stop();
  assert.equal(listenerCount(), 0);
});
