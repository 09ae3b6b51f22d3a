// Past ranges in money from the first start: the real service reads back, with getRoundData, the rounds a real Chainlink
// aggregator (MockV3Aggregator, compiled from @chainlink/contracts) on a Hardhat chain wrote before the service first
// read it, each round written by the contract's own updateRoundData; after a restart only the rounds since the points
// it kept; and a round that is not believed ends the walk there.
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { decodeFunctionData, encodeFunctionResult, formatUnits } from "viem";
import type { RunningService } from "../../shared/app/startService.ts";
import { deployPriceFeed, writeRound } from "../../shared/demo/costContracts.ts";
import { type EvmNode, startEvmNode } from "../../shared/demo/startEvmNode.ts";
import { createLogger } from "../../shared/log/logger.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { type PriceHistory, priceHistorySchema } from "../../shared/wire/costs.ts";
import { callApi } from "../support/apiClient.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer } from "../support/syntheticChainServer.ts";
import { AGGREGATOR_V3_ABI } from "../../shared/rpc/contracts/priceFeedReads.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 31337;
const DECIMALS = 8;
const GWEI = 1_000_000_000n;
const HORIZON_S = 24 * 3600;

interface Round {
  readonly roundId: bigint;
  readonly answer: bigint;
  readonly updatedAt: number;
}

/** Rounds from firstId on, `spacingS` apart, the newest at `newestAt`; prices with cents and odd fractions of a cent. */
function roundsEnding(newestAt: number, count: number, firstId = 1n, spacingS = 1800): Round[] {
  return Array.from({ length: count }, (_, index) => ({
    roundId: firstId + BigInt(index),
    answer: 180_000_000_000n + (firstId + BigInt(index)) * 37_123_457n,
    updatedAt: newestAt - (count - 1 - index) * spacingS,
  }));
}

/** How long a test waits for a log line before it fails, saying what it saw. */
const LOG_WAIT_MS = 20_000;

