// A JSON-RPC endpoint that turns hostile on request: a real node:http server with a `ws` WebSocket server on the same
// ephemeral port of 127.0.0.1. Honest, it serves a synthetic EIP-1559 chain (eth_chainId, eth_blockNumber,
// eth_getBlockByNumber, eth_feeHistory with tips, eth_subscribe newHeads) well enough for the real service to follow
// it. Turned hostile, it answers every request with the chosen attack, until turned honest again. It is the stand-in
// for a public endpoint that misbehaves on purpose: no real node can be made to lie like this.
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { constants as zlibConstants, createBrotliCompress, createGzip, deflateRawSync, type BrotliCompress, type Gzip } from "node:zlib";
import { WebSocketServer, type WebSocket } from "ws";
import { MAX_RPC_ANSWER_BYTES } from "../../shared/rpc/connection/answerLimits.ts";

/**
 * What the endpoint does to every request:
 * - honest: answers correctly;
 * - http-brotli-bomb / http-gzip-bomb: a 200 whose body, compressed although nobody asked, decodes to `bombBytes`;
 * - http-oversized: a plain 200 whose body runs `oversizeBytes` past the answer cap, chunked (no length announced);
 * - http-slow-drip: a 200 whose body comes one byte every `dripEveryMs`, never ending;
 * - rpc-error: a JSON-RPC error whose message is `errorMessage` (HTTP 200, and over ws);
 * - ws-oversized-frame: one plain text frame `oversizeBytes` past the answer cap;
 * - ws-deflate-bomb: one compressed (RSV1) text frame of ~100 KB that inflates to `wsBombBytes`, sent whether the
 *   client negotiated compression or not.
 * HTTP modes answer ws requests honestly and ws modes answer HTTP requests honestly, except rpc-error (both).
 * Lies, well-formed answers about a chain that is not the one it has shown (both transports):
 * - head-ahead: its head is `lieBlocks` blocks further (default a million), with blocks made up up to it;
 * - head-behind: its head is `lieBlocks` blocks back (default 10,000), as a backend that lost its sync;
 * - rewound: the same head, every block with another base fee (a resync onto another branch);
 * - other-chain: another chain's id (chainId + 1) and its blocks' fees (another base fee each);
 * - other-chain-id: another chain's id (chainId + 1), the blocks unchanged (a node whose blocks alone say nothing).
 */
export type HostileMode =
  | "honest"
  | "http-brotli-bomb"
  | "http-gzip-bomb"
  | "http-oversized"
  | "http-slow-drip"
  | "rpc-error"
  | "ws-oversized-frame"
  | "ws-deflate-bomb"
  | "head-ahead"
  | "head-behind"
  | "rewound"
  | "other-chain"
  | "other-chain-id";

const LIES: ReadonlySet<HostileMode> = new Set(["head-ahead", "head-behind", "rewound", "other-chain", "other-chain-id"]);

export interface HostileRpcServerOptions {
  readonly chainId?: number;
  /** The newest block at start (blocks 0..head exist). Default 600. */
  readonly head?: bigint;
  /** What the bombs decode to. Default 1 GiB (more than a string can hold). */
  readonly bombBytes?: number;
  /** What the ws bomb inflates to. Default 90 MB. */
  readonly wsBombBytes?: number;
  /** How far past the cap the oversized answers run. Default 1 MiB. */
  readonly oversizeBytes?: number;
  /** The answer cap the oversized answers exceed. Default: the service's (MAX_RPC_ANSWER_BYTES). */
  readonly capBytes?: number;
  readonly dripEveryMs?: number;
  /**
   * Block timestamps: "synthetic" (default) 1,700,000,000 + 12 s per block; "clock": the blocks held at start one a
   * second up to the start, each mined block at the local clock then (at least a second after its parent).
   */
  readonly timestamps?: "synthetic" | "clock";
  /** Headers' timestamps (eth_getBlockByNumber, newHeads) run this far ahead of the block's own. Default 0. */
  readonly headerAheadSeconds?: number;
}

export interface HostileRpcServer {
  readonly httpUrl: string;
  readonly wsUrl: string;
  readonly chainId: number;
  readonly head: bigint;
  /** The base fee of a block of this chain (a pure function of its number). */
  baseFeeWei(block: bigint): bigint;
  /** Mines `count` blocks and notifies the newHeads subscribers. */
  mine(count?: number): void;
  /** The timestamp of a block of the chain (unix seconds), as the honest chain has it. */
  timestampOf(block: bigint): number;
  /** Resolves once the attack is ready (a bomb made) and every request from then on gets it. */
  turn(mode: HostileMode, options?: { errorMessage?: string; lieBlocks?: bigint }): Promise<void>;
  readonly mode: HostileMode;
  /** Hostile answers sent since the last turn(). */
  readonly hostileAnswers: number;
  /** The headers of every WebSocket upgrade request received. */
  readonly upgradeHeaders: readonly IncomingHttpHeaders[];
  close(): Promise<void>;
}

