import assert from "node:assert/strict";
import { test } from "node:test";
import { type AlertPolicy, alertText, type BusyAlert, BusyAlerts } from "./busyAlerts.ts";

const GWEI = 1_000_000_000n;
const policy: AlertPolicy = { enterAfterBlocks: 3, enterMarginPercent: 10, calmAfterBlocks: 5, cooldownMs: 60_000 };

/** Feeds one block per fee (in gwei, threshold 100 gwei), 12 s apart from `startMs`, and returns the alerts' kinds with their block. */
function run(alerts: BusyAlerts, feesGwei: readonly number[], options: { chainId?: number; startBlock?: number; startMs?: number; stepMs?: number } = {}) {
  const { chainId = 1, startBlock = 1000, startMs = 0, stepMs = 12_000 } = options;
  const out: Array<[BusyAlert["kind"], number]> = [];
  feesGwei.forEach((fee, index) => {
    const alert = alerts.observe({
      chainId,
      name: "Ethereum",
      blockNumber: BigInt(startBlock + index),
      currentBaseFeeWei: BigInt(fee) * GWEI,
      busyThresholdWei: 100n * GWEI,
      atMs: startMs + index * stepMs,
    });
    if (alert) out.push([alert.kind, startBlock + index]);
  });
  return out;
}

test("busy only after N blocks in a row above the threshold; a single spike is not busy", () => {
  const alerts = new BusyAlerts(policy);
  assert.deepEqual(run(alerts, [90, 105, 104, 99, 105, 105, 100]), []);
  assert.equal(alerts.stateOf(1), "normal");
  assert.deepEqual(run(alerts, [101, 102, 103], { startBlock: 2000 }), [["busy", 2002]]);
});

test("busy at once when one block is above the threshold by more than the margin", () => {
  assert.deepEqual(run(new BusyAlerts(policy), [90, 110]), []);
  assert.deepEqual(run(new BusyAlerts(policy), [90, 111]), [["busy", 1001]]);
});

test("calm only after M blocks in a row at or below the threshold, so a fee hovering at the threshold does not flap", () => {
  const alerts = new BusyAlerts({ ...policy, cooldownMs: 0 });
  const hovering = [120, 99, 101, 98, 102, 97, 101, 100, 100, 100, 100, 100];
  assert.deepEqual(run(alerts, hovering), [
    ["busy", 1000],
    ["normal", 1011],
  ]);
});

test("repeated updates of the same block count once", () => {
  const alerts = new BusyAlerts(policy);
  for (let i = 0; i < 10; i++) {
    assert.equal(alerts.observe({ chainId: 1, name: "x", blockNumber: 5n, currentBaseFeeWei: 105n, busyThresholdWei: 100n, atMs: i }), undefined);
  }
  assert.equal(alerts.stateOf(1), "normal");
});

test("the cooldown keeps a chain from nagging: a crossing that came and went inside it is never announced", () => {
  const alerts = new BusyAlerts({ ...policy, enterAfterBlocks: 1, calmAfterBlocks: 1, cooldownMs: 10 * 60_000 });
  // busy at 0 s (told), calm at 12 s (cooldown: not told), busy at 24 s: the user still believes it busy, nothing to say.
  assert.deepEqual(run(alerts, [101, 100, 101, 100, 101]), [["busy", 1000]]);
  // ...and a calm still holding when the cooldown ends is told then, once.
  assert.deepEqual(run(alerts, [90, 90, 90], { startBlock: 2000, startMs: 9 * 60_000, stepMs: 60_000 }), [["normal", 2001]]);
});

test("each chain has its own state and cooldown", () => {
  const alerts = new BusyAlerts({ ...policy, enterAfterBlocks: 1 });
  assert.deepEqual(run(alerts, [101], { chainId: 1 }), [["busy", 1000]]);
  assert.deepEqual(run(alerts, [101], { chainId: 8453 }), [["busy", 1000]]);
});

test("a muted chain is followed but never announced; unmuted, it announces its state as it is then", () => {
  const muted = new Set([1]);
  const alerts = new BusyAlerts({ ...policy, enterAfterBlocks: 1 }, (chainId) => muted.has(chainId));
  assert.deepEqual(run(alerts, [101, 102]), []);
  assert.equal(alerts.stateOf(1), "busy");
  muted.clear();
  assert.deepEqual(run(alerts, [103], { startBlock: 1002 }), [["busy", 1002]]);
});

test("fees are compared as exact wei: one wei above the margin counts, the margin itself does not", () => {
  const threshold = 37_378_956_101n;
  const atMargin = (threshold * 11n) / 10n; // exactly +10% (threshold is not a multiple of 10, so this rounds down)
  const alerts = new BusyAlerts(policy);
  const observe = (block: bigint, fee: bigint) =>
    alerts.observe({ chainId: 1, name: "x", blockNumber: block, currentBaseFeeWei: fee, busyThresholdWei: threshold, atMs: 0 });
  assert.equal(observe(1n, atMargin), undefined);
  assert.equal(observe(2n, atMargin + 1n)?.kind, "busy");
});

test("the notification text names the chain, the fee and the threshold in gwei", () => {
  const alert: BusyAlert = {
    kind: "busy",
    chainId: 1,
    name: "Ethereum",
    blockNumber: 17n,
    currentBaseFeeWei: 40n * GWEI + 1n,
    busyThresholdWei: 37_378_956_101n,
    atMs: 0,
  };
  assert.deepEqual(alertText(alert), {
    title: "Ethereum is busy",
    body: "Base fee 40.000000001 gwei, above the busy threshold of 37.378956101 gwei (block 17).",
  });
  assert.match(alertText({ ...alert, kind: "normal" }).title, /calmed down/);
});
