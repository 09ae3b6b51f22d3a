// A JSON-RPC endpoint on 127.0.0.1 serving a synthetic EIP-1559 chain of any length (millions of blocks cost nothing:
// each block's fee and timestamp are functions of its number; any path is served, so a URL can carry a fake API key), for the history's backfill tests and benchmark, where no
// Hardhat chain could mine that many. It answers eth_chainId, eth_blockNumber, eth_getBlockByNumber (number, timestamp,
// base fee) and eth_feeHistory (at most 1,024 blocks, as Hardhat and geth), single calls and batches; it records when
// each call arrived; and it can turn hostile in the ways a backfill must detect.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { BLOB_SCHEDULES, type BlobSchedule, blobBaseFeeOf as blobFeeAtExcess, GAS_PER_BLOB, nextExcessBlobGas } from "../../shared/core/fees/blobFeeRule.ts";

/**
 * How the endpoint misbehaves:
 * - none: honest;
 * - http429: every call gets HTTP 429 with `Retry-After` (seconds);
 * - http500: every call gets HTTP 500;
 * - hang: calls are never answered (until the server closes);
 * - wrong-chain: eth_chainId reports another chain;
 * - ends-elsewhere: eth_feeHistory's blocks end one block before the one asked;
 * - shrinking-pages: eth_feeHistory answers half the blocks of its previous answer (a cap that keeps moving);
 * - header-fee-mismatch: headers carry a base fee 1 wei off the fee history's;
 * - header-of-next-block: eth_getBlockByNumber(n) answers block n + 1;
 * - timestamps-backwards: headers' timestamps decrease as blocks increase;
 * - timestamps-late: headers' timestamps are a day later than the chain's (each page in order, yet later than the newest block);
 * - timestamps-future: headers' timestamps are a day ahead of the local clock;
 * - blob-fee-overflow: eth_feeHistory's newest blob base fee is 2^256 (more than any fee, or the store, can hold);
 * - blob-fee-short: baseFeePerBlobGas has one element fewer than the blocks;
 * - blob-fee-number: a blob base fee is a JSON number instead of a hex quantity;
 * - blob-ratio-above-one: a blob gas used ratio is 1.5 (a block cannot use more than its maximum);
 * - call-batches-500: a batch of eth_call (contract reads) gets HTTP 500; the chain's other requests are answered.
 */
export type SyntheticFault =
  | "none"
  | "http429"
  | "http500"
  | "hang"
  | "wrong-chain"
  | "ends-elsewhere"
  | "shrinking-pages"
  | "header-fee-mismatch"
  | "header-of-next-block"
  | "timestamps-backwards"
  | "timestamps-late"
  | "timestamps-future"
  | "blob-fee-overflow"
  | "blob-fee-short"
  | "blob-fee-number"
  | "blob-ratio-above-one"
  | "call-batches-500";

/**
 * Blob fees as a real chain makes them: each block's blob base fee follows EIP-4844's update rule (excess blob gas,
 * fake_exponential) with EIP-7918's reserve price, from the blob gas the server says each block used.
 */
export interface BlobFeeRule {
  /** Default Prague's (target 6, max 9 blobs). */
  readonly schedule?: BlobSchedule;
  /** Blob gas used by a block: a multiple of GAS_PER_BLOB up to the schedule's maximum. */
  readonly blobGasUsedOf: (block: bigint) => bigint;
}

