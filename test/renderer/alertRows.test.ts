import assert from "node:assert/strict";
import { test } from "node:test";
import { chainAlertsOf } from "../../renderer/src/alerts/alertRows.ts";
import { compactWindowWords, conditionWords, cooldownWords } from "../../renderer/src/text/alertWords.ts";
import { alertsBody, ruleStatus } from "../support/alertFixtures.ts";

test("a condition in words: a fixed fee, a percentile over a duration or over blocks, or over the chain's window", () => {
  assert.equal(conditionWords({ when: "below", gwei: "8" }, "24h"), "below 8 Gwei");
  assert.equal(conditionWords({ when: "above", percentile: 95, window: "7d" }, "24h"), "above the 7 d p95");
  assert.equal(conditionWords({ when: "below", percentile: 20, window: null }, "24h"), "below the 24 h p20");
  assert.equal(conditionWords({ when: "below", percentile: 20 }, "7200 blocks"), "below the p20 of the last 7,200 blocks");
  assert.equal(compactWindowWords("90m"), "90 min");
  assert.equal(compactWindowWords("nonsense"), "nonsense");
  assert.deepEqual([0, 15, 60, 90, 1440, 2.5].map(cooldownWords), ["no cooldown", "15 min", "1 h", "1 h 30 min", "24 h", "2.5 min"]);
});

test("the dashboard lists the chain's own rules with their state, why one is paused, its last firing and its webhook", () => {
  const firedAt = "2026-11-23T07:00:00.000Z";
  const body = alertsBody([
    ruleStatus({ id: "cheap", label: "Cheap ETH" }),
    ruleStatus({
      id: "spike",
      when: "above",
      gwei: null,
      percentile: 95,
      window: "7d",
      threshold: "61.2",
      forBlocks: 3,
      state: "firing",
      pendingUntil: "2026-11-23T07:15:00.000Z",
      lastFired: { at: firedAt, block: "19000000", baseFee: "62.5", threshold: "61.2" },
      webhook: "https://hooks.example.com/…",
      lastWebhook: { at: firedAt, ok: false, detail: "HTTP 500 three times" },
    }),
    ruleStatus({ id: "off", enabled: false, paused: "disabled" }),
    ruleStatus({ id: "stale", paused: "degraded" }),
    ruleStatus({ id: "busy:1", builtIn: "busy", enabled: false }),
    ruleStatus({ id: "calm:1", builtIn: "calm", enabled: false }),
    ruleStatus({ id: "elsewhere", chainId: 10 }),
  ]);
  const { rows, builtInsOn } = chainAlertsOf(body, 1);
  assert.equal(builtInsOn, false);
  assert.deepEqual(
    rows.map(({ id, name, condition, state, stateWords }) => ({ id, name, condition, state, stateWords })),
    [
      { id: "cheap", name: "Cheap ETH", condition: "below 8 Gwei", state: "armed", stateWords: "Armed" },
      { id: "spike", name: "spike", condition: "above the 7 d p95 (now 61.2 Gwei), 3 blocks in a row", state: "firing", stateWords: "Firing" },
      { id: "off", name: "off", condition: "below 8 Gwei", state: "off", stateWords: "Off" },
      { id: "stale", name: "stale", condition: "below 8 Gwei", state: "paused", stateWords: "Paused: every RPC endpoint is failing, nothing fires" },
    ],
  );
  const spike = rows[1]!;
  assert.deepEqual(spike.lastFired, { atMs: Date.parse(firedAt), baseFee: "62.5", block: "19000000" });
  assert.equal(spike.heldBackUntil, Date.parse("2026-11-23T07:15:00.000Z"));
  assert.deepEqual(spike.webhook, { shown: "https://hooks.example.com/…", failing: "HTTP 500 three times" });
  assert.equal(rows[0]!.webhook, undefined);
  assert.equal(chainAlertsOf(alertsBody([]), 1).builtInsOn, undefined);
});
