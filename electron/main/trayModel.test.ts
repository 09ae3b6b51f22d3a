import assert from "node:assert/strict";
import { test } from "node:test";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { trayModelOf } from "./trayModel.ts";

const running = { state: "running", url: "http://127.0.0.1:8950", port: 8950 } as const;
const network = (chainId: number, name: string, fields: Partial<NetworkStatus>): NetworkStatus =>
  ({ chainId, name, state: "ok", currentBaseFee: "23.227829059", busyThreshold: "37.378956101", busy: false, ...fields }) as NetworkStatus;

test("the tray shows the chosen chain's newest base fee, coloured by congestion", () => {
  const networks = [network(1, "Ethereum", {}), network(8453, "Base", { currentBaseFee: "0.012345678", busy: true, busyThreshold: "0.01" })];
  assert.deepEqual(trayModelOf(running, networks, undefined), {
    chainId: 1,
    congestion: "normal",
    title: "23.23 gwei",
    tooltip: "gasfees: Ethereum base fee 23.23 gwei, normal",
  });
  assert.deepEqual(trayModelOf(running, networks, 8453), {
    chainId: 8453,
    congestion: "busy",
    title: "0.01235 gwei",
    tooltip: "gasfees: Base base fee 0.01235 gwei, busy (above 0.01 gwei)",
  });
  assert.equal(trayModelOf(running, networks, 999).chainId, 1, "a chain no longer followed falls back to the first");
  // The dashboard's short form of a fee (shared/core/text/shortGwei.ts), thousands separated.
  assert.equal(trayModelOf(running, [network(1, "Ethereum", { currentBaseFee: "1234.5" })], 1).title, "1,235 gwei");
});

test("unknown colour while syncing, degraded, paused, or when the API is not running", () => {
  assert.equal(trayModelOf(running, [network(1, "Ethereum", { currentBaseFee: null, busy: null, state: "syncing" })], 1).congestion, "unknown");
  const degraded = trayModelOf(running, [network(1, "Ethereum", { state: "degraded", busy: true })], 1);
  assert.equal(degraded.congestion, "unknown");
  assert.match(degraded.tooltip, /RPC failing/);
  assert.deepEqual(trayModelOf({ state: "paused" }, [], undefined).title, "paused");
  assert.match(trayModelOf({ state: "port-in-use", port: 8950, message: "" }, [], undefined).tooltip, /port 8950 is in use/);
  assert.match(trayModelOf(running, [], undefined).tooltip, /no chains configured/);
});

test("with an action chosen for the tray, its cost now in money; without a price, the base fee and why", () => {
  const networks = [network(1, "Ethereum", {})];
  assert.deepEqual(trayModelOf(running, networks, 1, { kind: "money", fiat: "1.40", currency: "USD", name: "Swap" }), {
    chainId: 1,
    congestion: "normal",
    title: "$1.40 swap",
    tooltip: "gasfees: Ethereum Swap $1.40 now (medium tier), base fee 23.23 gwei, normal",
  });
  const none = trayModelOf(running, networks, 1, { kind: "none", why: "no USD price (the feed's round is 3 h old)" });
  assert.equal(none.title, "23.23 gwei", "no price: never a money figure, the base fee stays");
  assert.equal(none.tooltip, "gasfees: Ethereum base fee 23.23 gwei, normal (no cost shown: no USD price (the feed's round is 3 h old))");
  // While the service is paused, no cost either.
  assert.equal(trayModelOf({ state: "paused" }, networks, 1, { kind: "money", fiat: "1.40", currency: "USD", name: "Swap" }).title, "paused");
});
