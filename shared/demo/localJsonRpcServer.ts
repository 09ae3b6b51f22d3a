import { once } from "node:events";
import { createServer, type IncomingMessage, type OutgoingHttpHeader, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { whyRefused } from "./localCallerOnly.ts";

/** Hardhat's JSON-RPC handler (what its own `node` server serves, with CORS open to any page): the calls used here. */
export interface JsonRpcHandler {
  handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void>;
  handleWs(socket: WebSocket): Promise<void>;
}

/** The largest JSON-RPC message the node reads over WebSocket: its only caller sends short requests. */
const MAX_WS_MESSAGE_BYTES = 1024 * 1024;

/**
 * Serves `handler` over HTTP and WebSocket on 127.0.0.1:`port` (0: any free port) to the service only
 * (localCallerOnly.ts): another Host, or any Origin, gets a 403 without data, and no CORS header is ever sent.
 * Resolves with the port bound and the way to close it.
 */
export async function serveLocally(handler: JsonRpcHandler, port: number): Promise<{ port: number; close(): Promise<void> }> {
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