interface RpcCall {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

const GWEI = 1_000_000_000n;
const MiB = 1024 * 1024;

/** Starts the server; it is honest until turned. */
export async function startHostileRpcServer(options: HostileRpcServerOptions = {}): Promise<HostileRpcServer> {
  const chainId = options.chainId ?? 31_337;
  const capBytes = options.capBytes ?? MAX_RPC_ANSWER_BYTES;
  const oversizeBytes = options.oversizeBytes ?? MiB;
  const bombBytes = options.bombBytes ?? 1024 * MiB;
  const wsBombBytes = options.wsBombBytes ?? 90_000_000;
  const dripEveryMs = options.dripEveryMs ?? 100;
  let head = options.head ?? 600n;
  let mode: HostileMode = "honest";
  let errorMessage = "";
  let lieBlocks = 0n;
  const startHead = options.head ?? 600n;
  const startSeconds = Math.floor(Date.now() / 1000);
  const minedAt = new Map<bigint, number>();
  const headerAheadSeconds = options.headerAheadSeconds ?? 0;
  let hostileAnswers = 0;
  const upgradeHeaders: IncomingHttpHeaders[] = [];
  const subscribers = new Map<WebSocket, string>();
  const rawSockets = new Map<WebSocket, Duplex>();
  const openSockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const bombs = new Map<string, Promise<Buffer>>();

  const baseFeeWei = (block: bigint) => GWEI + (block % 1000n) * 1_000_003n;
  const timestampOf = (block: bigint): number => {
    if (options.timestamps !== "clock") return 1_700_000_000 + Number(block) * 12;
    // A block made up beyond the real head (head-ahead) is dated now, as a convincing liar would.
    if (block > head) return Math.floor(Date.now() / 1000);
    return minedAt.get(block) ?? startSeconds - Number(startHead - block);
  };
  // What the endpoint claims, lying or not: its chain id, its head, and the base fee of each block.
  const shownChainId = () => (mode === "other-chain" || mode === "other-chain-id" ? chainId + 1 : chainId);
  const shownHead = () => (mode === "head-ahead" ? head + lieBlocks : mode === "head-behind" ? (head > lieBlocks ? head - lieBlocks : 0n) : head);
  const shownFeeWei = (block: bigint) => baseFeeWei(block) + (mode === "rewound" || mode === "other-chain" ? 7n * GWEI : 0n);
  const countLie = () => {
    if (LIES.has(mode)) hostileAnswers++;
  };
  const blockOf = (number: bigint) => ({
    number: hex(number),
    hash: `0x${number.toString(16).padStart(64, "0")}`,
    parentHash: `0x${(number > 0n ? number - 1n : 0n).toString(16).padStart(64, "0")}`,
    timestamp: hex(BigInt(timestampOf(number) + headerAheadSeconds)),
    gasLimit: hex(30_000_000n),
    gasUsed: hex(15_000_000n),
    baseFeePerGas: hex(shownFeeWei(number)),
    transactions: [],
  });

  const answer = (call: RpcCall): { result: unknown } | { error: { code: number; message: string } } => {
    const params = Array.isArray(call.params) ? (call.params as unknown[]) : [];
    const head = shownHead();
    countLie();
    switch (call.method) {
      case "eth_chainId":
        return { result: hex(BigInt(shownChainId())) };
      case "eth_blockNumber":
        return { result: hex(head) };
      case "eth_getBlockByNumber": {
        const asked = quantityOr(params[0], head);
        return { result: asked > head ? null : blockOf(asked) };
      }
      case "eth_feeHistory": {
        const count = Number(quantityOr(params[0], 1n));
        const newest = quantityOr(params[1], head);
        if (newest > head) return { error: { code: -32602, message: "block not found" } };
        const blocks = BigInt(Math.max(1, Math.min(count, 1024)));
        const oldest = newest - blocks + 1n < 0n ? 0n : newest - blocks + 1n;
        const numbers: bigint[] = [];
        for (let block = oldest; block <= newest; block++) numbers.push(block);
        const percentiles = Array.isArray(params[2]) ? params[2] : [];
        return {
          result: {
            oldestBlock: hex(oldest),
            baseFeePerGas: [...numbers, newest + 1n].map((block) => hex(shownFeeWei(block))),
            gasUsedRatio: numbers.map(() => 0.5),
            ...(percentiles.length > 0 ? { reward: numbers.map(() => percentiles.map(() => hex(GWEI))) } : {}),
          },
        };
      }
      default:
        return { error: { code: -32601, message: `the method ${String(call.method)} does not exist` } };
    }
  };

  const bomb = (encoding: "br" | "gzip"): Promise<Buffer> => {
    let made = bombs.get(encoding);
    if (made === undefined) bombs.set(encoding, (made = compressZeros(encoding, bombBytes)));
    return made;
  };

  const answerHttp = async (call: RpcCall, response: ServerResponse): Promise<void> => {
    const json = { "content-type": "application/json" };
    switch (mode) {
      case "http-brotli-bomb":
      case "http-gzip-bomb": {
        const encoding = mode === "http-brotli-bomb" ? "br" : "gzip";
        const body = await bomb(encoding);
        hostileAnswers++;
        response.writeHead(200, { ...json, "content-encoding": encoding, "content-length": body.length }).end(body);
        return;
      }
      case "http-oversized": {
        hostileAnswers++;
        response.writeHead(200, json);
        await writeOversized(response, `{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"result":"0x`, capBytes + oversizeBytes);
        return;
      }
      case "http-slow-drip": {
        hostileAnswers++;
        response.writeHead(200, json);
        const drip = setInterval(() => {
          if (response.destroyed) {
            clearInterval(drip);
            timers.delete(drip);
          } else response.write(" ");
        }, dripEveryMs);
        timers.add(drip);
        return;
      }
      case "rpc-error":
        hostileAnswers++;
        response.writeHead(200, json).end(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, error: { code: -32000, message: errorMessage } }));
        return;
      default:
        response.writeHead(200, json).end(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, ...answer(call) }));
    }
  };

  const answerWs = (socket: WebSocket, call: RpcCall): void => {
    switch (mode) {
      case "ws-oversized-frame":
        hostileAnswers++;
        socket.send(`{"jsonrpc":"2.0","id":${JSON.stringify(call.id ?? null)},"result":"0x${"0".repeat(capBytes + oversizeBytes)}"}`);
        return;
      case "ws-deflate-bomb": {
        hostileAnswers++;
        const raw = rawSockets.get(socket);
        if (raw && !raw.destroyed) raw.write(textFrame(deflateBomb(wsBombBytes, call.id), true));
        return;
      }
      case "rpc-error":
        hostileAnswers++;
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, error: { code: -32000, message: errorMessage } }));
        return;
      default:
        break;
    }
    if (call.method === "eth_subscribe") {
      const id = `0x${(subscribers.size + 1).toString(16).padStart(32, "0")}`;
      subscribers.set(socket, id);
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, result: id }));
      return;
    }
    if (call.method === "eth_unsubscribe") {
      subscribers.delete(socket);
      socket.send(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, result: true }));
      return;
    }
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: call.id ?? null, ...answer(call) }));
  };

  let deflatedZeros: Buffer | undefined;
  /** The bomb as one permessage-deflate payload, for the request `id`: only its short ends are compressed per request. */
  const deflateBomb = (bytes: number, id: unknown): Buffer => {
    const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id ?? null)},"result":"0x`;
    deflatedZeros ??= deflateSegment(Buffer.alloc(Math.max(0, bytes - prefix.length - 2), "0"));
    const payload = Buffer.concat([deflateSegment(Buffer.from(prefix)), deflatedZeros, deflateSegment(Buffer.from('"}'))]);
    // As permessage-deflate sends a message: without the last empty block's 4 bytes (the receiver adds them back).
    return payload.subarray(0, payload.length - 4);
  };

  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MiB) chunks.push(chunk);
    });
    request.on("end", () => {
      let call: RpcCall = {};
      try {
        call = JSON.parse(Buffer.concat(chunks).toString("utf8")) as RpcCall;
      } catch {
        // Answered as an unknown method.
      }
      answerHttp(call, response).catch(() => response.destroy());
    });
  });
  http.keepAliveTimeout = 5000;
  http.on("connection", (socket: Socket) => {
    openSockets.add(socket);
    socket.once("close", () => openSockets.delete(socket));
  });
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: true, maxPayload: MiB });
  http.on("upgrade", (request: IncomingMessage, socket: Duplex, headBytes: Buffer) => {
    upgradeHeaders.push(request.headers);
    wss.handleUpgrade(request, socket, headBytes, (ws) => {
      rawSockets.set(ws, socket);
      ws.on("message", (data: Buffer) => {
        let call: RpcCall = {};
        try {
          call = JSON.parse(data.toString("utf8")) as RpcCall;
        } catch {
          // Answered as an unknown method.
        }
        answerWs(ws, call);
      });
      ws.on("error", () => ws.terminate());
      ws.on("close", () => {
        subscribers.delete(ws);
        rawSockets.delete(ws);
      });
    });
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const port = (http.address() as AddressInfo).port;

  return {
    httpUrl: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    chainId,
    get head() {
      return head;
    },
    baseFeeWei,
    timestampOf,
    mine(count = 1) {
      for (let i = 0; i < count; i++) {
        head += 1n;
        minedAt.set(head, Math.max(timestampOf(head - 1n) + 1, Math.floor(Date.now() / 1000)));
      }
      const shown = shownHead();
      countLie();
      for (const [socket, subscription] of subscribers) {
        socket.send(JSON.stringify({ jsonrpc: "2.0", method: "eth_subscription", params: { subscription, result: blockOf(shown) } }));
      }
    },
    async turn(next, turnOptions = {}) {
      if (next === "http-brotli-bomb") await bomb("br");
      if (next === "http-gzip-bomb") await bomb("gzip");
      if (next === "ws-deflate-bomb") deflateBomb(wsBombBytes, null);
      mode = next;
      errorMessage = turnOptions.errorMessage ?? "";
      lieBlocks = turnOptions.lieBlocks ?? (next === "head-behind" ? 10_000n : 1_000_000n);
      hostileAnswers = 0;
    },
    get mode() {
      return mode;
    },
    get hostileAnswers() {
      return hostileAnswers;
    },
    upgradeHeaders,
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of wss.clients) socket.terminate();
      for (const socket of openSockets) socket.destroy();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A hex quantity parameter, or `otherwise` for "latest", a missing one or anything else. */
function quantityOr(param: unknown, otherwise: bigint): bigint {
  return typeof param === "string" && /^0x[0-9a-f]+$/i.test(param) ? BigInt(param) : otherwise;
}

function hex(value: bigint): string {
  return `0x${value.toString(16)}`;
}

/**
 * A raw deflate segment that ends on a sync flush and refers to nothing before it: segments made so can be joined
 * into one stream (each decodes alone whatever came before it).
 */
function deflateSegment(data: Buffer): Buffer {
  return deflateRawSync(data, { finishFlush: zlibConstants.Z_SYNC_FLUSH, level: 9 });
}

/** `bytes` of '0' compressed, streamed through the compressor 1 MiB at a time (never held decompressed). */
async function compressZeros(encoding: "br" | "gzip", bytes: number): Promise<Buffer> {
  const compressor: Gzip | BrotliCompress =
    encoding === "br" ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }) : createGzip({ level: 9 });
  const out: Buffer[] = [];
  compressor.on("data", (chunk: Buffer) => out.push(chunk));
  const ended = once(compressor, "end");
  const chunk = Buffer.alloc(MiB, "0");
  for (let written = 0; written < bytes; written += chunk.length) {
    const part = bytes - written >= chunk.length ? chunk : chunk.subarray(0, bytes - written);
    if (!compressor.write(part)) await once(compressor, "drain");
  }
  compressor.end();
  await ended;
  return Buffer.concat(out);
}

