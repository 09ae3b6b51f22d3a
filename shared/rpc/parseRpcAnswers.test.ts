import assert from "node:assert/strict";
import { test } from "node:test";
import { MalformedRpcResponseError } from "./errors.ts";
import { parseChainId, parseFeeHistory, parseLatestBlock, parseQuantity } from "./parseRpcAnswers.ts";

const URL = "http://127.0.0.1:1";

test("quantities: hex within bounds, everything else is garbage", () => {
  assert.equal(parseQuantity("0x0", 10n, "x", URL, "m"), 0n);
  assert.equal(parseQuantity("0x0a", 10n, "x", URL, "m"), 10n);
  for (const bad of ["0xb", "12", "0x", "-0x1", "0x-1", "0xzz", 12, null, undefined, {}, `0x${"f".repeat(65)}`]) {
    assert.throws(() => parseQuantity(bad, 10n, "x", URL, "m"), MalformedRpcResponseError, String(JSON.stringify(bad)));
  }
  assert.equal(parseChainId("0x2105", URL), 8453);
});

test("a fee history: mined blocks oldest first plus the next block's fee", () => {
  const answer = parseFeeHistory({ oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [0.5, 0] }, 2, "latest", URL);
  assert.deepEqual(answer, { oldestBlock: 16n, baseFeesWei: [1n, 2n], nextBaseFeeWei: 3n });
  assert.deepEqual(parseFeeHistory({ oldestBlock: "0x10", baseFeePerGas: ["0x1"], gasUsedRatio: [0] }, 5, 16n, URL).nextBaseFeeWei, undefined);
});

test("fee history garbage is refused, never data", () => {
  const good = { oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [0.5, 0] };
  const cases: Array<[unknown, RegExp]> = [
    [null, /not an object/],
    [[], /not an object/],
    [{ ...good, oldestBlock: 16 }, /oldestBlock/],
    [{ ...good, baseFeePerGas: "0x1" }, /baseFeePerGas is/],
    [{ ...good, gasUsedRatio: undefined }, /gasUsedRatio is missing/],
    [{ ...good, gasUsedRatio: [] }, /no block/],
    [{ ...good, baseFeePerGas: ["0x1"] }, /1 elements for 2 blocks/],
    [{ ...good, baseFeePerGas: ["0x1", "-0x2", "0x3"] }, /baseFeePerGas\[1\]/],
    [{ ...good, baseFeePerGas: ["0x1", `0x1${"0".repeat(40)}`, "0x3"] }, /beyond/],
    [{ ...good, gasUsedRatio: [0.5, -1] }, /gasUsedRatio/],
  ];
  for (const [value, message] of cases) {
    assert.throws(
      () => parseFeeHistory(value, 2, "latest", URL),
      (error: unknown) => error instanceof MalformedRpcResponseError && message.test(error.message),
      JSON.stringify(value),
    );
  }
  assert.throws(() => parseFeeHistory(good, 1, "latest", URL), /2 blocks where 1 were asked/);
  assert.throws(() => parseFeeHistory(good, 2, 20n, URL), /ends at block 17 where block 20 was asked/);
});

test("the latest block: its number, and its base fee or none (a chain before London)", () => {
  assert.deepEqual(parseLatestBlock({ number: "0x5", baseFeePerGas: "0x7" }, URL), { number: 5n, baseFeePerGas: 7n });
  assert.deepEqual(parseLatestBlock({ number: "0x5" }, URL), { number: 5n, baseFeePerGas: undefined });
  assert.throws(() => parseLatestBlock(null, URL), MalformedRpcResponseError);
  assert.throws(() => parseLatestBlock({ number: "0x5", baseFeePerGas: "lots" }, URL), MalformedRpcResponseError);
});

test("fee history rewards: one row of tips per block at REWARD_PERCENTILES, when asked for", () => {
  const answer = {
    oldestBlock: "0x10",
    baseFeePerGas: ["0x64", "0x65", "0x66"],
    gasUsedRatio: [0.5, 0],
    reward: [
      ["0x1", "0x2", "0x3"],
      ["0x0", "0x0", "0x0"],
    ],
  };
  assert.deepEqual(parseFeeHistory(answer, 2, "latest", "u", true).tips, [
    { block: 16n, minWei: 1n, p10Wei: 2n, maxWei: 3n },
    { block: 17n, minWei: 0n, p10Wei: 0n, maxWei: 0n },
  ]);
  assert.equal(parseFeeHistory(answer, 2, "latest", "u").tips, undefined, "not asked for: not read");
  const { reward: _, ...withoutReward } = answer;
  assert.equal(parseFeeHistory(withoutReward, 2, "latest", "u", true).tips, undefined, "left out: no tips, the base fees still count");
  assert.deepEqual(parseFeeHistory(withoutReward, 2, "latest", "u", true).baseFeesWei, [100n, 101n]);
  for (const reward of [
    "0x1",
    [["0x1", "0x2", "0x3"]],
    [
      ["0x1", "0x2"],
      ["0x1", "0x2", "0x3"],
    ],
    [
      ["0x1", "0x2", "-1"],
      ["0x1", "0x2", "0x3"],
    ],
    [null, ["0x1", "0x2", "0x3"]],
  ]) {
    assert.throws(() => parseFeeHistory({ ...answer, reward }, 2, "latest", "u", true), MalformedRpcResponseError, JSON.stringify(reward));
  }
});
