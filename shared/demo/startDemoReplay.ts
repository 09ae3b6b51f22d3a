import type { EvmNode } from "./startEvmNode.ts";
import type { BaseFeeSeries } from "./mainnetBaseFees.ts";
import { replayedBaseFeeWei } from "./demoReplayPlan.ts";

export interface DemoReplayOptions {
  /**
   * Blocks mined at once at the start, oldest first, so that charts and statistics are full from the first second:
   * their base fees and, optionally, their timestamps (unix seconds, each after the one before and after the newest
   * block's; the node's clock then runs on from the last). Default: none.
   */
  history?: { readonly baseFeesWei: readonly bigint[]; readonly timestamps?: readonly number[] };
  /** The replay's index of the first live block: live block k carries the series' fee at `liveFrom + k`, looping. Default 0. */
  liveFrom?: number;
  /** Milliseconds between the live blocks. Default 2000. */
  intervalMs?: number;
  /** Called when mining a block failed (the node stopped, say); the replay stops. */
  onError?: (error: Error) => void;
}

/**
 * Each live block holds one plain transfer (21,000 gas) under a block gas limit of twice that:
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
 * Replays real base fees on a local node (a chain with EIP-1559): the history at once, then one block per `intervalMs`
 * with the series' next fee, starting over at its end. Turns the node's automining off (the replay mines every block)
 * and lowers its block gas limit to that of one transfer at the gas target. Resolves once the history is mined, with
 * the function that stops it (after which no timer of the replay remains; a block being mined then is finished).
 */
export async function startDemoReplay(node: EvmNode, fees: BaseFeeSeries, options: DemoReplayOptions = {}): Promise<() => void> {
  const { liveFrom = 0, intervalMs = 2000 } = options;
  const history = options.history?.baseFeesWei ?? [];
  if (fees.baseFeesWei.length === 0) throw new RangeError("a demo replay needs at least one base fee");
  if (!Number.isInteger(liveFrom) || liveFrom < 0) throw new RangeError(`liveFrom must be a non-negative integer (got ${liveFrom})`);
  if (!(intervalMs > 0)) throw new RangeError(`intervalMs must be positive (got ${intervalMs})`);

  if (history.length > 0) await node.mineBlocks(history, options.history?.timestamps);
  const [sender] = await node.request<string[]>("eth_accounts");
  if (sender === undefined) throw new Error("the local EVM node has no unlocked account to send the demo's transfers from: check hardhat.config.cjs");
  await node.request("evm_setAutomine", [false]);
  await node.request("evm_setBlockGasLimit", [hex(BLOCK_GAS_LIMIT)]);
  await node.request("hardhat_setBalance", [sender, hex(SENDER_BALANCE_WEI)]);
  // Until the first live block, the history's newest fee is the next one too, as it is after every later block.
  if (history.length > 0) await node.request("hardhat_setNextBlockBaseFeePerGas", [hex(history[history.length - 1]!)]);

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

  let next = liveFrom;
  await queueTransfer(history[history.length - 1] ?? 0n, replayedBaseFeeWei(fees, next));
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
