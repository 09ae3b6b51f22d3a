import { fork, type ChildProcess } from "node:child_process";
import type { Agent } from "node:http";
import { fileURLToPath } from "node:url";
import { createKeepAliveAgent, postJson, postTarget, type PostTarget } from "../rpc/connection/postJson.ts";
import { EvmNodeRpcError, EvmNodeStartError, EvmNodeStoppedError } from "./errors.ts";
import {
  ENV_CHAIN_ID,
  ENV_GENESIS_BASE_FEE,
  ENV_GENESIS_TIMESTAMP,
  ENV_BLOB_FEES,
  ENV_HARDFORK,
  ENV_PORT,
  type ChildMessage,
  type MiningPath,
  type ParentMessage,
} from "./evmNodeProtocol.ts";

export interface EvmNodeOptions {
  /** Default 31337 (Hardhat's). */
  chainId?: number;
  /** A Hardhat hardfork name; "berlin" (or older) gives a chain without EIP-1559 base fee. Default: Hardhat's newest. */
  hardfork?: string;
  /** Listen port on 127.0.0.1; default 0 (any free port). A fixed port lets a test restart a node at the same URL. */
  port?: number;
  /** Default 30 s. */
  startTimeoutMs?: number;
  /**
   * The genesis block (block 0): its timestamp (unix seconds) and base fee. Default: the time of the start and 1 gwei.
   * A chain whose blocks are mined with past timestamps needs a genesis before them.
   */
  genesis?: { readonly timestamp: number; readonly baseFeeWei: bigint };
  /**
   * The demo's blob fees in the node's eth_feeHistory answers (demoBlobFees.ts: EDR gives none), computed by EIP-4844
   * and EIP-7918 from a pattern of blob use. Default false: the node answers as Hardhat does.
   */
  blobFees?: boolean;
}

/** Per JSON-RPC call over HTTP: the node answers in milliseconds; a minute means it is gone. */
const REQUEST_TIMEOUT_MS = 60_000;

/** A real local EVM node (Hardhat Network) in a child process, serving JSON-RPC over HTTP and WebSocket. */
export interface EvmNode {
  readonly url: string;
  readonly wsUrl: string;
  readonly port: number;
  readonly chainId: number;
  readonly pid: number;
  /** How the node mines runs of blocks (evmNodeProtocol.ts): "batched" unless a Hardhat release hid EDR's provider. */
  readonly miningPath: MiningPath;
  /** One plain JSON-RPC call over HTTP; throws EvmNodeRpcError on an error response. */
  request<T = unknown>(method: string, params?: readonly unknown[]): Promise<T>;
  /** Mines one block whose base fee is `baseFeeWei` (ignored on a chain without base fee); resolves with its number. */
  mineBlock(baseFeeWei: bigint): Promise<bigint>;
  /**
   * Mines one block per base fee, in order, in one IPC round trip; resolves with the newest block's number. With
   * `timestamps` (unix seconds, one per fee, each after the one before and after the newest block's), each block gets
   * its own; without, the node's clock times them (after a timed block, it runs on from that block's time). With
   * `transactions` (one list per fee, of eth_sendTransaction's parameter objects), each block holds its list: they are
   * sent just before it is mined, in the same round trip (automining must be off, and the block gas limit room for them).
   */
  mineBlocks(baseFeesWei: readonly bigint[], timestamps?: readonly number[], transactions?: readonly (readonly object[])[]): Promise<bigint>;
  /** Stops the node (graceful, then SIGKILL after a second). */
  stop(): Promise<void>;
  /** Kills the node at once (SIGKILL), as a crash would. */
  kill(): Promise<void>;
}

// Beside this module: the source under tsx, or its own bundle beside the service's (scripts/buildServe.mjs).
const CHILD_ENTRY = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./evmNodeProcess.ts" : "./evmNodeProcess.mjs", import.meta.url));

