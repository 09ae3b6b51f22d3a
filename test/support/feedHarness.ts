import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadMainnetBaseFees } from "../../shared/demo/mainnetBaseFees.ts";
import { startEvmNode, type EvmNode, type EvmNodeOptions } from "../../shared/demo/startEvmNode.ts";
import { createLogger, type Logger } from "../../shared/log/logger.ts";
import { BlockWindow } from "../../shared/core/fees/blockWindow.ts";
import type { FeeSnapshot } from "../../shared/core/fees/feeSnapshot.ts";
import { snapshotOf } from "./snapshotModel.ts";
import { HISTORY_BLOCKS } from "../../shared/core/fees/historyLength.ts";
import type { FeedReport } from "../../shared/rpc/feed/feedReport.ts";
import { DEFAULT_WAIT_MS } from "./waitFor.ts";

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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A feed's report as a reader that takes every report in order sees the chain after it: the report, with `snapshot`
 * made of the newest HISTORY_BLOCKS blocks all reports so far carried (the same object while no block changed).
 */
export type SeenReport = FeedReport & { readonly snapshot: FeeSnapshot | undefined };

/**
 * The reports a feed made, in order, each with the epoch ms it arrived at and, given `countRequests` (e.g. a
 * counting proxy's count), the requests made by then. Pass `onReport` to the feed. A feed reports once a sync's
 * requests are all answered, so that count is exact: no request of the feed is under way at that moment.
 * `until` waits for an event rather than a time: it resolves as soon as a report matches.
 */
export class FeedReports {
  readonly all: SeenReport[] = [];
  /** The blocks the reports carried, as a reader keeps them: the feed's window (`windowBlocks`, 500 by default). */
  readonly #window: BlockWindow;
  readonly #countRequests: (() => number) | undefined;
  readonly #arrivedAt = new Map<SeenReport, number>();
  readonly #requestsAt = new Map<SeenReport, number>();
  readonly #waiters = new Set<{ matches: (report: SeenReport) => boolean; resolve: (report: SeenReport) => void }>();

  constructor(options: { countRequests?: () => number; windowBlocks?: number } = {}) {
    this.#countRequests = options.countRequests;
    this.#window = new BlockWindow(options.windowBlocks ?? HISTORY_BLOCKS);
  }

  readonly onReport = (fed: FeedReport): void => {
    for (const blocks of fed.blocks) this.#window.write(blocks.firstBlock, blocks.baseFeesWei);
    const previous = this.latest?.snapshot;
    const snapshot =
      fed.changed.blocks || previous === undefined ? snapshotOf(fed.chainId, this.#window, fed.nextBaseFeeWei, { recentTips: fed.recentTips }) : previous;
    const report: SeenReport = Object.freeze({ ...fed, snapshot });
    this.all.push(report);
    this.#arrivedAt.set(report, Date.now());
    if (this.#countRequests) this.#requestsAt.set(report, this.#countRequests());
    for (const waiter of this.#waiters) {
      if (!waiter.matches(report)) continue;
      this.#waiters.delete(waiter);
      waiter.resolve(report);
    }
  };

  get latest(): SeenReport | undefined {
    return this.all[this.all.length - 1];
  }

  /** Epoch ms at which the report reached the listener. */
  arrivedAt(report: SeenReport): number {
    const at = this.#arrivedAt.get(report);
    if (at === undefined) throw new Error("this report never reached this recorder");
    return at;
  }

  /** What `countRequests` said when the report reached the listener. */
  requestsAt(report: SeenReport): number {
    const count = this.#requestsAt.get(report);
    if (count === undefined) throw new Error("no request count for this report: give the recorder countRequests");
    return count;
  }

  /** The reports made after `earlier` up to and including `later`. */
  between(earlier: SeenReport, later: SeenReport): number {
    return this.all.indexOf(later) - this.all.indexOf(earlier);
  }

  /** The newest report if it matches, else the next one that does; fails naming `what` after `timeoutMs`. */
  until(matches: (report: SeenReport) => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<SeenReport> {
    const latest = this.latest;
    if (latest && matches(latest)) return Promise.resolve(latest);
    return new Promise((resolve, reject) => {
      const waiter = {
        matches,
        resolve: (report: SeenReport) => {
          clearTimeout(timer);
          resolve(report);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for a report with ${what} (newest: ${describeReport(this.latest)})`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}

function describeReport(report: SeenReport | undefined): string {
  if (!report) return "none";
  const endpoints = report.endpoints.map((endpoint) => `${endpoint.state}${endpoint.active ? "*" : ""}`).join(",");
  return `${report.phase}, block ${report.snapshot?.newestBlock ?? "none"}, endpoints ${endpoints}`;
}

/** How a scripted endpoint answers one JSON-RPC method: a result, or a JSON-RPC error. */
export type ScriptedAnswer = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } };

/** A real JSON-RPC server on 127.0.0.1 whose answers a test sets per method, recording when each call arrived. */
export interface ScriptedEndpoint {
  readonly url: string;
  /** Epoch ms at which each call of `method` arrived, oldest first. */
  arrivals(method: string): readonly number[];
  /** Answers `method` this way from now on (a method with no answer set gets "method not found"). */
  answer(method: string, answer: ScriptedAnswer): void;
  close(): Promise<void>;
}

export async function startScriptedEndpoint(answers: Record<string, ScriptedAnswer>): Promise<ScriptedEndpoint> {
  const script = new Map(Object.entries(answers));
  const arrivals = new Map<string, number[]>();
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const call = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id?: unknown; method?: string };
      const method = String(call.method);
      arrivals.set(method, [...(arrivals.get(method) ?? []), Date.now()]);
      const answer = script.get(method) ?? { error: { code: -32601, message: `the method ${method} does not exist` } };
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, ...answer }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals: (method) => arrivals.get(method) ?? [],
    answer: (method, answer) => void script.set(method, answer),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
