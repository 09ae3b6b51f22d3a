import { demoHistory } from "../demo/demoHistory.ts";
import { DEMO_REPLAY, demoReplaySeries } from "../demo/demoReplayPlan.ts";
import { startDemoReplay } from "../demo/startDemoReplay.ts";
import { demoBlockTipsWei } from "../demo/demoTips.ts";
import { RECENT_BLOCKS } from "../core/fees/suggestedGasFees.ts";
import { startEvmNode } from "../demo/startEvmNode.ts";
import { loadTimedMainnetBlocks } from "../demo/timedMainnetBlocks.ts";
import { demoPastSummaries, loadDemoPastSamples } from "../demo/demoPastSummaries.ts";
import type { HourlySummary } from "../core/outlook/hourlySummary.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import {
  DEMO_ETH_USD_ANSWER,
  DEMO_FEED_DESCRIPTION,
  DEMO_L1_VALUES,
  DEMO_PRICE_FEED,
  placeDemoOpStackOracle,
  placeDemoPriceFeed,
  writeDemoRound,
  type DemoRound,
} from "../demo/demoCostContracts.ts";
import type { Logger } from "../log/logger.ts";

export const DEMO_CHAIN_ID = 31337;

/** The demo feed's heartbeat (ETH / USD's on mainnet), and how often it writes a heartbeat round. */
const DEMO_FEED_HEARTBEAT_S = 3600;
const DEMO_HEARTBEAT_ROUND_MS = 20 * 60_000;

/**
 * What the page and the API call the demo chain: plain, with no mainnet block numbers (every number the page and the
 * API show is the demo chain's own; the mainnet blocks it replays are said once, in the log line at start).
 */
export const DEMO_CHAIN_NAME = "Demo (Ethereum mainnet replay)";

/**
 * The demo chain as the service follows it: one block every two seconds, the service's default statistics window (24
 * hours: the replay is chosen so that its fees cross that window's busy threshold, see demoReplayPlan.ts), nothing
 * kept across starts, and the weeks before its history as hourly summaries (`past`, demoPastSummaries.ts).
 */
export function demoChainPlan(rpcUrls: readonly string[], past: readonly HourlySummary[] = []): ChainPlan {
  return {
    chainId: DEMO_CHAIN_ID,
    name: DEMO_CHAIN_NAME,
    rpcUrls,
    blockTimeMs: DEMO_REPLAY.blockIntervalMs,
    // A new chain at every start under the same id: nothing of it is worth keeping.
    persistHistory: false,
    // Money offline: a Chainlink-style ETH / USD feed and the OP stack's L1 fee oracle on the demo chain itself.
    priceFeed: { address: DEMO_PRICE_FEED, token: "ETH", description: DEMO_FEED_DESCRIPTION, heartbeatSeconds: DEMO_FEED_HEARTBEAT_S },
    l1FeeKind: "op-stack",
    ...(past.length === 0 ? {} : { pastHourlySummaries: past }),
  };
}

/** The feed's rounds from the history's first block to `nowS`, an hour apart (the newest at nowS), oldest first. */
export function demoPastRounds(firstS: number, nowS: number): DemoRound[] {
  const count = Math.floor((nowS - firstS) / DEMO_FEED_HEARTBEAT_S) + 1;
  return Array.from({ length: count }, (_, index) => ({
    roundId: BigInt(index + 1),
    answer: DEMO_ETH_USD_ANSWER,
    updatedAt: nowS - (count - 1 - index) * DEMO_FEED_HEARTBEAT_S,
  }));
}

const grouped = (value: bigint | number) => value.toLocaleString("en-US");

/**
 * `--demo`: a real local EVM node (Hardhat) whose chain holds two days of real Ethereum mainnet blocks with their real
 * spacing, ending now (shared/demo/demoHistory.ts), then goes on replaying real base fees live, one block every two
 * seconds (shared/demo/demoReplayPlan.ts: which blocks, and why those), followed like any other chain: the service
 * backfills the history from it as from a real chain. Needs no internet.
 */
