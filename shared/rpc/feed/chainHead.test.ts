import assert from "node:assert/strict";
import { test } from "node:test";
import { AHEAD_SLACK_BLOCKS, ChainHead, LAG_TOLERANCE_MS } from "./chainHead.ts";

const T0 = 1_700_000_000_000;
const ethereum = () => new ChainHead({ blockTimeMs: 12_000, reorgDepthBlocks: 64 });

test("before anything is believed, any head is believed", () => {
  assert.deepEqual(ethereum().judgeHead(2n ** 53n - 1n, T0), { believed: true });
});

test("a head within what time and the chain's rhythm allow is believed; a head beyond it is not", () => {
  const head = ethereum();
  head.confirm(1_000_000n, T0);
  // 60 s later five blocks are due: twice that, plus the slack, is the limit.
  const limit = 1_000_000n + 10n + BigInt(AHEAD_SLACK_BLOCKS);
  assert.equal(head.aheadLimit(T0 + 60_000), limit);
  assert.equal(head.judgeHead(limit, T0 + 60_000).believed, true);
  const verdict = head.judgeHead(limit + 1n, T0 + 60_000);
  assert.equal(verdict.believed, false);
  assert.equal(!verdict.believed && verdict.reason, "ahead");
  assert.match(!verdict.believed ? verdict.explanation : "", /its head 1001035 is 1035 blocks ahead of block 1000000/);
  // A million blocks ahead, and a number near 2^53: not believed.
  assert.equal(head.judgeHead(2_000_012n, T0 + 8_000).believed, false);
  assert.equal(head.judgeHead(2n ** 53n - 1n, T0 + 8_000).believed, false);
});

test("the rhythm learned from the chain's own blocks allows more when it is faster than the configured one", () => {
  const head = ethereum();
  head.confirm(100n, T0);
  assert.equal(head.judgeHead(100n + 1_000n + BigInt(AHEAD_SLACK_BLOCKS), T0 + 1_000_000, 1_000).believed, true);
  assert.equal(head.judgeHead(100n + 1_000n + BigInt(AHEAD_SLACK_BLOCKS), T0 + 1_000_000).believed, false);
});

test("a head behind the confirmed one is believed within the lag tolerance, and not beyond it", () => {
  const head = ethereum();
  head.confirm(1_000_000n, T0);
  assert.equal(head.lagToleranceBlocks, 64);
  assert.equal(head.judgeHead(1_000_000n - 64n, T0).believed, true);
  const verdict = head.judgeHead(1_000_000n - 10_000n, T0);
  assert.equal(!verdict.believed && verdict.reason, "behind");
  // On a fast chain the tolerance is two minutes of blocks.
  const arbitrum = new ChainHead({ blockTimeMs: 250, reorgDepthBlocks: 8 });
  assert.equal(arbitrum.lagToleranceBlocks, LAG_TOLERANCE_MS / 250);
});

test("a rewrite within the reorganisation depth is believed; a deeper one is not", () => {
  const head = ethereum();
  head.confirm(1_000n, T0);
  assert.equal(head.judgeRewrite(1_000n - 63n).believed, true);
  const verdict = head.judgeRewrite(1_000n - 64n);
  assert.equal(!verdict.believed && verdict.reason, "rewound");
});

test("the confirmed head only moves forward; a seed from held history counts from its block's time", () => {
  const head = ethereum();
  head.seed(500n, T0 - 3_600_000);
  assert.equal(head.block, 500n);
  // An hour after the held block: 300 blocks due, 600 + slack allowed.
  assert.equal(head.aheadLimit(T0), 500n + 600n + BigInt(AHEAD_SLACK_BLOCKS));
  head.confirm(499n, T0);
  assert.equal(head.block, 500n);
  head.confirm(501n, T0);
  assert.equal(head.block, 501n);
  head.seed(10n, T0);
  assert.equal(head.block, 501n);
});
