import type { EvmNode } from "./startEvmNode.ts";
import type { BaseFeeSeries } from "./mainnetBaseFees.ts";
import { replayedBaseFeeWei } from "./demoReplayPlan.ts";
import { HISTORY_BLOCKS } from "../core/fees/historyLength.ts";

export interface DemoReplayOptions {
  /** Blocks mined at once at the start, so that a chart is full from the first second. Default 500. */
  preloadBlocks?: number;
  /** Milliseconds between the following blocks. Default 2000. */
  intervalMs?: number;
  /** Called when mining a block failed (the node stopped, say); the replay stops. */
  onError?: (error: Error) => void;
}

/**
 * Each replayed block after the preload holds one plain transfer (21,000 gas) under a block gas limit of twice that:
 * the block uses exactly its gas target, so EIP-1559 leaves the base fee as it is and the node reports the replayed
 * block's own base fee as the next block's (the current base fee the service compares with the busy threshold). Empty
 * blocks would make it report 7/8 of it (EIP-1559's fall after an empty block), and the demo would seldom look busy.
 */
const TRANSFER_GAS = 21_000n;
const BLOCK_GAS_LIMIT = 2n * TRANSFER_GAS;
/** The transfer's priority fee: the data set holds no tips, so a round 1 gwei (suggestedGasFees shows it). */
const TIP_WEI = 1_000_000_000n;
/** Enough ether that the replay's fees never run the sender dry. */
const SENDER_BALANCE_WEI = 10n ** 30n;

const hex = (value: bigint) => `0x${value.toString(16)}`;

/**
 * Replays real base fees on a local node (a chain with EIP-1559): the first `preloadBlocks` at once, then one block per
 * `intervalMs` with the next fee, starting over at the end. Turns the node's automining off (the replay mines every
 * block) and lowers its block gas limit to that of one transfer at the gas target. Resolves once the preload is
 * mined, with the function that stops it (after which no timer of the replay remains; a block being mined then is
 * finished).
 */
export async function startDemoReplay(node: EvmNode, fees: BaseFeeSeries, options: DemoReplayOptions = {}): Promise<() => void> {
  const { preloadBlocks = HISTORY_BLOCKS, intervalMs = 2000 } = options;
  if (fees.baseFeesWei.length === 0) throw new RangeError("a demo replay needs at least one base fee");
  if (!Number.isInteger(preloadBlocks) || preloadBlocks < 0) throw new RangeError(`preloadBlocks must be a non-negative integer (got ${preloadBlocks})`);
  if (!(intervalMs > 0)) throw new RangeError(`intervalMs must be positive (got ${intervalMs})`);

  const preload = Array.from({ length: preloadBlocks }, (_, i) => replayedBaseFeeWei(fees, i));
  if (preload.length > 0) await node.mineBlocks(preload);
  const [sender] = await node.request<string[]>("eth_accounts");
  if (sender === undefined) throw new Error("the local EVM node has no unlocked account to send the demo's transfers from: check hardhat.config.cjs");
  await node.request("evm_setAutomine", [false]);
  await node.request("evm_setBlockGasLimit", [hex(BLOCK_GAS_LIMIT)]);
  await node.request("hardhat_setBalance", [sender, hex(SENDER_BALANCE_WEI)]);
  // Until the first replayed block, the preload's newest fee is the next one too, as it is after every later block.
  if (preload.length > 0) await node.request("hardhat_setNextBlockBaseFeePerGas", [hex(preload[preload.length - 1]!)]);

  /**
   * Puts the transfer of the block to come into the mempool, ahead of it: the block is mined with it at once, and the
   * node never shows that block without it. Its fee cap covers the base fee before and after.
   */
  const queueTransfer = (previousFeeWei: bigint, feeWei: bigint) =>
    node.request("eth_sendTransaction", [
      {
        from: sender,
        to: sender,
        value: "0x0",
        gas: hex(TRANSFER_GAS),
        maxFeePerGas: hex((feeWei > previousFeeWei ? feeWei : previousFeeWei) + TIP_WEI),
        maxPriorityFeePerGas: hex(TIP_WEI),
      },
    ]);

  let next = preloadBlocks;
  await queueTransfer(preload[preload.length - 1] ?? 0n, replayedBaseFeeWei(fees, next));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const fail = (error: Error) => {
    stopped = true;
    options.onError?.(error);
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      const feeWei = replayedBaseFeeWei(fees, next);
      next++;
      node
        .mineBlock(feeWei)
        .then(() => (stopped ? undefined : queueTransfer(feeWei, replayedBaseFeeWei(fees, next))))
        .then(schedule, fail);
    }, intervalMs);
  };
  schedule();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}
