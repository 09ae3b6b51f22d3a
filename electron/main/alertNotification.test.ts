import assert from "node:assert/strict";
import { test } from "node:test";
import type { AlertEvent } from "../../shared/wire/alerts.ts";
import { alertNotificationOf } from "./alertNotification.ts";
import { ruleStatus } from "../../test/support/alertFixtures.ts";

const EVENT: AlertEvent = {
  ruleId: "cheap-eth",
  chainId: 1,
  chainName: "Ethereum",
  block: "19000000",
  baseFee: "7.9",
  threshold: "8",
  when: "below",
  firedAt: "2026-01-01T00:00:00.000Z",
  text: "Ethereum base fee 7.9 gwei is below 8 gwei (cheap-eth, block 19000000)",
  content: "Ethereum base fee 7.9 gwei is below 8 gwei (cheap-eth, block 19000000)",
};

const STATUS = ruleStatus({ id: "cheap-eth", state: "firing" });

test("the title is the rule's label; the body is the alert's sentence", () => {
  const notification = alertNotificationOf(EVENT, { ...STATUS, label: "Cheap ETH" });
  assert.deepEqual(notification, { event: EVENT, title: "Cheap ETH", body: EVENT.text });
});

test("without a label, the title says the rule in a few words: its fixed fee, or its percentile and window", () => {
  assert.equal(alertNotificationOf(EVENT, STATUS).title, "Ethereum below 8 gwei");
  const spike = { ...EVENT, ruleId: "spike", when: "above" as const, threshold: "41.2" };
  assert.equal(
    alertNotificationOf(spike, { ...STATUS, id: "spike", when: "above", gwei: null, percentile: 95, window: "7d" }).title,
    "Ethereum above its 7d p95",
  );
});

test("a built-in rule keeps the busy/calm notification's title (its label)", () => {
  const busy = {
    ...EVENT,
    ruleId: "busy:1",
    when: "above" as const,
    text: "Ethereum is busy: base fee 41.2 gwei, above the busy threshold of 37.38 gwei (block 19000000).",
  };
  const notification = alertNotificationOf(busy, {
    ...STATUS,
    id: "busy:1",
    builtIn: "busy",
    label: "Ethereum is busy",
    gwei: null,
    percentile: 90,
    window: "24h",
  });
  assert.equal(notification.title, "Ethereum is busy");
  assert.equal(notification.body, busy.text);
});

test("a rule deleted before its alert is shown is named by its id and the threshold it fired at", () => {
  assert.equal(alertNotificationOf(EVENT, undefined).title, "Ethereum below 8 gwei (cheap-eth)");
});
