import assert from "node:assert/strict";
import { test } from "node:test";
import { MalformedRpcResponseError } from "./errors.ts";
import { parseBlockHeader, parseRpcChainId, parseFeeHistory, parseLatestBlock, parseQuantity } from "./parseRpcAnswers.ts";

const URL = "http://127.0.0.1:1";

test("quantities: hex within bounds, everything else is garbage", () => {
  assert.equal(parseQuantity("0x0", 10n, "x", URL, "m"), 0n);
  assert.equal(parseQuantity("0x0a", 10n, "x", URL, "m"), 10n);
  for (const bad of ["0xb", "12", "0x", "-0x1", "0x-1", "0xzz", 12, null, undefined, {}, `0x${"f".repeat(65)}`]) {
    assert.throws(() => parseQuantity(bad, 10n, "x", URL, "m"), MalformedRpcResponseError, String(JSON.stringify(bad)));
  }
  assert.equal(parseRpcChainId("0x2105", URL), 8453);
});

test("a fee history: mined blocks oldest first plus the next block's fee", () => {
  const answer = parseFeeHistory({ oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [0.5, 0] }, 2, "latest", URL);
  assert.deepEqual(answer, { oldestBlock: 16n, baseFeesWei: [1n, 2n], nextBaseFeeWei: 3n, gasUsedRatios: [0.5, 0] });
  assert.deepEqual(parseFeeHistory({ oldestBlock: "0x10", baseFeePerGas: ["0x1"], gasUsedRatio: [0] }, 5, 16n, URL).nextBaseFeeWei, undefined);
});