/** The service over the endpoint at `url` with a capturing log; `logged(pattern)` resolves at the first line that matches. */
async function serviceOver(node: { readonly url: string }, feed: `0x${string}`, historyFile?: string) {
  const lines: string[] = [];
  const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const logger = createLogger("info", (line) => {
    lines.push(line);
    for (const waiter of waiting.filter((candidate) => candidate.pattern.test(line))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const plan: ChainPlan = {
    chainId: CHAIN_ID,
    name: "feed test chain",
    rpcUrls: [node.url],
    blockTimeMs: 1000,
    pollIntervalMs: 100,
    historyHorizon: "24h",
    priceFeed: { address: feed, token: "ETH", description: "v0.8/tests/MockV3Aggregator.sol", heartbeatSeconds: 3600 },
  };
  const service = await startLocalService(
    [plan],
    [{ key: KEY }],
    { backfill: false, costReads: { intervalMs: 150 }, ...(historyFile === undefined ? {} : { historyFile }) },
    logger,
  );
  const logged = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return resolve(seen);
      const timer = setTimeout(() => reject(new Error(`no log line matched ${pattern} in ${LOG_WAIT_MS} ms; the log:\n${lines.join("")}`)), LOG_WAIT_MS);
      waiting.push({
        pattern,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
    });
  return { service, logged };
}

async function priceHistory(service: RunningService): Promise<PriceHistory> {
  const answer = await callApi<PriceHistory>(service.url, `/networks/${CHAIN_ID}/priceHistory`, KEY);
  assert.equal(answer.status, 200);
  return priceHistorySchema.parse(answer.body);
}

const pointOf = (round: Round) => ({ time: round.updatedAt, value: formatUnits(round.answer, DECIMALS) });

describe("a feed's rounds from before the first start are read back for past ranges in money", () => {
  let node: EvmNode;
  let feed: `0x${string}`;
  const directory = mkdtempSync(join(tmpdir(), "gasfees-past-rounds-"));
  const historyFile = join(directory, "history.sqlite");
  let rounds: Round[];

  before(async () => {
    node = await startEvmNode({ chainId: CHAIN_ID });
    await node.mineBlocks([20n, 21n].map((gwei) => gwei * GWEI));
    const nowS = Math.floor(Date.now() / 1000);
    feed = await deployPriceFeed(node, DECIMALS, 1n);
    // 30 hours of rounds (61), the first overwriting the one the constructor wrote; the newest is 20 minutes old, within
    // the heartbeat, which leaves room for the rounds the restart test writes after it.
    rounds = roundsEnding(nowS - 1200, 61);
    for (const round of rounds) await writeRound(node, feed, round);
  });

  after(async () => {
    await node?.stop();
  });

  test("the first start reads back every round of the horizon, the one in force at its start first, each price exact", async () => {
    const { service, logged } = await serviceOver(node, feed, historyFile);
    try {
      const line = await logged(/read back \d+ past prices/);
      assert.match(line, /the history horizon's start was reached/);
      const history = await priceHistory(service);
      const horizonStartS = rounds.at(-1)!.updatedAt - HORIZON_S;
      const inForce = rounds.findLastIndex((round) => round.updatedAt <= horizonStartS);
      assert.ok(inForce > 0, "the feed wrote rounds from before the horizon: they are not read");
      assert.deepEqual(history, rounds.slice(inForce).map(pointOf));
      assert.match(line, new RegExp(`"roundsRead":${rounds.length - 1 - inForce},`), "no round older than needed was judged");
    } finally {
      await service.stop();
    }
  });

  test("after a restart only the rounds written since the points kept are read back", async () => {
    const newestAt = rounds.at(-1)!.updatedAt;
    const later = roundsEnding(newestAt + 3 * 400, 3, rounds.at(-1)!.roundId + 1n, 400);
    for (const round of later) await writeRound(node, feed, round);
    const { service, logged } = await serviceOver(node, feed, historyFile);
    try {
      const line = await logged(/read back \d+ past prices?/);
      assert.match(line, /the price points held from before were reached/);
      assert.match(line, /"roundsRead":3,/, "two new rounds and the newest held, which ends the walk");
      const history = await priceHistory(service);
      assert.deepEqual(history.slice(-4), [rounds.at(-1)!, ...later].map(pointOf));
    } finally {
      await service.stop();
    }
  });
});

describe("a past round that is not believed ends the walk back, and is said", () => {
  let node: EvmNode;
  let feed: `0x${string}`;
  let rounds: Round[];

  before(async () => {
    node = await startEvmNode({ chainId: CHAIN_ID });
    await node.mineBlocks([20n].map((gwei) => gwei * GWEI));
    feed = await deployPriceFeed(node, DECIMALS, 1n);
    rounds = roundsEnding(Math.floor(Date.now() / 1000), 20);
    // Round 12 claims a time after round 13's: an endpoint or a feed that lies about the past.
    rounds[11] = { ...rounds[11]!, updatedAt: rounds[12]!.updatedAt + 60 };
    for (const round of rounds) await writeRound(node, feed, round);
  });

  after(async () => {
    await node?.stop();
  });

  test("only the rounds after it are kept; the log says which round and why", async () => {
    const { service, logged } = await serviceOver(node, feed);
    try {
      const line = await logged(/read back \d+ past prices/);
      assert.match(line, / warn /);
      assert.match(line, /round 12 is dated after the round that follows it/);
      assert.deepEqual(await priceHistory(service), rounds.slice(12).map(pointOf));
    } finally {
      await service.stop();
    }
  });
});

describe("an endpoint that fails the batches of past rounds: the walk back is tried again at the next read", () => {
  // Our stand-in JSON-RPC server (test/support/syntheticChainServer.ts) answers the feed's calls from `rounds` and, with
  // the call-batches-500 fault, refuses every batch of eth_call while answering single calls and the chain's own reads.
  test("the failure is said, and once the endpoint answers every round is read back", async () => {
    const rounds = roundsEnding(Math.floor(Date.now() / 1000) - 60, 10);
    const latest = rounds.at(-1)!;
    const feed = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419";
    const roundData = (round: Round) => [round.roundId, round.answer, BigInt(round.updatedAt), BigInt(round.updatedAt), round.roundId] as const;
    const server = await startSyntheticChainServer({
      chainId: CHAIN_ID,
      head: 50n,
      fault: "call-batches-500",
      ethCall: (data) => {
        const call = decodeFunctionData({ abi: AGGREGATOR_V3_ABI, data: data as `0x${string}` });
        if (call.functionName === "description")
          return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "description", result: "v0.8/tests/MockV3Aggregator.sol" }) };
        if (call.functionName === "decimals") return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "decimals", result: DECIMALS }) };
        if (call.functionName === "latestRoundData")
          return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "latestRoundData", result: roundData(latest) }) };
        const asked = rounds.find((round) => round.roundId === call.args[0]);
        if (asked === undefined) return { error: { code: 3, message: "execution reverted: No data present" } };
        return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", result: roundData(asked) }) };
      },
    });
    const { service, logged } = await serviceOver(server, feed);
    try {
      const failed = await logged(/read back 0 past prices .*could not be read.*tried again at the next read/);
      assert.match(failed, / warn /);
      assert.deepEqual(await priceHistory(service), [pointOf(latest)], "nothing but the newest round while the endpoint fails");
      server.setFault("none");
      const line = await logged(/read back 9 past prices/);
      assert.match(line, /the feed's current phase begins there/);
      assert.deepEqual(await priceHistory(service), rounds.map(pointOf));
    } finally {
      await service.stop();
      await server.close();
    }
  });
});