export async function startDemoChain(logger: Logger): Promise<{ plan: ChainPlan; stop: () => Promise<void> }> {
  const timed = loadTimedMainnetBlocks();
  const series = demoReplaySeries(timed);
  const history = demoHistory(timed, Math.floor(Date.now() / 1000));
  // The weeks before the history, so that the outlook and the cheapest hours have weeks of the past from the start.
  const past = demoPastSummaries(loadDemoPastSamples(), history.timestamps[0]!);
  // The history's first block is the chain's genesis (block 0): every block of the chain is a real one.
  const node = await startEvmNode({
    chainId: DEMO_CHAIN_ID,
    genesis: { timestamp: history.timestamps[0]!, baseFeeWei: history.baseFeesWei[0]! },
    blobFees: true,
  });
  let stopReplay: () => void;
  try {
    stopReplay = await startDemoReplay(node, series, {
      history: { baseFeesWei: history.baseFeesWei.slice(1), timestamps: history.timestamps.slice(1) },
      liveFrom: DEMO_REPLAY.preloadBlocks,
      intervalMs: DEMO_REPLAY.blockIntervalMs,
      onError: (error) => logger.error("the demo chain stopped mining", { error: error.message }),
      // Tips shaped after a published mainnet answer (demoTips.ts), from the blocks suggestedGasFees reads at start on.
      tipsOf: demoBlockTipsWei,
      tippedHistoryBlocks: RECENT_BLOCKS,
    });
  } catch (error) {
    await node.stop();
    throw error;
  }
  // The feed holds a heartbeat round an hour over the whole history (the service reads them back for past ranges in
  // money), writes one at start and a heartbeat round every 20 minutes (of the 60 its heartbeat allows), as Chainlink's
  // feed does when the price holds; written into storage, so that no block is mined besides the replay's.
  const pastRounds = demoPastRounds(history.timestamps[0]!, Math.floor(Date.now() / 1000));
  let roundId = pastRounds.at(-1)!.roundId + 1n;
  const freshRound = async () => {
    const newest = await node.request<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    await writeDemoRound(node, { roundId: roundId++, answer: DEMO_ETH_USD_ANSWER, updatedAt: Number(BigInt(newest.timestamp)) });
  };
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  try {
    await placeDemoPriceFeed(node, pastRounds);
    await placeDemoOpStackOracle(node, DEMO_L1_VALUES);
    heartbeat = setInterval(() => {
      freshRound().catch((error: unknown) => logger.warn("the demo's price feed could not write its heartbeat round", { error: String(error) }));
    }, DEMO_HEARTBEAT_ROUND_MS);
    heartbeat.unref();
  } catch (error) {
    // The demo still shows every fee without them: costs then say why they have no price or L1 fee.
    logger.warn("the demo's price feed and L1 fee oracle could not be placed; costs are shown without them", { error: String(error) });
  }
  const head = history.mainnetBlocks.length - 1;
  const seam = history.mainnetBlocks.indexOf(timed.firstBlock);
  const lastBlock = series.firstBlock + BigInt(series.baseFeesWei.length - 1);
  const firstLive = series.firstBlock + BigInt(DEMO_REPLAY.preloadBlocks);
  const hours = (history.timestamps[head]! - history.timestamps[0]!) / 3600;
  logger.info(
    `demo chain ${DEMO_CHAIN_ID} at ${node.url}: blocks 0 to ${grouped(head)} are ${hours.toFixed(1)} hours of real Ethereum mainnet blocks ` +
      `up to now (mainnet ${grouped(history.mainnetBlocks[0]!)} to ${grouped(history.mainnetBlocks[seam - 1]!)}, then ` +
      `${grouped(timed.firstBlock)} to ${grouped(history.mainnetBlocks[head]!)}); from block ${grouped(head + 1)} on, one block every ` +
      `${DEMO_REPLAY.blockIntervalMs / 1000} s replays mainnet ${grouped(firstLive)} to ${grouped(lastBlock)}, then ` +
      `${grouped(series.firstBlock)} to ${grouped(lastBlock)} in a loop`,
    { mining: node.miningPath },
  );
  const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  logger.info(
    `demo chain ${DEMO_CHAIN_ID}'s past before block 0: ${grouped(past.summaries.length)} hourly summaries of real mainnet blocks sampled about ` +
      `once an hour from ${day(past.realFrom)} to ${day(past.realTo)}, moved ${past.shiftSeconds / (7 * 86_400)} weeks forward`,
  );
  return {
    // The ws endpoint pushes new heads (one request per block); http is the fallback.
    plan: demoChainPlan([node.wsUrl, node.url], past.summaries),
    stop: async () => {
      if (heartbeat !== undefined) clearInterval(heartbeat);
      stopReplay();
      await node.stop();
    },
  };
}