/** Node flags of this process that must not reach the child: the test runner's and the inspector's. */
function childExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i]!;
    if (arg.startsWith("--test") || arg.startsWith("--inspect") || arg === "--watch") {
      // `--test-reporter spec` style: the value is the next argument.
      const next = execArgv[i + 1];
      if (!arg.includes("=") && next !== undefined && !next.startsWith("-") && arg !== "--test" && arg !== "--watch") i++;
      continue;
    }
    kept.push(arg);
  }
  return kept;
}

/**
 * Starts a Hardhat node in a forked child process (run with this process's tsx loader), listening on 127.0.0.1.
 * The child exits when the parent goes away.
 */
export async function startEvmNode(options: EvmNodeOptions = {}): Promise<EvmNode> {
  const chainId = options.chainId ?? 31337;
  const env: NodeJS.ProcessEnv = { ...process.env, [ENV_CHAIN_ID]: String(chainId), [ENV_PORT]: String(options.port ?? 0) };
  delete env.NODE_TEST_CONTEXT;
  if (options.hardfork) env[ENV_HARDFORK] = options.hardfork;
  else delete env[ENV_HARDFORK];
  if (options.blobFees) env[ENV_BLOB_FEES] = "1";
  else delete env[ENV_BLOB_FEES];
  delete env[ENV_GENESIS_TIMESTAMP];
  delete env[ENV_GENESIS_BASE_FEE];
  if (options.genesis) {
    const { timestamp, baseFeeWei } = options.genesis;
    if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`the genesis timestamp is whole unix seconds (got ${timestamp})`);
    // Hardhat reads the genesis base fee as a JavaScript number: exact below 2^53 wei (9 million gwei).
    if (baseFeeWei < 0n || baseFeeWei > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`the genesis base fee is 0 to 2^53-1 wei (got ${baseFeeWei})`);
    env[ENV_GENESIS_TIMESTAMP] = String(timestamp);
    env[ENV_GENESIS_BASE_FEE] = baseFeeWei.toString();
  }

  const child = fork(CHILD_ENTRY, [], {
    execArgv: childExecArgv(process.execArgv),
    env,
    // The node's own output goes to stderr: stdout belongs to the service's listening line.
    stdio: ["ignore", 2, 2, "ipc"],
  });

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  const ready = await waitForReady(child, exited, options.startTimeoutMs ?? 30_000).catch(async (error: unknown) => {
    child.kill("SIGKILL");
    await exited;
    throw error;
  });
  return new ChildEvmNode(child, exited, ready.port, chainId, ready.miningPath);
}

function waitForReady(child: ChildProcess, exited: Promise<void>, timeoutMs: number): Promise<{ port: number; miningPath: MiningPath }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new EvmNodeStartError(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: ChildMessage) => {
      if (message.type === "ready") {
        clearTimeout(timer);
        child.off("message", onMessage);
        resolve({ port: message.port, miningPath: message.miningPath });
      } else if (message.type === "fatal") {
        clearTimeout(timer);
        reject(new EvmNodeStartError(message.message));
      }
    };
    child.on("message", onMessage);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new EvmNodeStartError(`the node process exited (code ${child.exitCode}, signal ${child.signalCode})`));
    });
  });
}

class ChildEvmNode implements EvmNode {
  readonly url: string;
  readonly wsUrl: string;
  readonly pid: number;
  readonly #child: ChildProcess;
  readonly #exited: Promise<void>;
  readonly #target: PostTarget;
  readonly #agent: Agent;
  #nextId = 1;
  #rpcId = 1;
  readonly #pending = new Map<number, { resolve: (block: bigint) => void; reject: (error: Error) => void }>();
  #gone = false;