test("a gas-used ratio above 1 is read, not refused: Arbitrum gives gas per second over its target, Filecoin a tipset's sum", () => {
  // From real answers: OffchainLabs/go-ethereum#313 (Arbitrum), filecoin-project/lotus#10515 (1.13, 1.52, ...).
  const answer = parseFeeHistory({ oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [1.5151661267, 3] }, 2, "latest", URL);
  assert.deepEqual(answer.baseFeesWei, [1n, 2n]);
  assert.deepEqual(answer.gasUsedRatios, [1.5151661267, 3]);
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
    [{ ...good, gasUsedRatio: [0.5, "0.5"] }, /gasUsedRatio/],
    [{ ...good, gasUsedRatio: [0.5, 1e300] }, /gasUsedRatio/],
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

test("a fee of exactly 2^63 wei is refused; 2^63-1 wei, the most SQLite's INTEGER holds, is accepted", () => {
  const answerWith = (feeWei: bigint) => ({ oldestBlock: "0x10", baseFeePerGas: [`0x${feeWei.toString(16)}`, "0x1"], gasUsedRatio: [0.5] });
  assert.equal(parseFeeHistory(answerWith(2n ** 63n - 1n), 1, 16n, URL).baseFeesWei[0], 2n ** 63n - 1n);
  assert.throws(
    () => parseFeeHistory(answerWith(2n ** 63n), 1, 16n, URL),
    (error: unknown) =>
      error instanceof MalformedRpcResponseError && /baseFeePerGas\[0\] 9223372036854775808 is beyond 9223372036854775807/.test(error.message),
  );
  assert.throws(() => parseLatestBlock({ number: "0x5", baseFeePerGas: `0x${(2n ** 63n).toString(16)}` }, URL), /beyond/);
});

test("a fee history's gas-used ratios: one per block, each a number from 0 to 1,000", () => {
  const answer = parseFeeHistory({ oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [0.5, 1] }, 2, 17n, URL);
  assert.deepEqual(answer.gasUsedRatios, [0.5, 1]);
  assert.ok(Object.isFrozen(answer.gasUsedRatios));
  for (const ratio of [1_000.5, -0.1, Number.NaN, "0.5", null, 1e308]) {
    assert.throws(
      () => parseFeeHistory({ oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [0.5, ratio] }, 2, 17n, URL),
      (error: unknown) => error instanceof MalformedRpcResponseError && /gasUsedRatio\[1\]/.test(error.message),
      String(ratio),
    );
  }
});

test("a fee history's blob base fees, when present: one per block (plus the next block's), bounded like base fees; a bad one costs the blob fields only", () => {
  const good = { oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [0.5, 0] };
  assert.equal(parseFeeHistory(good, 2, 17n, URL).blobBaseFeesWei, undefined, "absent: none");
  assert.equal(parseFeeHistory({ ...good, baseFeePerBlobGas: null }, 2, 17n, URL).blobBaseFeesWei, undefined, "null: none");
  const withBlobs = parseFeeHistory({ ...good, baseFeePerBlobGas: ["0x7", "0x8", "0x9"] }, 2, 17n, URL);
  assert.deepEqual(withBlobs.blobBaseFeesWei, [7n, 8n]);
  assert.ok(Object.isFrozen(withBlobs.blobBaseFeesWei));
  assert.deepEqual(parseFeeHistory({ ...good, baseFeePerBlobGas: ["0x0", "0x1"] }, 2, 17n, URL).blobBaseFeesWei, [0n, 1n], "without the next block's");
  const cases: Array<[unknown, RegExp]> = [
    ["0x7", /baseFeePerBlobGas is "0x7", not an array/],
    [["0x7"], /baseFeePerBlobGas has 1 elements for 2 blocks/],
    [["0x7", "0x8", "0x9", "0xa"], /baseFeePerBlobGas has 4 elements for 2 blocks/],
    [["0x7", "-0x8", "0x9"], /baseFeePerBlobGas\[1\]/],
    [["0x7", "0x8", "0xz9"], /baseFeePerBlobGas\[2\]/],
    [["0x7", 8, "0x9"], /baseFeePerBlobGas\[1\]/],
    [["0x7", `0x${(2n ** 63n).toString(16)}`, "0x9"], /baseFeePerBlobGas\[1\] 9223372036854775808 is beyond/],
  ];
  // A hostile blob field costs the answer its blob fields (said in blobProblem), never its base fees.
  for (const [blobFees, message] of cases) {
    const read = parseFeeHistory({ ...good, baseFeePerBlobGas: blobFees, blobGasUsedRatio: [0.5, 0.5] }, 2, 17n, URL);
    assert.deepEqual(read.baseFeesWei, [1n, 2n], JSON.stringify(blobFees));
    assert.equal(read.nextBaseFeeWei, 3n);
    assert.deepEqual(
      [read.blobBaseFeesWei, read.nextBlobBaseFeeWei, read.blobGasUsedRatios],
      [undefined, undefined, undefined],
      `${JSON.stringify(blobFees)}: no blob field kept`,
    );
    assert.match(read.blobProblem ?? "", message, JSON.stringify(blobFees));
  }
});

test("a fee history's next blob base fee and blob gas used ratios: read beside the blob base fees, hostile ones cost the blob fields only", () => {
  const good = { oldestBlock: "0x10", baseFeePerGas: ["0x1", "0x2", "0x3"], gasUsedRatio: [0.5, 0], baseFeePerBlobGas: ["0x7", "0x8", "0x9"] };
  const read = parseFeeHistory({ ...good, blobGasUsedRatio: [0, 1] }, 2, 17n, URL);
  assert.equal(read.nextBlobBaseFeeWei, 9n);
  assert.deepEqual(read.blobGasUsedRatios, [0, 1]);
  assert.equal(parseFeeHistory({ ...good, baseFeePerBlobGas: ["0x7", "0x8"] }, 2, 17n, URL).nextBlobBaseFeeWei, undefined, "no next one given");
  assert.equal(parseFeeHistory(good, 2, 17n, URL).blobGasUsedRatios, undefined, "absent: none");
  const cases: Array<[unknown, RegExp]> = [
    [0.5, /blobGasUsedRatio is 0.5, not an array/],
    [[0.5], /blobGasUsedRatio has 1 elements for 2 blocks/],
    [[0.5, 0.5, 0.5], /blobGasUsedRatio has 3 elements for 2 blocks/],
    [[0.5, 1.01], /blobGasUsedRatio\[1\]/],
    [[0.5, -0.1], /blobGasUsedRatio\[1\]/],
    [["0.5", 0.5], /blobGasUsedRatio\[0\]/],
    [[0.5, null], /blobGasUsedRatio\[1\]/],
  ];
  // A ratio above 1 is what an OP-stack endpoint sends since Jovian (a data-availability footprint over the target):
  // the answer loses its blob fields, its base fees stand.
  for (const [ratios, message] of cases) {
    const read = parseFeeHistory({ ...good, blobGasUsedRatio: ratios }, 2, 17n, URL);
    assert.deepEqual(read.baseFeesWei, [1n, 2n], JSON.stringify(ratios));
    assert.deepEqual([read.blobBaseFeesWei, read.nextBlobBaseFeeWei, read.blobGasUsedRatios], [undefined, undefined, undefined], JSON.stringify(ratios));
    assert.match(read.blobProblem ?? "", message, JSON.stringify(ratios));
  }
  assert.equal(read.blobProblem, undefined, "good blob fields: no problem");
});

test("a block header: its number, timestamp (unix seconds) and base fee; anything else is garbage", () => {
  assert.deepEqual(parseBlockHeader({ number: "0x5", timestamp: "0x6452d557", baseFeePerGas: "0x7" }, URL), {
    number: 5n,
    timestamp: 1_683_150_167,
    baseFeePerGas: 7n,
  });
  assert.equal(parseBlockHeader({ number: "0x0", timestamp: "0x0" }, URL).baseFeePerGas, undefined);
  for (const bad of [
    null,
    { number: "0x5" },
    { number: "0x5", timestamp: 1683150167 },
    { number: "0x5", timestamp: "0x-1" },
    { number: "0x5", timestamp: "0x200000001" },
  ]) {
    assert.throws(() => parseBlockHeader(bad, URL), MalformedRpcResponseError, JSON.stringify(bad));
  }
});
