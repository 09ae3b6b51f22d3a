// Bounds on what money can be, on the real service and its history file, over endpoints that lie on purpose: our own
// stand-in JSON-RPC server (test/support/syntheticChainServer.ts) answers a Chainlink aggregator's and the OP-stack
// GasPriceOracle's calls as each test says (costsHardhat.test.ts proves a 10x jump on a real MockV3Aggregator too).
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, test } from "node:test";
import { type AbiFunction, decodeFunctionData, encodeFunctionResult, formatUnits, toFunctionSelector } from "viem";
import type { RunningService } from "../../shared/app/startService.ts";
import { createLogger } from "../../shared/log/logger.ts";
import { GAS_PRICE_ORACLE_ABI } from "../../shared/rpc/contracts/l1FeeReads.ts";
import { AGGREGATOR_V3_ABI } from "../../shared/rpc/contracts/priceFeedReads.ts";
import type { ChainPlan } from "../../shared/service/chainPlan.ts";
import { type Costs, type PriceHistory, priceHistorySchema } from "../../shared/wire/costs.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { startLocalService } from "../support/startLocalService.ts";
import { startSyntheticChainServer, type SyntheticChainServer } from "../support/syntheticChainServer.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "0123456789abcdef0123456789abcdef";
const CHAIN_ID = 31337;
const FEED = "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419";
const MOCK_DESCRIPTION = "v0.8/tests/MockV3Aggregator.sol";

interface Round {
  readonly roundId: bigint;
  readonly answer: bigint;
  readonly updatedAt: number;
}

/** What a stand-in feed answers: its decimals, its rounds (the newest last), and a factor its answers are multiplied by. */
interface FeedState {
  decimals: number;
  rounds: Round[];
  factor: bigint;
}

const roundData = (round: Round, factor: bigint) =>
  [round.roundId, round.answer * factor, BigInt(round.updatedAt), BigInt(round.updatedAt), round.roundId] as const;

/** The selectors of the aggregator's functions: calls to anything else on the stand-in are the oracle's. */
const AGGREGATOR_SELECTORS = new Set<string>(
  AGGREGATOR_V3_ABI.filter((item) => item.type === "function").map((item) => toFunctionSelector(item as AbiFunction)),
);

/** A stand-in endpoint of the chain whose eth_call answers the feed from `state` (and, with `l1Fee`, the oracle). */
function standIn(state: FeedState, l1Fee?: () => bigint): Promise<SyntheticChainServer> {
  return startSyntheticChainServer({
    chainId: CHAIN_ID,
    head: 50n,
    ethCall: (data) => {
      if (l1Fee !== undefined) {
        try {
          const call = decodeFunctionData({ abi: GAS_PRICE_ORACLE_ABI, data: data as `0x${string}` });
          const values = { l1BaseFee: 31_000_000_000n, blobBaseFee: 1n, baseFeeScalar: 1368, blobBaseFeeScalar: 810_949 };
          if (call.functionName === "getL1Fee")
            return { result: encodeFunctionResult({ abi: GAS_PRICE_ORACLE_ABI, functionName: "getL1Fee", result: l1Fee() }) };
          return { result: encodeFunctionResult({ abi: GAS_PRICE_ORACLE_ABI, functionName: call.functionName, result: values[call.functionName] }) };
        } catch {
          // Not the oracle's: the feed's.
        }
      }
      // The oracle's other calls (getOperatorFee, which a pre-Isthmus oracle lacks): a revert without a reason, as there.
      if (l1Fee !== undefined && !AGGREGATOR_SELECTORS.has(data.slice(0, 10))) return { error: { code: 3, message: "execution reverted" } };
      const call = decodeFunctionData({ abi: AGGREGATOR_V3_ABI, data: data as `0x${string}` });
      if (call.functionName === "description")
        return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "description", result: MOCK_DESCRIPTION }) };
      if (call.functionName === "decimals")
        return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "decimals", result: state.decimals }) };
      if (call.functionName === "latestRoundData") {
        return {
          result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "latestRoundData", result: roundData(state.rounds.at(-1)!, state.factor) }),
        };
      }
      const asked = state.rounds.find((round) => round.roundId === call.args[0]);
      if (asked === undefined) return { error: { code: 3, message: "execution reverted: No data present" } };
      return { result: encodeFunctionResult({ abi: AGGREGATOR_V3_ABI, functionName: "getRoundData", result: roundData(asked, state.factor) }) };
    },
  });
}

