// suggestedGasFees end to end: the real service following a real Hardhat node whose recent blocks carry
// transactions with varied tips, compared with values computed here from the node's own answers.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { callApi } from "../support/apiClient.ts";
import { expectedGwei, expectedPercentile } from "../support/independentFees.ts";
import { BLOCK_TIME_MS, CHAIN_ID, GWEI, KEY, sendTips, servedBlock, startTippedChain, type TippedChain } from "../support/tippedChain.ts";

interface Level {
  suggestedMaxPriorityFeePerGas: string;
  suggestedMaxFeePerGas: string;
  minWaitTimeEstimate: number;
  maxWaitTimeEstimate: number;
}
interface Suggested {
  low: Level;
  medium: Level;
  high: Level;
  estimatedBaseFee: string;
  networkCongestion: number;
  latestPriorityFeeRange: [string, string];
  historicalPriorityFeeRange: [string, string];
  historicalBaseFeeRange: [string, string];
  priorityFeeTrend: string;
  baseFeeTrend: string;
}

const toWei = (gwei: string) => {
  const [whole, fraction = ""] = gwei.split(".");
  return BigInt(whole!) * GWEI + BigInt(fraction.padEnd(9, "0"));
};
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const median = (values: readonly bigint[]) => expectedPercentile(values, 50);
const trend = (values: readonly bigint[]) => {
  const half = Math.floor(values.length / 2);
  const older = median(values.slice(0, half));
  const newer = median(values.slice(values.length - half));
  return newer > older ? "up" : newer < older ? "down" : "level";
};

