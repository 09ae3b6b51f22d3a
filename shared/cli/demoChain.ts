import { demoHistory } from "../demo/demoHistory.ts";
import { DEMO_REPLAY, demoReplaySeries } from "../demo/demoReplayPlan.ts";
import { startDemoReplay } from "../demo/startDemoReplay.ts";
import { startEvmNode } from "../demo/startEvmNode.ts";
import { loadTimedMainnetBlocks } from "../demo/timedMainnetBlocks.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import type { Logger } from "../log/logger.ts";

export const DEMO_CHAIN_ID = 31337;

/**
 * What the page and the API call the demo chain: plain, with no mainnet block numbers (every number the page and the
 * API show is the demo chain's own; the mainnet blocks it replays are said once, in the log line at start).
 */
export const DEMO_CHAIN_NAME = "Demo (Ethereum mainnet replay)";

/**
 * The demo chain as the service follows it: one block every two seconds, the service's default statistics window (24
 * hours: the replay is chosen so that its fees cross that window's busy threshold, see demoReplayPlan.ts), and
 * nothing kept across starts.
 */
export function demoChainPlan(rpcUrls: readonly string[]): ChainPlan {
  return {
    chainId: DEMO_CHAIN_ID,
    name: DEMO_CHAIN_NAME,
    rpcUrls,
    blockTimeMs: DEMO_REPLAY.blockIntervalMs,
    // A new chain at every start under the same id: nothing of it is worth keeping.
    persistHistory: false,
  };
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
    });
  } catch (error) {
    await node.stop();
    throw error;
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
  return {
    // The ws endpoint pushes new heads (one request per block); http is the fallback.
    plan: demoChainPlan([node.wsUrl, node.url]),
    stop: async () => {
      stopReplay();
      await node.stop();
    },
  };
}