/** Rounds 1..count, 30 minutes apart, the newest at `newestAt`, each 1,800 USD and a little more. */
function roundsEnding(newestAt: number, count: number): Round[] {
  return Array.from({ length: count }, (_, index) => ({
    roundId: BigInt(index + 1),
    answer: 180_000_000_000n + BigInt(index + 1) * 37_123_457n,
    updatedAt: newestAt - (count - 1 - index) * 1800,
  }));
}

const LOG_WAIT_MS = 20_000;

/** The real service over `urls` with a capturing log; `logged(pattern)` resolves at the first line that matches. */
async function serviceOver(urls: readonly string[], options: { historyFile?: string; l1?: boolean } = {}) {
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
    name: "stand-in chain",
    rpcUrls: [...urls],
    blockTimeMs: 1000,
    pollIntervalMs: 100,
    historyHorizon: "24h",
    ...(options.l1 === true
      ? { l1FeeKind: "op-stack" as const, priceFeed: false as const }
      : { priceFeed: { address: FEED, token: "ETH", description: MOCK_DESCRIPTION, heartbeatSeconds: 3600 } }),
  };
  const service = await startLocalService(
    [plan],
    [{ key: KEY }],
    { backfill: false, costReads: { intervalMs: 150 }, ...(options.historyFile === undefined ? {} : { historyFile: options.historyFile }) },
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

async function network(service: RunningService): Promise<NetworkStatus> {
  const answer = await callApi<NetworkStatus[]>(service.url, "/networks", KEY);
  return answer.body.find((entry) => entry.chainId === CHAIN_ID)!;
}

async function priceHistory(service: RunningService): Promise<PriceHistory> {
  const answer = await callApi<PriceHistory>(service.url, `/networks/${CHAIN_ID}/priceHistory`, KEY);
  assert.equal(answer.status, 200);
  return priceHistorySchema.parse(answer.body);
}

const valueOf = (round: Round, factor = 1n) => formatUnits(round.answer * factor, 8);
const pointOf = (round: Round, factor = 1n) => ({ time: round.updatedAt, value: valueOf(round, factor) });
const nowS = () => Math.floor(Date.now() / 1000);

describe("a price that moves more than its feed can is used only once another endpoint confirms it", () => {
  test("with no second endpoint, a 10x round is not published nor stored: the last good price is kept and the problem said", async () => {
    const state: FeedState = { decimals: 8, rounds: roundsEnding(nowS() - 120, 1), factor: 1n };
    const server = await standIn(state);
    const { service } = await serviceOver([server.url]);
    try {
      const first = state.rounds[0]!;
      await waitFor("the first price", async () => (await network(service)).price?.value === valueOf(first));
      const jump = { roundId: 2n, answer: first.answer * 10n, updatedAt: nowS() - 60 };
      state.rounds.push(jump);
      const held = await waitFor("the jump said", async () => {
        const entry = await network(service);
        return /is not used/.test(entry.priceProblem ?? "") ? entry : undefined;
      });
      assert.equal(held.price?.value, valueOf(first), "the last good price is kept, never the jump");
      assert.match(held.priceProblem!, /it moved 10\.0 times from the last price used/);
      assert.match(held.priceProblem!, /chain 31337 has no other endpoint to confirm it; the last good price \(1800\.37123457\) is kept$/);
      assert.deepEqual(await priceHistory(service), [pointOf(first)], "the jump is not kept as a past price");
    } finally {
      await service.stop();
      await server.close();
    }
  });

  test("a second endpoint that reads the round otherwise keeps it out (a dispute, the last price held); one that reads it alike confirms it", async () => {
    const first = roundsEnding(nowS() - 120, 1)[0]!;
    const liar: FeedState = { decimals: 8, rounds: [first], factor: 1n };
    const honest: FeedState = { decimals: 8, rounds: [first], factor: 1n };
    const [liarServer, honestServer] = await Promise.all([standIn(liar), standIn(honest)]);
    const { service, logged } = await serviceOver([liarServer.url, honestServer.url]);
    try {
      await waitFor("the first price", async () => (await network(service)).price?.value === valueOf(first));
      const second = { roundId: 2n, answer: first.answer + 1_000_000n, updatedAt: nowS() - 60 };
      honest.rounds.push(second);
      liar.rounds.push({ ...second, answer: second.answer * 10n });
      // Two endpoints, two stories: the chain is disputed, and the price it agreed on last is held meanwhile.
      const disputed = await waitFor("the disputed round said", async () => {
        const entry = await network(service);
        return /disagree on the price/.test(entry.priceProblem ?? "") ? entry : undefined;
      });
      assert.equal(disputed.price?.value, valueOf(first));
      assert.match(disputed.priceProblem!, /round 2 of the price feed .*; the last good price \(1800\.37123457\) is kept$/);
      assert.equal((disputed as { disputed?: boolean }).disputed, true);
      // Both endpoints now give the same 10x round (a market that truly moved): confirmed, used.
      honest.rounds.push({ roundId: 3n, answer: first.answer * 10n, updatedAt: nowS() - 30 });
      liar.rounds.push({ roundId: 3n, answer: first.answer * 10n, updatedAt: nowS() - 30 });
      await waitFor("the confirmed price", async () => {
        const entry = await network(service);
        return entry.price?.value === valueOf(first, 10n) && entry.priceProblem === null;
      });
      await logged(/a suspect price was confirmed by another endpoint/);
    } finally {
      await service.stop();
      await Promise.all([liarServer.close(), honestServer.close()]);
    }
  });
});

test("a feed stating 36 decimals is refused, never read as a price of 3e-25", async () => {
  const state: FeedState = { decimals: 36, rounds: [{ roundId: 1n, answer: 312_045_000_000n, updatedAt: nowS() - 60 }], factor: 1n };
  const server = await standIn(state);
  const { service } = await serviceOver([server.url]);
  try {
    const entry = await waitFor("the decimals refused", async () => {
      const status = await network(service);
      return /decimals/.test(status.priceProblem ?? "") ? status : undefined;
    });
    assert.equal(entry.price, null);
    assert.equal(
      entry.priceProblem,
      "the price feed could not be read: decimals: it states 19 decimals or more, which no price feed has (they have 8 or 18)",
      "a whole sentence, not cut at ': ['",
    );
  } finally {
    await service.stop();
    await server.close();
  }
});

test("an L1 fee of 1,000 ETH, more than the oracle's own base fees explain, is refused and said; an honest one is taken", async () => {
  let fee = 50_000_000_000n; // 0.00000005 ETH: about what these inputs charge for a transfer (118 bytes)
  const server = await standIn({ decimals: 8, rounds: [], factor: 1n }, () => fee);
  const { service } = await serviceOver([server.url], { l1: true });
  const costs = async () => (await callApi<Costs>(service.url, `/networks/${CHAIN_ID}/costs`, KEY)).body;
  try {
    await waitFor("the honest L1 fee", async () => (await costs()).actions?.every((action) => action.l1FeeWei === fee.toString()));
    fee = 10n ** 21n;
    const refused = await waitFor("the L1 fee refused", async () => {
      const body = await costs();
      return /more than/.test(body.l1FeeProblem ?? "") ? body : undefined;
    });
    assert.ok(refused.actions.every((action) => action.l1FeeWei === null));
    assert.match(
      refused.l1FeeProblem!,
      /^the L1 fee from the chain's GasPriceOracle is refused: its L1 fee of 1000000000000000000000 wei for \d+ bytes is more than its L1 base fee \(31000000000 wei\), blob base fee \(1 wei\) and scalars explain \(at most \d+ wei\)$/,
    );
  } finally {
    await service.stop();
    await server.close();
  }
});

test("a round dated ahead of the clock is not stored, and the next honest round is", async () => {
  const state: FeedState = { decimals: 8, rounds: roundsEnding(nowS() - 120, 1), factor: 1n };
  const server = await standIn(state);
  const { service } = await serviceOver([server.url]);
  try {
    const first = state.rounds[0]!;
    await waitFor("the first price", async () => (await network(service)).price?.value === valueOf(first));
    const ahead = { roundId: 2n, answer: first.answer + 1_000_000n, updatedAt: nowS() + 290 };
    state.rounds.push(ahead);
    await waitFor("the round ahead refused", async () => /dated in the future/.test((await network(service)).priceProblem ?? ""));
    const honest = { roundId: 3n, answer: first.answer + 2_000_000n, updatedAt: nowS() };
    state.rounds.push(honest);
    await waitFor("the honest round used", async () => (await network(service)).price?.value === valueOf(honest));
    assert.deepEqual(await priceHistory(service), [pointOf(first), pointOf(honest)], "never the round dated ahead");
  } finally {
    await service.stop();
    await server.close();
  }
});

describe("a lie outlives its liar no more", () => {
  test("after a restart over an honest endpoint alone, a price history read from a liar at 10x is replaced, the newest round too", async () => {
    const historyFile = join(mkdtempSync(join(tmpdir(), "gasfees-lying-prices-")), "history.sqlite");
    const rounds = roundsEnding(nowS() - 60, 20);
    const liar = await standIn({ decimals: 8, rounds, factor: 10n });
    const lied = await serviceOver([liar.url], { historyFile });
    try {
      await lied.logged(/read back 19 past prices/);
      assert.deepEqual(
        await priceHistory(lied.service),
        rounds.map((round) => pointOf(round, 10n)),
      );
    } finally {
      await lied.service.stop();
      await liar.close();
    }
    const honest = await standIn({ decimals: 8, rounds, factor: 1n });
    const restarted = await serviceOver([honest.url], { historyFile });
    try {
      const line = await restarted.logged(/read back \d+ past prices?/);
      assert.deepEqual(
        await priceHistory(restarted.service),
        rounds.map((round) => pointOf(round)),
        "every point as the honest endpoint reads it",
      );
      assert.match(line, /"pointsReplaced":19,/);
      assert.equal((await network(restarted.service)).price?.value, valueOf(rounds.at(-1)!));
    } finally {
      await restarted.service.stop();
      await honest.close();
    }
  });

  test("an endpoint believed alone, then outvoted after a restart: the price points it gave are removed and read again from the honest ones", async () => {
    const historyFile = join(mkdtempSync(join(tmpdir(), "gasfees-forget-prices-")), "history.sqlite");
    const rounds = roundsEnding(nowS() - 60, 12);
    const liar = await standIn({ decimals: 8, rounds, factor: 10n });
    const alone = await serviceOver([liar.url], { historyFile });
    try {
      await alone.logged(/read back 11 past prices/);
      assert.deepEqual(
        await priceHistory(alone.service),
        rounds.map((round) => pointOf(round, 10n)),
      );
    } finally {
      await alone.service.stop();
    }
    // Two honest endpoints beside it: the first round compared finds it outvoted, the layer sets it aside for lying,
    // and what it supplied before the restart goes with it.
    const honest = await standIn({ decimals: 8, rounds, factor: 1n });
    const other = await standIn({ decimals: 8, rounds, factor: 1n });
    const { service, logged } = await serviceOver([liar.url, honest.url, other.url], { historyFile });
    try {
      await logged(/forgetting 12 price points from an endpoint set aside for lying/);
      await waitFor("the history read again from the honest endpoints", async () => {
        const history = await priceHistory(service);
        return JSON.stringify(history) === JSON.stringify(rounds.map((round) => pointOf(round))) ? history : undefined;
      });
      assert.equal((await network(service)).price?.value, valueOf(rounds.at(-1)!));
      assert.equal(service.costReaders.forgetFrom(liar.url), 0, "nothing left from it");
    } finally {
      await service.stop();
      await Promise.all([liar.close(), honest.close(), other.close()]);
    }
  });
});
