/**
 * The child process of `startEvmNode`: Hardhat Network (in-process EDR) behind Hardhat's JSON-RPC handler, served
 * over HTTP and WebSocket on 127.0.0.1 by a server that only the service may reach (localJsonRpcServer.ts). Reports
 * its port to the parent over IPC, mines blocks with given base fees (and timestamps) on request, and exits when told
 * to or when the parent goes away.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { edrBatchRunner, perCallRunner, type CallRunner, type RequestingProvider, type RpcCall } from "./edrCallRunner.ts";
import { withDemoBlobFees } from "./demoBlobFees.ts";
import { ENV_BLOB_FEES, ENV_CHAIN_ID, ENV_HARDFORK, ENV_PORT, type ChildMessage, type ParentMessage } from "./evmNodeProtocol.ts";
import { serveLocally, type JsonRpcHandler } from "./localJsonRpcServer.ts";

const PRE_LONDON: readonly string[] = ["byzantium", "constantinople", "petersburg", "istanbul", "muirGlacier", "berlin"];
/** Blocks per request to EDR: lists of about a hundred mined fastest here (10 to 13 µs a block; of 1,000, 12 to 17; of 5,000, 26). */
const BLOCKS_PER_BATCH = 128;

function send(message: ChildMessage): void {
  process.send?.(message);
}

/**
 * The calls that mine one block per fee, in order: its transactions sent (if given), its base fee set (where the
 * chain has one), then the block mined, at its timestamp if given.
 */
function miningCalls(
  baseFeesWei: readonly string[],
  timestamps: readonly number[] | undefined,
  transactions: readonly (readonly object[])[] | undefined,
  hasBaseFee: boolean,
): RpcCall[] {
  const calls: RpcCall[] = [];
  baseFeesWei.forEach((fee, i) => {
    for (const transaction of transactions?.[i] ?? []) calls.push({ method: "eth_sendTransaction", params: [transaction] });
    if (hasBaseFee) calls.push({ method: "hardhat_setNextBlockBaseFeePerGas", params: [`0x${BigInt(fee).toString(16)}`] });
    calls.push({ method: "evm_mine", params: timestamps === undefined ? [] : [timestamps[i]] });
  });
  return calls;
}

async function mine(runCalls: CallRunner, message: Extract<ParentMessage, { type: "mine" }>, hasBaseFee: boolean): Promise<void> {
  const { baseFeesWei, timestamps, transactions } = message;
  if (timestamps !== undefined && timestamps.length !== baseFeesWei.length) {
    throw new RangeError(`${timestamps.length} timestamps for ${baseFeesWei.length} blocks: give one per block, or none`);
  }
  if (transactions !== undefined && transactions.length !== baseFeesWei.length) {
    throw new RangeError(`${transactions.length} lists of transactions for ${baseFeesWei.length} blocks: give one per block, or none`);
  }
  for (let start = 0; start < baseFeesWei.length; start += BLOCKS_PER_BATCH) {
    const end = Math.min(baseFeesWei.length, start + BLOCKS_PER_BATCH);
    await runCalls(miningCalls(baseFeesWei.slice(start, end), timestamps?.slice(start, end), transactions?.slice(start, end), hasBaseFee));
  }
}

async function main(): Promise<void> {
  if (!process.send) throw new Error("evmNodeProcess.ts is started by startEvmNode() (with an IPC channel), not directly");
  process.env.HARDHAT_CONFIG ??= fileURLToPath(new URL("../../hardhat.config.cjs", import.meta.url));
  process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = "true";
  const require = createRequire(import.meta.url);
  const hre = require("hardhat") as { network: { provider: RequestingProvider; config: { chainId: number } } };
  const { JsonRpcHandler } = require("hardhat/internal/hardhat-network/jsonrpc/handler") as {
    JsonRpcHandler: new (provider: RequestingProvider) => JsonRpcHandler;
  };
  const provider = hre.network.provider;
  const hasBaseFee = !PRE_LONDON.includes(process.env[ENV_HARDFORK] ?? "");
  // Hardhat makes its EDR provider at the first call: asked for beside the server's start, so that both proceed together.
  const [server] = await Promise.all([
    serveLocally(new JsonRpcHandler(process.env[ENV_BLOB_FEES] === "1" ? withDemoBlobFees(provider) : provider), Number(process.env[ENV_PORT] ?? 0)),
    provider.request({ method: "eth_chainId", params: [] }),
  ]);
  const { port } = server;
  const batched = await edrBatchRunner(provider);
  const runCalls = batched ?? perCallRunner(provider);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await Promise.race([server.close().catch(() => {}), new Promise((resolve) => setTimeout(resolve, 1000))]);
    process.exit(0);
  };

  // Mining requests are handled one at a time, in order, so that the base fees land on consecutive blocks.
  let queue: Promise<void> = Promise.resolve();
  process.on("message", (message: ParentMessage) => {
    if (message.type === "stop") {
      void stop();
      return;
    }
    if (message.type === "mine") {
      queue = queue.then(async () => {
        try {
          await mine(runCalls, message, hasBaseFee);
          const newest = (await provider.request({ method: "eth_blockNumber", params: [] })) as string;
          send({ type: "mined", id: message.id, newestBlock: BigInt(newest).toString() });
        } catch (error) {
          send({ type: "failed", id: message.id, message: error instanceof Error ? error.message : String(error) });
        }
      });
    }
  });
  // The parent died or closed the channel: a node nobody controls must not linger.
  process.on("disconnect", () => void stop());
  // A signal to the whole process group (Ctrl-C in a terminal, a supervisor's stop) reaches this node as it reaches the
  // service: the service stops its feeds first and then this node ("stop" above), so that no feed sees its chain go
  // and warns of it. Without a parent to say so, a signal stops it at once.
  const onSignal = () => {
    if (!process.connected) void stop();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);

  send({ type: "ready", port, chainId: Number(process.env[ENV_CHAIN_ID] ?? hre.network.config.chainId), miningPath: batched ? "batched" : "per call" });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  send({ type: "fatal", message });
  process.stderr.write(`evm node failed to start: ${message}\n`);
  process.exit(1);
});
