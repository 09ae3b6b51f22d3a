/**
 * The child process of `startEvmNode`: Hardhat Network (in-process EDR) behind Hardhat's JSON-RPC handler, served
 * over HTTP and WebSocket on 127.0.0.1 by a server of ours that only the service may reach (localCallerOnly.ts): no
 * CORS header, any other Host or any Origin refused. Reports its port to the parent over IPC, mines blocks with given
 * base fees on request, and exits when told to or when the parent goes away.
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type OutgoingHttpHeader, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { WebSocketServer, type WebSocket } from "ws";
import { ENV_CHAIN_ID, ENV_HARDFORK, ENV_PORT, type ChildMessage, type ParentMessage } from "./evmNodeProtocol.ts";
import { whyRefused } from "./localCallerOnly.ts";

interface Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}
/** Hardhat's JSON-RPC handler (what its own `node` server runs), minus that server's CORS and open doors. */
interface JsonRpcHandler {
  handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void>;
  handleWs(socket: WebSocket): Promise<void>;
}

/** The largest JSON-RPC message the node reads over WebSocket: its only caller sends short requests. */
const MAX_WS_MESSAGE_BYTES = 1024 * 1024;

/**
 * Serves `handler` on 127.0.0.1:`port` (0: any free port) to local callers only; resolves with the port bound and the
 * way to close it.
 */
async function serveLocally(handler: JsonRpcHandler, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_WS_MESSAGE_BYTES });
  const boundPort = () => (server.address() as AddressInfo).port;
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const refusal = whyRefused(request.headers, boundPort());
    if (refusal !== undefined) {
      request.resume();
      response.writeHead(403, { "content-type": "text/plain", connection: "close" }).end(`Forbidden: ${refusal}.\n`);
      return;
    }
    withoutCorsHeaders(response);
    void handler.handleHttp(request, response);
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = whyRefused(request.headers, boundPort());
    if (refusal !== undefined) {
      socket.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nForbidden: ${refusal}.\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => void handler.handleWs(webSocket));
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  return {
    port: boundPort(),
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Drops the CORS headers Hardhat's handler sets on every answer: no web page may read this node. */
function withoutCorsHeaders(response: ServerResponse): void {
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name: string, value: number | string | readonly string[] | OutgoingHttpHeader) =>
    /^access-control-/i.test(name) ? response : setHeader(name, value);
}

const PRE_LONDON = new Set(["byzantium", "constantinople", "petersburg", "istanbul", "muirGlacier", "berlin"]);

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
  const hasBaseFee = !PRE_LONDON.has(process.env[ENV_HARDFORK] ?? "");
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
