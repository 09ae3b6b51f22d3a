import assert from "node:assert/strict";
import { test } from "node:test";
import { notificationSettingsSchema } from "../config/settings.ts";
import { TestFeeSource } from "../service/testFeeSource.ts";
import type { BusyAlert } from "./busyAlerts.ts";
import { watchBusyAlerts } from "./watchBusyAlerts.ts";

const GWEI = 1_000_000_000n;

/**
 * One chain whose history holds 100 blocks of 10 to 19 gwei (busy threshold 19 gwei): each `block` adds one block and
 * sets the next base fee, which the alerts compare with the threshold.
 */
function chain() {
  const source = new TestFeeSource([{ chainId: 1, name: "Ethereum" }]);
  source.write(
    1,
    1n,
    Array.from({ length: 100 }, (_, index) => BigInt(10 + (index % 10)) * GWEI),
    0,
  );
  let newest = 100n;
  const block = (nextBaseFeeGwei: bigint) => source.write(1, ++newest, [15n * GWEI], 0, nextBaseFeeGwei * GWEI);
  return { source, block };
}

test("the chain's publications become one alert per crossing; off and stop are honoured", () => {
  const { source, block } = chain();
  const alerts: BusyAlert[] = [];
  const settings = notificationSettingsSchema.parse({ enterAfterBlocks: 2, enterMarginPercent: 1000, calmAfterBlocks: 2, cooldownMinutes: 0 });
  const watch = watchBusyAlerts(
    source,
    settings,
    (alert) => alerts.push(alert),
    () => 0,
  );
  block(20n);
  block(20n);
  block(30n);
  assert.deepEqual(
    alerts.map((alert) => [alert.kind, alert.name, alert.blockNumber]),
    [["busy", "Ethereum", 102n]],
  );

  watch.configure({ ...settings, enabled: false });
  block(9n);
  block(9n);
  assert.equal(alerts.length, 1);

  watch.configure({ ...settings, mutedChainIds: [1] });
  block(40n);
  assert.equal(alerts.length, 1);

  watch.stop();
  assert.equal(source.listenerCount, 0);
});
