import { loadMainnetBaseFees } from "../demo/mainnetBaseFees.ts";
import { startDemoReplay } from "../demo/startDemoReplay.ts";
import { startEvmNode } from "../demo/startEvmNode.ts";
import type { ChainPlan } from "../service/chainPlan.ts";
import type { Logger } from "../log/logger.ts";

export const DEMO_CHAIN_ID = 31337;
const DEMO_BLOCK_TIME_MS = 2000;

/**
 * `--demo`: a real local EVM node (Hardhat) replaying real Ethereum mainnet base fees, 500 blocks at once and then
 * one every two seconds, followed like any other chain. Needs no internet.
 */
export async function startDemoChain(logger: Logger): Promise<{ plan: ChainPlan; stop: () => Promise<void> }> {
  const fees = loadMainnetBaseFees();
  const node = await startEvmNode({ chainId: DEMO_CHAIN_ID });
  let stopReplay: () => void;
  try {
    stopReplay = await startDemoReplay(node, fees, {
      intervalMs: DEMO_BLOCK_TIME_MS,
      onError: (error) => logger.error("the demo chain stopped mining", { error: error.message }),
    });
  } catch (error) {
    await node.stop();
    throw error;
  }
  logger.info(
    `demo chain ${DEMO_CHAIN_ID} at ${node.url}: replaying mainnet base fees from block ${fees.firstBlock}, one block every ${DEMO_BLOCK_TIME_MS / 1000} s`,
  );
  return {
    plan: {
      chainId: DEMO_CHAIN_ID,
      name: `Demo: Ethereum mainnet replay (block ${fees.firstBlock}+)`,
      // The ws endpoint pushes new heads (one request per block); http is the fallback.
      rpcUrls: [node.wsUrl, node.url],
      blockTimeMs: DEMO_BLOCK_TIME_MS,
      statsWindowBlocks: 500,
    },
    stop: async () => {
      stopReplay();
      await node.stop();
    },
  };
}