  constructor(
    child: ChildProcess,
    exited: Promise<void>,
    readonly port: number,
    readonly chainId: number,
    readonly miningPath: MiningPath,
  ) {
    this.#child = child;
    this.#exited = exited;
    this.pid = child.pid!;
    this.url = `http://127.0.0.1:${port}`;
    this.wsUrl = `ws://127.0.0.1:${port}`;
    // node:http rather than fetch, whose first call loads undici: 40 to 150 ms of the demo's start.
    this.#target = postTarget(this.url);
    this.#agent = createKeepAliveAgent(this.#target);
    child.on("message", (message: ChildMessage) => {
      if (message.type !== "mined" && message.type !== "failed") return;
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (message.type === "mined") pending.resolve(BigInt(message.newestBlock));
      else pending.reject(new EvmNodeRpcError("evm_mine", message.message));
    });
    void exited.then(() => {
      this.#gone = true;
      this.#agent.destroy();
      for (const pending of this.#pending.values()) pending.reject(new EvmNodeStoppedError("mine blocks"));
      this.#pending.clear();
    });
  }

  async request<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
    if (this.#gone) throw new EvmNodeStoppedError(`call ${method}`);
    const answer = await postJson(this.#target, JSON.stringify({ jsonrpc: "2.0", id: this.#rpcId++, method, params }), {
      timeoutMs: REQUEST_TIMEOUT_MS,
      agent: this.#agent,
    }).catch((error: unknown) => {
      throw this.#gone ? new EvmNodeStoppedError(`call ${method}`) : error;
    });
    const body = JSON.parse(answer.body) as { result?: T; error?: { code?: number; message?: string } };
    if (body.error) throw new EvmNodeRpcError(method, body.error.message ?? "unknown error", body.error.code);
    return body.result as T;
  }

  mineBlock(baseFeeWei: bigint): Promise<bigint> {
    return this.mineBlocks([baseFeeWei]);
  }

  mineBlocks(baseFeesWei: readonly bigint[], timestamps?: readonly number[], transactions?: readonly (readonly object[])[]): Promise<bigint> {
    if (this.#gone) return Promise.reject(new EvmNodeStoppedError("mine blocks"));
    if (transactions !== undefined && transactions.length !== baseFeesWei.length) {
      return Promise.reject(new RangeError(`${transactions.length} lists of transactions for ${baseFeesWei.length} blocks: give one per block, or none`));
    }
    for (const fee of baseFeesWei) {
      if (fee < 0n) return Promise.reject(new RangeError(`a base fee cannot be negative (got ${fee} wei)`));
    }
    if (timestamps !== undefined) {
      if (timestamps.length !== baseFeesWei.length) {
        return Promise.reject(new RangeError(`${timestamps.length} timestamps for ${baseFeesWei.length} blocks: give one per block, or none`));
      }
      const wrong = timestamps.findIndex((timestamp, i) => !Number.isSafeInteger(timestamp) || timestamp < 0 || (i > 0 && timestamp <= timestamps[i - 1]!));
      if (wrong >= 0)
        return Promise.reject(new RangeError(`timestamps are whole unix seconds, each after the one before (not ${timestamps[wrong]} at ${wrong})`));
    }
    const id = this.#nextId++;
    return new Promise<bigint>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({
        type: "mine",
        id,
        baseFeesWei: baseFeesWei.map(String),
        ...(timestamps === undefined ? {} : { timestamps: [...timestamps] }),
        ...(transactions === undefined ? {} : { transactions: transactions.map((list) => [...list]) }),
      });
    });
  }

  async stop(): Promise<void> {
    if (!this.#gone) {
      this.#send({ type: "stop" });
      const timer = setTimeout(() => this.#child.kill("SIGKILL"), 1000);
      await this.#exited;
      clearTimeout(timer);
    }
  }

  async kill(): Promise<void> {
    if (!this.#gone) this.#child.kill("SIGKILL");
    await this.#exited;
  }

  #send(message: ParentMessage): void {
    try {
      this.#child.send(message);
    } catch {
      // The child is exiting; its exit rejects whatever is pending.
    }
  }
}