describe("suggestedGasFees over a Hardhat chain with varied tips", () => {
  let chain: TippedChain;
  before(async () => {
    chain = await startTippedChain();
  });
  after(async () => {
    await chain?.stop();
  });

  test("the answer equals the method applied here to the node's blocks: exact Gwei strings, in the hosted shape", async () => {
    const { node, service, tipsWeiByBlock, newestBlock } = chain;
    const history = await node.request<{ oldestBlock: string; baseFeePerGas: string[] }>("eth_feeHistory", [
      `0x${(newestBlock + 1n).toString(16)}`,
      "latest",
      [],
    ]);
    assert.equal(history.oldestBlock, "0x0");
    const baseFeesWei = history.baseFeePerGas.map(BigInt);
    const nextBaseFeeWei = baseFeesWei.pop()!;
    // The newest 20 blocks are all tipped blocks (the tips of blocks 36..55).
    const recent = [...tipsWeiByBlock].filter(([block]) => block > newestBlock - 20n).map(([, tip]) => tip);
    assert.equal(recent.length, 20);
    const below = baseFeesWei.filter((fee) => fee < nextBaseFeeWei).length;
    const equal = baseFeesWei.filter((fee) => fee === nextBaseFeeWei).length;
    const level = (share: number, surgeBlocks: bigint, maxWaitBlocks: number): Level => {
      const tip = expectedPercentile(recent, share);
      return {
        suggestedMaxPriorityFeePerGas: expectedGwei(tip),
        suggestedMaxFeePerGas: expectedGwei(ceilDiv(nextBaseFeeWei * 9n ** surgeBlocks, 8n ** surgeBlocks) + tip),
        minWaitTimeEstimate: BLOCK_TIME_MS,
        maxWaitTimeEstimate: BLOCK_TIME_MS * maxWaitBlocks,
      };
    };
    const expected: Suggested = {
      low: level(50, 1n, 4),
      medium: level(75, 2n, 2),
      high: level(95, 3n, 1),
      estimatedBaseFee: expectedGwei(nextBaseFeeWei),
      networkCongestion: Math.round(((below + equal / 2) / baseFeesWei.length) * 10_000) / 10_000,
      latestPriorityFeeRange: [expectedGwei(recent.at(-1)!), expectedGwei(recent.at(-1)!)],
      historicalPriorityFeeRange: [expectedGwei(recent.reduce((a, b) => (b < a ? b : a))), expectedGwei(recent.reduce((a, b) => (b > a ? b : a)))],
      historicalBaseFeeRange: [expectedGwei(baseFeesWei.reduce((a, b) => (b < a ? b : a))), expectedGwei(baseFeesWei.reduce((a, b) => (b > a ? b : a)))],
      priorityFeeTrend: trend(recent),
      baseFeeTrend: trend(baseFeesWei.slice(-20)),
    };
    const answer = await callApi<Suggested>(service.url, `/networks/${CHAIN_ID}/suggestedGasFees`, KEY);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, expected);
    // Spelled out once, so that a wrong method above cannot agree with a wrong method in the code.
    assert.deepEqual(
      [answer.body.low, answer.body.medium, answer.body.high].map((l) => l.suggestedMaxPriorityFeePerGas),
      ["1.000000001", "1.500000001", "1.900000001"],
    );
    assert.equal(answer.headers.get("x-block-number"), newestBlock.toString());
    assert.match(answer.headers.get("etag") ?? "", /^"[A-Za-z0-9_-]{22}"$/);

    // The key-in-path form answers the same bytes.
    const inPath = await fetch(`${service.url}/v3/${KEY}/networks/${CHAIN_ID}/suggestedGasFees`);
    assert.equal(inPath.status, 200);
    assert.deepEqual(await inPath.json(), expected);
  });

  test("invariants: low <= medium <= high, max fee covers the base fee plus the tip, congestion in 0..1, the window's range", async () => {
    const { node, service, newestBlock } = chain;
    const { body } = await callApi<Suggested>(service.url, `/networks/${CHAIN_ID}/suggestedGasFees`, KEY);
    const levels = [body.low, body.medium, body.high];
    const baseFee = toWei(body.estimatedBaseFee);
    for (const l of levels) {
      assert.ok(toWei(l.suggestedMaxFeePerGas) >= baseFee + toWei(l.suggestedMaxPriorityFeePerGas));
      assert.ok(l.minWaitTimeEstimate <= l.maxWaitTimeEstimate);
    }
    for (let i = 1; i < 3; i++) {
      assert.ok(toWei(levels[i - 1]!.suggestedMaxPriorityFeePerGas) <= toWei(levels[i]!.suggestedMaxPriorityFeePerGas));
      assert.ok(toWei(levels[i - 1]!.suggestedMaxFeePerGas) <= toWei(levels[i]!.suggestedMaxFeePerGas));
    }
    assert.ok(body.networkCongestion >= 0 && body.networkCongestion <= 1);
    // The statistics window's lowest and highest base fee, both ends, as the node reports its blocks (all of them: the
    // chain is younger than the window).
    const history = await node.request<{ baseFeePerGas: string[] }>("eth_feeHistory", [`0x${(newestBlock + 1n).toString(16)}`, "latest", []]);
    const windowWei = history.baseFeePerGas.slice(0, -1).map(BigInt);
    assert.equal(windowWei.length, Number(newestBlock) + 1);
    const lowest = windowWei.reduce((a, b) => (b < a ? b : a));
    const highest = windowWei.reduce((a, b) => (b > a ? b : a));
    assert.ok(lowest < highest, "the window's base fees differ, so that the two ends tell apart");
    assert.deepEqual(body.historicalBaseFeeRange, [expectedGwei(lowest), expectedGwei(highest)]);
  });

  test("a new block with mixed tips: its smallest and largest tip are the latest range, within one poll", async () => {
    const { node, service, accounts } = chain;
    await sendTips(node, accounts, [3n * GWEI + 7n, 50_000_000n, 9n * GWEI]);
    const block = await node.mineBlock(30n * GWEI);
    await servedBlock(service, block);
    const { body } = await callApi<Suggested>(service.url, `/networks/${CHAIN_ID}/suggestedGasFees`, KEY);
    assert.deepEqual(body.latestPriorityFeeRange, ["0.05", "9"]);
    assert.deepEqual(body.historicalPriorityFeeRange, ["0.05", "9"]);
    assert.ok(toWei(body.low.suggestedMaxPriorityFeePerGas) <= toWei(body.high.suggestedMaxPriorityFeePerGas));
  });
});