export interface SyntheticChainOptions {
  readonly chainId?: number;
  /** The newest block (blocks 0..head exist). */
  readonly head: bigint;
  /**
   * A chain that makes its blocks on time: the newest block at a moment (epoch ms), asked as each request arrives, so
   * the head does not lag behind the clock when the event loop is busy (as a timer moving `head` would). Wins over `head`.
   */
  readonly headAt?: (nowMs: number) => bigint;
  /** Unix seconds of a block; default 1,700,000,000 + 12 s per block. */
  readonly timestampOf?: (block: bigint) => number;
  /** A block's base fee; default a pure function of its number that varies block to block. */
  readonly baseFeeOf?: (block: bigint) => bigint;
  /** Blob base fees in eth_feeHistory answers (baseFeePerBlobGas); default true. */
  readonly blobFees?: boolean;
  /** The blob base fees follow EIP-4844/7918 from this blob use; default a pure function of the block number. */
  readonly blobRule?: BlobFeeRule;
  /**
   * The blob fields as an OP-stack endpoint sends them (its headers' blob fields, no blob market): every blob base fee
   * 1 wei, and each block's blobGasUsedRatio 0 before Jovian ("ecotone"), or since Jovian ("jovian") its
   * data-availability footprint over the blob target: 1.7 in every fourth block, 0.3 in the others. Wins over blobRule.
   */
  readonly opStackBlobFields?: "ecotone" | "jovian";
  readonly fault?: SyntheticFault;
  readonly retryAfterSeconds?: number;
  /** eth_config's answer (EIP-7910), as given, hostile ones too; default: the method does not exist (as Hardhat). */
  readonly ethConfig?: unknown;
  /**
   * eth_call's answer to a call's data and target address (its result, or a JSON-RPC error), hostile ones too; default:
   * no contracts. test/support/contractStandIns.ts makes price feeds and an L1 fee oracle of it.
   */
  readonly ethCall?: (data: string, to: string) => { result: unknown } | { error: { code: number; message: string } };
  /**
   * Another branch of the chain (a fork, or a node that lies about it): blocks above `fromBlock` get hashes salted with
   * `salt` (their parent hashes follow); their fees are whatever `baseFeeOf` says. Default: one branch, hashes from the number.
   */
  readonly fork?: { readonly fromBlock: bigint; readonly salt: number };
}

export interface SyntheticChainServer {
  readonly url: string;
  readonly chainId: number;
  head: bigint;
  readonly timestampOf: (block: bigint) => number;
  readonly baseFeeOf: (block: bigint) => bigint;
  readonly blobBaseFeeOf: (block: bigint) => bigint;
  readonly gasUsedRatioOf: (block: bigint) => number;
  /** A block's blob gas used over its maximum (blobGasUsedRatio). */
  readonly blobGasUsedRatioOf: (block: bigint) => number;
  /** A block's hash on this server's branch. */
  readonly hashOf: (block: bigint) => string;
  /** JSON-RPC calls received (each call of a batch counted), of one method or all. */
  calls(method?: string): number;
  /** performance.now() at each call's arrival, oldest first. */
  readonly arrivalsMs: readonly number[];
  /** Connections closed by the client while a call of theirs was unanswered (hang). */
  readonly abandonedCalls: number;
  setFault(fault: SyntheticFault, options?: { retryAfterSeconds?: number }): void;
  close(): Promise<void>;
}

