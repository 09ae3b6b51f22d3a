import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";
import { startEvmNode, type EvmNode, type EvmNodeOptions } from "../../shared/demo/startEvmNode.ts";
import { createLogger, type Logger } from "../../shared/log/logger.ts";

/** Real mainnet base fees (block 17,180,000 onwards), the fees the test chains' blocks carry. */
export const MAINNET_FEES_WEI: readonly bigint[] = loadMainnetBaseFees().baseFeesWei;

/** A real Hardhat node whose blocks 1..`blocks` carry the first `blocks` mainnet base fees (block 0 is genesis). */
export interface TestChain {
  readonly node: EvmNode;
  /** feesWei[n] is block n's base fee, as mined (index 0: genesis, 1 gwei). */
  readonly feesWei: bigint[];
  /** Mines the next `count` mainnet fees (continuing where the chain is); resolves with the newest block. */
  mine(count: number): Promise<bigint>;
  /** Mines one block with this base fee. */
  mineFee(baseFeeWei: bigint): Promise<bigint>;
  /** Base fees of blocks `from`..`to` inclusive, as this chain holds them. */
  fees(from: bigint, to: bigint): bigint[];
  readonly newestBlock: bigint;
}

/**
 * `feeOffset` starts the chain further into the mainnet fees, so that two test chains carry different fees and a
 * test can tell whose fees an answer holds.
 */
export async function startTestChain(blocks: number, options: EvmNodeOptions & { feeOffset?: number } = {}): Promise<TestChain> {
  const { feeOffset = 0, ...nodeOptions } = options;
  const node = await startEvmNode(nodeOptions);
  const feesWei: bigint[] = [1_000_000_000n];
  let cursor = feeOffset;
  const chain: TestChain = {
    node,
    feesWei,
    async mine(count) {
      const next = Array.from({ length: count }, (_, i) => MAINNET_FEES_WEI[(cursor + i) % MAINNET_FEES_WEI.length]!);
      cursor += count;
      const newest = await node.mineBlocks(next);
      feesWei.length = Number(newest) + 1 - next.length;
      feesWei.push(...next);
      return newest;
    },
    async mineFee(baseFeeWei) {
      const newest = await node.mineBlock(baseFeeWei);
      feesWei.length = Number(newest);
      feesWei.push(baseFeeWei);
      return newest;
    },
    fees: (from, to) => feesWei.slice(Number(from), Number(to) + 1),
    get newestBlock() {
      return BigInt(feesWei.length - 1);
    },
  };
  if (blocks > 0) await chain.mine(blocks);
  return chain;
}

/** A logger that keeps its lines (for assertions) and prints nothing unless GASFEES_TEST_LOG is set. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger("debug", (line) => {
    lines.push(line);
    if (process.env.GASFEES_TEST_LOG) process.stderr.write(line);
  });
  return Object.assign(logger, { lines });
}

/** Polls `condition` every 10 ms until it holds; fails with `what` after `timeoutMs`. Resolves with the elapsed ms. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
