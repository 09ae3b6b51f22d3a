// getRoundData read through a local JSON-RPC server of our own (test/support/syntheticChainServer.ts) that answers each
// round as the test says, hostile answers too: each call's answer is said for its round, none throws the batch away.
// (test/integration/costsPastRounds.test.ts reads a real aggregator on a Hardhat chain.)
import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeFunctionData, encodeFunctionResult } from "viem";
import { startSyntheticChainServer } from "../../../test/support/syntheticChainServer.ts";
import { createContractClient } from "./contractClient.ts";
import { AGGREGATOR_V3_ABI, readLatestRound, readPastRounds, readRoundElsewhere } from "./priceFeedReads.ts";

const FEED = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419";
const round = (id: bigint, answer: bigint, at: bigint) =>
  encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", result: [id, answer, at, at, id] });

test("each round's answer is decoded, and each hostile one is said for its own round", async () => {
  const byRound = new Map<bigint, { result: unknown } | { error: { code: number; message: string } }>([
    [10n, { result: round(10n, 187_850_000_000n, 1_700_000_000n) }],
    [9n, { error: { code: 3, message: "execution reverted: No data present" } }],
    [8n, { result: "0x" }],
    [7n, { result: "0x1234" }],
    [6n, { result: 42 }],
    [5n, { result: `0x${"ff".repeat(160)}` }], // roundId and answer as 2^256 - 1 (answer: -1 as int256)
    [4n, { result: round(5n, 1n, 1n) }],
  ]);
  const server = await startSyntheticChainServer({
    chainId: 1,
    head: 10n,
    ethCall: (data) => {
      const { args } = decodeFunctionData({ abi: AGGREGATOR_V3_ABI, data: data as `0x${string}` });
      return byRound.get(args[0] as bigint) ?? { result: "0x" };
    },
  });
  const client = createContractClient(1, [server.url], 2_000);
  try {
    const { answers, endpoint } = await readPastRounds(client, FEED, [10n, 9n, 8n, 7n, 6n, 5n, 4n]);
    assert.equal(endpoint, server.url, "said with the endpoint that answered");
    assert.deepEqual(answers[0], { round: { roundId: 10n, answer: 187_850_000_000n, startedAt: 1_700_000_000n, updatedAt: 1_700_000_000n } });
    assert.match("failed" in answers[1]! ? answers[1].failed : "", /No data present/);
    for (const index of [2, 3, 4]) assert.match("failed" in answers[index]! ? answers[index].failed : "", /not a round|not call data/, `round ${10 - index}`);
    // 2^256 - 1 as a uint80 round id does not decode: refused, not taken for a round.
    assert.ok("failed" in answers[5]!, "an answer out of the ABI's ranges is refused");
    assert.deepEqual(
      answers[6],
      { round: { roundId: 5n, answer: 1n, startedAt: 1n, updatedAt: 1n } },
      "another round's answer is passed on, for the judge to refuse",
    );
  } finally {
    client.close();
    await server.close();
  }
});

test("a round is read again from another endpoint of the chain, or not at all when it has none", async () => {
  const serve = (answer: bigint) =>
    startSyntheticChainServer({
      chainId: 1,
      head: 10n,
      ethCall: (data) => {
        const call = decodeFunctionData({ abi: AGGREGATOR_V3_ABI, data: data as `0x${string}` });
        const result = [7n, answer, 1_700_000_000n, 1_700_000_000n, 7n] as const;
        return call.functionName === "latestRoundData"
          ? { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "latestRoundData", result }) }
          : { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", result }) };
      },
    });
  const [first, second] = await Promise.all([serve(3_000_000_000_000n), serve(300_000_000_000n)]);
  const both = createContractClient(1, [first.url, second.url], 2_000);
  const alone = createContractClient(1, [first.url], 2_000);
  try {
    const latest = await readLatestRound(both, FEED);
    assert.equal(latest.endpoint, first.url);
    assert.equal(latest.round.answer, 3_000_000_000_000n);
    const elsewhere = await readRoundElsewhere(both, FEED, 7n, latest.endpoint);
    assert.equal(elsewhere?.endpoint, second.url);
    assert.equal(elsewhere?.round.answer, 300_000_000_000n);
    assert.equal(await readRoundElsewhere(alone, FEED, 7n, first.url), undefined);
  } finally {
    both.close();
    alone.close();
    await Promise.all([first.close(), second.close()]);
  }
});
