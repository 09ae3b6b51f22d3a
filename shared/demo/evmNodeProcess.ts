/**
 * The child process of `startEvmNode`: Hardhat Network (in-process EDR) behind Hardhat's JSON-RPC handler, served
 * over HTTP and WebSocket on 127.0.0.1 by a server that only the service may reach (localJsonRpcServer.ts). Reports
 * its port to the parent over IPC, mines blocks with given base fees on request, and exits when told to or when the
 * parent goes away.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { ENV_CHAIN_ID, ENV_HARDFORK, ENV_PORT, type ChildMessage, type ParentMessage } from "./evmNodeProtocol.ts";
import { serveLocally, type JsonRpcHandler } from "./localJsonRpcServer.ts";

interface Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

const PRE_LONDON: readonly string[] = ["byzantium", "constantinople", "petersburg", "istanbul", "muirGlacier", "berlin"];

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error("evmNodeProcess.ts is started by startEvmNode() (with an IPC channel), not directly");
  process.env.HARDHAT_CONFIG ??= fileURLToPath(new URL("../../hardhat.config.cjs", import.meta.url));
  process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = "true";
  const require = createRequire(import.meta.url);
  const hre = require("hardhat") as { network: { provider: Provider; config: { chainId: number } } };
  const { JsonRpcHandler } = require("hardhat/internal/hardhat-network/jsonrpc/handler") as {
    JsonRpcHandler: new (provider: Provider) => JsonRpcHandler;
  };
  const provider = hre.network.provider;
  const hasBaseFee = !PRE_LONDON.includes(process.env[ENV_HARDFORK] ?? "");
  const server = await serveLocally(new JsonRpcHandler(provider), Number(process.env[ENV_PORT] ?? 0));
  const { port } = server;

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
          for (const fee of message.baseFeesWei) {
            if (hasBaseFee) {
              await provider.request({ method: "hardhat_setNextBlockBaseFeePerGas", params: [`0x${BigInt(fee).toString(16)}`] });
            }
            await provider.request({ method: "evm_mine", params: [] });
          }
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
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());

  send({ type: "ready", port, chainId: Number(process.env[ENV_CHAIN_ID] ?? hre.network.config.chainId) });
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  send({ type: "fatal", message });
  process.stderr.write(`evm node failed to start: ${message}\n`);
  process.exit(1);
});
