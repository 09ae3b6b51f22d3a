import type { EvmNode } from "./startEvmNode.ts";
import type { BaseFeeSeries } from "./mainnetBaseFees.ts";

export interface DemoReplayOptions {
  /** Blocks mined at once at the start, so that a chart is full from the first second. Default 500. */
  preloadBlocks?: number;
  /** Milliseconds between the following blocks. Default 2000. */
  intervalMs?: number;
  /** Called when mining a block failed (the node stopped, say); the replay stops. */
  onError?: (error: Error) => void;
}

/**
 * Replays real base fees on a local node: the first `preloadBlocks` at once, then one block per `intervalMs` with
 * the next fee, starting over at the end. Resolves once the preload is mined, with the function that stops it
 * (after which no timer of the replay remains).
 */
export async function startDemoReplay(node: EvmNode, fees: BaseFeeSeries, options: DemoReplayOptions = {}): Promise<() => void> {
  const { preloadBlocks = 500, intervalMs = 2000 } = options;
  const all = fees.baseFeesWei;
  if (all.length === 0) throw new RangeError("a demo replay needs at least one base fee");
  if (!Number.isInteger(preloadBlocks) || preloadBlocks < 0) throw new RangeError(`preloadBlocks must be a non-negative integer (got ${preloadBlocks})`);
  if (!(intervalMs > 0)) throw new RangeError(`intervalMs must be positive (got ${intervalMs})`);

  const preload = Array.from({ length: preloadBlocks }, (_, i) => all[i % all.length]!);
  if (preload.length > 0) await node.mineBlocks(preload);
  let next = preloadBlocks % all.length;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      const fee = all[next]!;
      next = (next + 1) % all.length;
      node.mineBlock(fee).then(schedule, (error: Error) => {
        stopped = true;
        options.onError?.(error);
      });
    }, intervalMs);
  };
  schedule();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
}
