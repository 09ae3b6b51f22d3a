import { createRequire } from "node:module";
import { getSocketRpcClient, type GetSocketRpcClientParameters } from "viem/utils";

/** The few members of a WebSocket (the `ws` package's or a native one) used here. */
interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  ping?: () => void;
  addEventListener(type: "open" | "close" | "error" | "message", listener: (event: { data?: unknown }) => void): void;
}
type WebSocketConstructor = new (url: string) => WebSocketLike;

const OPEN = 1;
const CONNECTING = 0;

let constructor: WebSocketConstructor | undefined;

/**
 * The WebSocket class: the runtime's own (Node 22+, Electron) or the `ws` package's (Node 20), required directly
 * rather than through viem's isows import, which breaks whenever npm hoists hardhat's `ws` 7 instead of `ws` 8.
 */
function webSocketClass(): WebSocketConstructor {
  if (constructor) return constructor;
  const native = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (native) return (constructor = native);
  const require = createRequire(import.meta.url);
  return (constructor = require("ws") as WebSocketConstructor);
}

export type SocketClient = Awaited<ReturnType<typeof getSocketRpcClient<WebSocketLike>>>;

/**
 * viem's socket JSON-RPC client (request/response matching, subscriptions) over our WebSocket, without viem's
 * reconnection (the feed reconnects, with its backoff). Keep-alive uses WebSocket ping frames, not JSON-RPC
 * calls, so that it costs no request at the provider.
 */
export function openWebSocket(url: string, keepAliveMs = 15_000): Promise<SocketClient> {
  const getSocket: GetSocketRpcClientParameters<WebSocketLike>["getSocket"] = async ({ onClose, onError, onOpen, onResponse }) => {
    const WebSocket = webSocketClass();
    const socket = new WebSocket(url);
    let closed = false;
    const closeOnce = () => {
      if (closed) return;
      closed = true;
      onClose();
    };
    socket.addEventListener("close", closeOnce);
    socket.addEventListener("message", ({ data }) => {
      const text = typeof data === "string" ? data : Buffer.isBuffer(data) ? data.toString("utf8") : String(data);
      if (text.trim().length === 0) return;
      try {
        onResponse(JSON.parse(text));
      } catch (error) {
        onError(error as Error);
      }
    });
    if (socket.readyState === CONNECTING) {
      await new Promise<void>((resolve, reject) => {
        socket.addEventListener("open", () => resolve());
        socket.addEventListener("error", () => reject(new Error(`could not open a WebSocket to the endpoint`)));
        socket.addEventListener("close", () => reject(new Error(`the WebSocket closed while opening`)));
      });
    }
    socket.addEventListener("error", () => onError(new Error("WebSocket error")));
    onOpen();
    // The socket's own methods, taken before Object.assign replaces them with the ones viem calls: a replacement
    // that called socket.ping would call itself.
    const closeSocket = socket.close.bind(socket);
    const sendPing = socket.ping?.bind(socket);
    return Object.assign(socket, {
      close() {
        try {
          closeSocket();
        } finally {
          closeOnce();
        }
      },
      ping() {
        if (socket.readyState === OPEN) sendPing?.();
      },
      request({ body }: { body: unknown }) {
        if (socket.readyState !== OPEN) throw new Error("the WebSocket is closed");
        socket.send(JSON.stringify(body));
      },
    });
  };
  return getSocketRpcClient({ getSocket, key: "gasfees", keepAlive: { interval: keepAliveMs }, reconnect: false, url });
}
