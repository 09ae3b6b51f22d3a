import { randomUUID } from "node:crypto";
import { getSocketRpcClient } from "viem/utils";
import { WebSocket, type RawData } from "ws";
import { MAX_RPC_ANSWER_BYTES } from "./answerLimits.ts";

/** What viem's socket client drives: our socket, reduced to the calls it makes. */
interface RpcSocket {
  readonly readyState: number;
  close(): void;
  ping(): void;
  request(params: { body: unknown }): void;
}

export type SocketClient = Awaited<ReturnType<typeof getSocketRpcClient<RpcSocket>>>;

export interface WebSocketOptions {
  /** Between WebSocket ping frames. Default 15 s. */
  readonly keepAliveMs?: number;
  /** The largest message accepted; a larger one closes the socket (1009). Default: the HTTP answer cap. */
  readonly maxMessageBytes?: number;
  /** The opening handshake's bound; without one, `ws`'s own (none). */
  readonly openTimeoutMs?: number;
}

/**
 * viem's socket JSON-RPC client (request/response matching, subscriptions) over a `ws` WebSocket, without viem's
 * reconnection (the feed reconnects, with its backoff). Keep-alive uses WebSocket ping frames, not JSON-RPC calls, so
 * that it costs no request at the provider.
 *
 * Always the `ws` package, never a runtime's global WebSocket (Node 22+, Electron: undici's, which cannot bound a
 * message's size): messages are capped at the HTTP answer cap and per-message compression is not offered, so a
 * compressed frame (RSV1) is a protocol error rather than ~100 KB on the wire inflating to a 90 MB message.
 */
export function openWebSocket(url: string, options: WebSocketOptions = {}): Promise<SocketClient> {
  const maxMessageBytes = options.maxMessageBytes ?? MAX_RPC_ANSWER_BYTES;
  const getSocket = async ({ onClose, onError, onOpen, onResponse }: GetSocketCallbacks): Promise<RpcSocket> => {
    const socket = new WebSocket(url, {
      maxPayload: maxMessageBytes,
      perMessageDeflate: false,
      followRedirects: false,
      ...(options.openTimeoutMs === undefined ? {} : { handshakeTimeout: options.openTimeoutMs }),
    });
    let closed = false;
    const closeOnce = () => {
      if (closed) return;
      closed = true;
      onClose();
    };
    socket.on("close", closeOnce);
    socket.on("message", (data: RawData) => {
      if (closed) return;
      const text = textOf(data);
      if (text.trim().length === 0) return;
      try {
        onResponse(JSON.parse(text) as Parameters<GetSocketCallbacks["onResponse"]>[0]);
      } catch (error) {
        onError(error as Error);
      }
    });
    if (socket.readyState === WebSocket.CONNECTING) {
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", (error: Error) => reject(new Error(`could not open a WebSocket to the endpoint: ${error.message}`)));
        socket.once("close", () => reject(new Error(`the WebSocket closed while opening`)));
      });
    }
    // An endpoint that broke the protocol or the cap is not owed a close handshake: the socket is dropped at once, so
    // that nothing more it sends is read.
    socket.on("error", (error: Error & { code?: string }) => {
      socket.terminate();
      onError(socketError(error, maxMessageBytes));
    });
    onOpen();
    return {
      get readyState() {
        return socket.readyState;
      },
      close() {
        try {
          socket.close();
        } finally {
          closeOnce();
        }
      },
      ping() {
        if (socket.readyState === WebSocket.OPEN) socket.ping();
      },
      request({ body }) {
        if (socket.readyState !== WebSocket.OPEN) throw new Error("the WebSocket is closed");
        socket.send(JSON.stringify(body));
      },
    };
  };
  // A key of its own: viem caches clients by key and URL, and a connection that reopens must never be handed the socket
  // it is closing.
  return getSocketRpcClient({
    getSocket,
    key: `gasfees:${randomUUID()}`,
    keepAlive: { interval: options.keepAliveMs ?? 15_000 },
    reconnect: false,
    url,
  });
}

type GetSocketCallbacks = Parameters<Parameters<typeof getSocketRpcClient<RpcSocket>>[0]["getSocket"]>[0];

function textOf(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString("utf8");
  return Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data).toString("utf8");
}

/** `ws`'s error as the feed reports it; a message over the cap reads as a size refusal (as over HTTP). */
function socketError(error: Error & { code?: string }, maxMessageBytes: number): Error {
  if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
    return new Error(`a WebSocket message exceeded the size limit (at most ${maxMessageBytes} bytes); the socket was closed`);
  }
  return new Error(`WebSocket error: ${error.message}`);
}