/** Writes `prefix`, then '0' until `bytes` were written, respecting back-pressure, stopping if the client goes. */
async function writeOversized(response: ServerResponse, prefix: string, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(64 * 1024, "0");
  response.write(prefix);
  for (let written = prefix.length; written < bytes && !response.destroyed; written += chunk.length) {
    if (!response.write(chunk)) await drainedOrClosed(response);
  }
  if (!response.destroyed) response.end('"}');
}

/** Resolves once the response can take more, or is closed; leaves no listener behind. */
function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off("drain", done);
      response.off("close", done);
      resolve();
    };
    response.on("drain", done);
    response.on("close", done);
  });
}

/** An unmasked server-to-client text frame; `compressed` sets RSV1 (permessage-deflate). */
export function textFrame(payload: Buffer, compressed: boolean): Buffer {
  const first = 0x80 | (compressed ? 0x40 : 0) | 0x1;
  let header: Buffer;
  if (payload.length < 126) header = Buffer.from([first, payload.length]);
  else if (payload.length < 65_536) {
    header = Buffer.alloc(4);
    header[0] = first;
    header[1] = 126;
    header.writeUInt16BE(payload.length, 2);
  } else {
    header = Buffer.alloc(10);
    header[0] = first;
    header[1] = 127;
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  return Buffer.concat([header, payload]);
}
