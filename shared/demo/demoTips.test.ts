import assert from "node:assert/strict";
import { test } from "node:test";
import { blockTipsOf } from "../core/fees/recentTips.ts";
import { RECENT_BLOCKS, suggestGasFees } from "../core/fees/suggestedGasFees.ts";
import { nearestRank } from "../core/fees/percentile.ts";
import { DEMO_FLOOR_QUANTILES, DEMO_TRANSFERS_PER_BLOCK, demoBlockTipsWei, quantileOf } from "./demoTips.ts";

const GWEI = 1_000_000_000n;
const gwei = (wei: bigint) => Number(wei) / 1e9;
/** The demo chain's blocks over a few hours of its replay. */
const BLOCKS = Array.from({ length: 6_000 }, (_, i) => 14_000n + BigInt(i));

test("each block holds its transfers' tips, ascending, whole thousandths of a Gwei, the same at every call", () => {
  for (const block of BLOCKS.slice(0, 500)) {
    const tips = demoBlockTipsWei(block);
    assert.equal(tips.length, DEMO_TRANSFERS_PER_BLOCK);
    assert.ok(
      tips.every((tip, i) => tip > 0n && tip % 1_000_000n === 0n && (i === 0 || tip >= tips[i - 1]!)),
      `block ${block}: ${tips.join(", ")}`,
    );
    assert.ok(tips[tips.length - 1]! > tips[0]!, `block ${block}: its tips differ`);
    assert.deepEqual(demoBlockTipsWei(block), tips);
  }
});

test("the blocks' cheapest tips follow the published quantiles: 0.05 Gwei at 50%, 0.1 at 75%, 0.3 at 95%", () => {
  const floors = BLOCKS.map((block) => demoBlockTipsWei(block)[0]!).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [percent, published] of [
    [50, 0.05],
    [75, 0.1],
    [95, 0.3],
  ] as const) {
    const drawn = gwei(nearestRank(floors, percent));
    assert.ok(Math.abs(drawn - published) / published < 0.1, `p${percent}: ${drawn} Gwei against the published ${published}`);
  }
  assert.equal(quantileOf(DEMO_FLOOR_QUANTILES, 0.5), 0.05);
  assert.ok(Math.abs(quantileOf(DEMO_FLOOR_QUANTILES, 0.625) - Math.sqrt(0.05 * 0.1)) < 1e-12, "log-linear between two points");
});

test("suggestGasFees over any 20 of the demo's blocks gives three different tiers and a newest-block range that is not one value", () => {
  const rows = BLOCKS.map((block) => {
    const tips = demoBlockTipsWei(block);
    // eth_feeHistory's [0, 10, 100] reward percentiles of equal-gas transfers: the cheapest is the 10th percentile too.
    return blockTipsOf(block, [tips[0]!, tips[0]!, tips[tips.length - 1]!]);
  });
  const tiers: bigint[][] = [];
  for (let end = RECENT_BLOCKS; end <= rows.length; end++) {
    const suggestion = suggestGasFees({
      estimatedBaseFeeWei: 80n * GWEI,
      recentTips: rows.slice(end - RECENT_BLOCKS, end),
      recentBaseFeesWei: [80n * GWEI],
      windowMinWei: 40n * GWEI,
      windowMaxWei: 150n * GWEI,
      networkCongestion: 0.5,
      blockTimeMs: 2_000,
    });
    const [low, medium, high] = [suggestion.low, suggestion.medium, suggestion.high].map((level) => level.maxPriorityFeePerGasWei);
    assert.ok(low! < medium! && medium! < high!, `blocks up to ${rows[end - 1]!.block}: ${low}, ${medium}, ${high}`);
    const [latestLow, latestHigh] = suggestion.latestPriorityFeeRangeWei;
    assert.ok(latestLow < latestHigh, `blocks up to ${rows[end - 1]!.block}: newest range ${latestLow} to ${latestHigh}`);
    tiers.push([low!, medium!, high!]);
  }
  // Typically (the median over the windows) the published tiers' order of size: tenths of a Gwei, not whole Gwei.
  const typical = [0, 1, 2].map((tier) =>
    gwei(
      nearestRank(
        tiers.map((row) => row[tier]!).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        50,
      ),
    ),
  );
  assert.ok(typical[0]! > 0.03 && typical[0]! < 0.08, `low ${typical[0]}`);
  assert.ok(typical[1]! > 0.06 && typical[1]! < 0.16, `medium ${typical[1]}`);
  assert.ok(typical[2]! > 0.15 && typical[2]! < 0.5, `high ${typical[2]}`);
});