interface RpcCall {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

const hex = (value: bigint | number) => `0x${value.toString(16)}`;

function quantity(value: unknown, fallback: bigint): bigint {
  return typeof value === "string" && /^0x[0-9a-f]+$/i.test(value) ? BigInt(value) : fallback;
}

export async function startSyntheticChainServer(options: SyntheticChainOptions): Promise<SyntheticChainServer> {
  const chainId = options.chainId ?? 1;
  const timestampOf = options.timestampOf ?? ((block: bigint) => 1_700_000_000 + Number(block) * 12);
  const baseFeeOf = options.baseFeeOf ?? ((block: bigint) => 1_000_000_000n + ((block * 7_919n) % 50_000_000_000n));
  const gasUsedRatioOf = (block: bigint) => Number(block % 101n) / 100;
  const blobRule = options.blobRule;
  const ruled = blobRule === undefined ? undefined : ruledBlobFees(blobRule, baseFeeOf);
  const opStack = options.opStackBlobFields;
  const opStackRatioOf = (block: bigint) => (opStack === "jovian" ? (block % 4n === 0n ? 1.7 : 0.3) : 0);
  const blobBaseFeeOf = opStack !== undefined ? () => 1n : (ruled?.feeOf ?? ((block: bigint) => 1n + (block % 1_000n)));
  const blobGasUsedRatioOf = opStack !== undefined ? opStackRatioOf : (ruled?.ratioOf ?? gasUsedRatioOf);
  const blobFees = options.blobFees ?? true;
  let fault: SyntheticFault = options.fault ?? "none";
  let retryAfterSeconds = options.retryAfterSeconds ?? 1;
  let shrinkingTo = 1024;
  let abandonedCalls = 0;
  const counts = new Map<string, number>();
  const arrivalsMs: number[] = [];
  const sockets = new Set<Socket>();

  const chain = {
    head: options.headAt?.(Date.now()) ?? options.head,
  };

  const hashOf = (block: bigint) => {
    const salt = options.fork !== undefined && block > options.fork.fromBlock ? BigInt(options.fork.salt) << 200n : 0n;
    return `0x${(salt + block).toString(16).padStart(64, "0")}`;
  };
  const header = (block: bigint) => {
    let timestamp = timestampOf(block);
    if (fault === "timestamps-backwards") timestamp = 1_500_000_000 - Number(block);
    if (fault === "timestamps-late") timestamp += 86_400;
    if (fault === "timestamps-future") timestamp = Math.floor(Date.now() / 1000) + 86_400;
    return {
      number: hex(block),
      hash: hashOf(block),
      parentHash: block > 0n ? hashOf(block - 1n) : `0x${"0".repeat(64)}`,
      timestamp: hex(timestamp),
      gasLimit: hex(30_000_000n),
      baseFeePerGas: hex(baseFeeOf(block) + (fault === "header-fee-mismatch" ? 1n : 0n)),
      transactions: [],
    };
  };

  const answer = (call: RpcCall): { result: unknown } | { error: { code: number; message: string } } => {
    const params = Array.isArray(call.params) ? (call.params as unknown[]) : [];
    switch (call.method) {
      case "eth_chainId":
        return { result: hex(fault === "wrong-chain" ? chainId + 1 : chainId) };
      case "eth_blockNumber":
        return { result: hex(chain.head) };
      case "eth_getBlockByNumber": {
        let block = params[0] === "latest" ? chain.head : quantity(params[0], -1n);
        if (fault === "header-of-next-block" && block < chain.head) block++;
        return { result: block < 0n || block > chain.head ? null : header(block) };
      }
      case "eth_feeHistory": {
        let count = Number(quantity(params[0], 0n));
        const newest = params[1] === "latest" ? chain.head : quantity(params[1], -1n);
        if (count < 1 || newest < 0n || newest > chain.head) return { error: { code: -32602, message: "invalid block range" } };
        if (count > 1024) return { error: { code: -32000, message: "blockCount should be at most 1024" } };
        if (fault === "shrinking-pages") {
          count = Math.max(1, Math.min(count, shrinkingTo));
          shrinkingTo = Math.max(1, Math.floor(count / 2));
        }
        const end = fault === "ends-elsewhere" ? newest - 1n : newest;
        let oldest = end - BigInt(count) + 1n;
        if (oldest < 0n) oldest = 0n;
        const blocks = Number(end - oldest + 1n);
        const fees: string[] = new Array<string>(blocks + 1);
        const ratios: number[] = new Array<number>(blocks);
        const blobs: unknown[] = new Array<string>(blocks + 1);
        const blobRatios: number[] = new Array<number>(blocks);
        for (let i = 0; i <= blocks; i++) {
          const block = oldest + BigInt(i);
          fees[i] = hex(baseFeeOf(block));
          blobs[i] = hex(blobBaseFeeOf(block));
          if (i < blocks) ratios[i] = gasUsedRatioOf(block);
          if (i < blocks) blobRatios[i] = blobGasUsedRatioOf(block);
        }
        if (fault === "blob-fee-overflow") blobs[blocks - 1] = hex(2n ** 256n);
        if (fault === "blob-fee-short") blobs.splice(0, 2);
        if (fault === "blob-fee-number") blobs[blocks - 1] = Number(blobBaseFeeOf(end));
        if (fault === "blob-ratio-above-one") blobRatios[blocks - 1] = 1.5;
        return {
          result: {
            oldestBlock: hex(oldest),
            baseFeePerGas: fees,
            gasUsedRatio: ratios,
            ...(blobFees ? { baseFeePerBlobGas: blobs, blobGasUsedRatio: blobRatios } : {}),
          },
        };
      }
      case "eth_call": {
        const { data, to } = (params[0] ?? {}) as { data?: unknown; to?: unknown };
        if (options.ethCall === undefined || typeof data !== "string") return { result: "0x" };
        return options.ethCall(data, typeof to === "string" ? to : "");
      }
      case "eth_config":
        if (options.ethConfig !== undefined) return { result: options.ethConfig };
        return { error: { code: -32601, message: "the method eth_config does not exist" } };
      default:
        return { error: { code: -32601, message: `the method ${String(call.method)} does not exist` } };
    }
  };

  const count = (call: RpcCall) => {
    const method = typeof call?.method === "string" ? call.method : "<invalid>";
    counts.set(method, (counts.get(method) ?? 0) + 1);
    arrivalsMs.push(performance.now());
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let parsed: RpcCall | RpcCall[];
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcCall | RpcCall[];
      } catch {
        response.writeHead(400).end();
        return;
      }
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      calls.forEach(count);
      if (options.headAt !== undefined) chain.head = options.headAt(Date.now());
      if (fault === "call-batches-500" && Array.isArray(parsed) && calls.some((call) => call?.method === "eth_call")) {
        response.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
        return;
      }
      switch (fault) {
        case "http429":
          response.writeHead(429, { "content-type": "text/plain", "retry-after": String(retryAfterSeconds) }).end("Too Many Requests");
          return;
        case "http500":
          response.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
          return;
        case "hang":
          response.on("close", () => {
            if (!response.writableEnded) abandonedCalls += calls.length;
          });
          return;
        default:
          break;
      }
      const answers = calls.map((call) => ({ jsonrpc: "2.0", id: call.id ?? null, ...answer(call) }));
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    chainId,
    get head() {
      return options.headAt?.(Date.now()) ?? chain.head;
    },
    set head(block: bigint) {
      chain.head = block;
    },
    timestampOf,
    baseFeeOf,
    blobBaseFeeOf,
    gasUsedRatioOf,
    blobGasUsedRatioOf,
    hashOf,
    calls: (method) => (method === undefined ? arrivalsMs.length : (counts.get(method) ?? 0)),
    arrivalsMs,
    get abandonedCalls() {
      return abandonedCalls;
    },
    setFault(next, faultOptions = {}) {
      fault = next;
      shrinkingTo = 1024;
      retryAfterSeconds = faultOptions.retryAfterSeconds ?? retryAfterSeconds;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The blob base fees of a chain whose blocks use `rule.blobGasUsedOf` blob gas, from block 0 (no excess) on: each
 * block's excess blob gas from its parent's by EIP-7918's calc_excess_blob_gas, its fee by EIP-4844's fake_exponential.
 * Computed once per block, in order, and kept (a test chain has thousands of blocks, not millions).
 */
function ruledBlobFees(rule: BlobFeeRule, baseFeeOf: (block: bigint) => bigint): { feeOf: (block: bigint) => bigint; ratioOf: (block: bigint) => number } {
  const schedule = rule.schedule ?? BLOB_SCHEDULES.prague;
  const maxBlobGas = BigInt(schedule.max) * GAS_PER_BLOB;
  const excess: bigint[] = [0n];
  const excessAt = (block: bigint): bigint => {
    for (let b = excess.length; b <= Number(block); b++) {
      const parent = BigInt(b - 1);
      excess.push(nextExcessBlobGas({ excessBlobGas: excess[b - 1]!, blobGasUsed: rule.blobGasUsedOf(parent), baseFeeWei: baseFeeOf(parent) }, schedule));
    }
    return excess[Number(block)]!;
  };
  return {
    feeOf: (block) => blobFeeAtExcess(excessAt(block), schedule),
    ratioOf: (block) => Number(rule.blobGasUsedOf(block)) / Number(maxBlobGas),
  };
}
