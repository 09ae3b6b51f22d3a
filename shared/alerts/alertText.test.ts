import assert from "node:assert/strict";
import { test } from "node:test";
import type { AlertRule } from "../core/alerts/alertRule.ts";
import { parseWindowSpec } from "../core/history/duration.ts";
import { alertSentence } from "./alertText.ts";

const GWEI = 1_000_000_000n;
const busyThreshold = { kind: "percentile", percentile: 90, window: parseWindowSpec("24h")! } as const;
const rule = (overrides: Partial<AlertRule>): Pick<AlertRule, "id" | "when" | "threshold" | "label" | "builtIn"> => ({
  id: "cheap-eth",
  when: "below",
  threshold: { kind: "fixed", wei: 8n * GWEI },
  ...overrides,
});

test("a user's rule: the chain, its fee and threshold for a glance, the rule's label or id and the block", () => {
  const facts = { chainName: "Ethereum", block: 19_000_000n, baseFeeWei: 7_912_345_678n, thresholdWei: 8n * GWEI };
  assert.equal(alertSentence({ rule: rule({}), ...facts }), "Ethereum base fee 7.912 gwei is below 8 gwei (cheap-eth, block 19000000)");
  assert.equal(alertSentence({ rule: rule({ label: "Cheap ETH" }), ...facts }), "Ethereum base fee 7.912 gwei is below 8 gwei (Cheap ETH, block 19000000)");
  assert.equal(
    alertSentence({
      rule: rule({ when: "above", threshold: { kind: "percentile", percentile: 95, window: parseWindowSpec("7d")! } }),
      ...facts,
      baseFeeWei: 41_200_000_000n,
      thresholdWei: 37_378_956_101n,
    }),
    "Ethereum base fee 41.2 gwei is above 37.38 gwei, its p95 over 7d (cheap-eth, block 19000000)",
  );
  // "below" holds at the threshold too: said as it is.
  assert.equal(alertSentence({ rule: rule({}), ...facts, baseFeeWei: 8n * GWEI }), "Ethereum base fee 8 gwei is at 8 gwei (cheap-eth, block 19000000)");
});

test("two fees that would read alike at 4 digits are written exactly", () => {
  assert.equal(
    alertSentence({ rule: rule({}), chainName: "Base", block: 7n, baseFeeWei: 7_999_999_999n, thresholdWei: 8n * GWEI }),
    "Base base fee 7.999999999 gwei is below 8 gwei (cheap-eth, block 7)",
  );
});

test("the built-in rules keep the busy/calm notifications' words", () => {
  const facts = { chainName: "Ethereum", block: 19_000_000n, baseFeeWei: 41_200_000_000n, thresholdWei: 37_378_956_101n };
  assert.equal(
    alertSentence({ rule: rule({ id: "busy:1", when: "above", threshold: busyThreshold, builtIn: "busy" }), ...facts }),
    "Ethereum is busy: base fee 41.2 gwei, above the busy threshold of 37.38 gwei (block 19000000).",
  );
  assert.equal(
    alertSentence({ rule: rule({ id: "calm:1", threshold: busyThreshold, builtIn: "calm" }), ...facts, baseFeeWei: 30n * GWEI }),
    "Ethereum has calmed down: base fee 30 gwei, at or below the busy threshold of 37.38 gwei (block 19000000).",
  );
});
