import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";

/**
 * How the proxy misbehaves. pass: forwards faithfully; down: destroys every connection (as a dead host);
 * http500 / http429: answers that status; malformed: a 200 whose body is cut-off JSON; wrong-shape: valid JSON-RPC
 * whose result has the wrong shape; absurd-fees: forwards but replaces eth_feeHistory base fees with 2^160.
 */
export type FaultMode = "pass" | "down" | "http500" | "http429" | "malformed" | "wrong-shape" | "absurd-fees";

export interface Faults {
  mode: FaultMode;
  /** Answer eth_chainId with this chain id instead of the node's (http only). */
  chainId?: number;
  /** Refuse eth_feeHistory for more blocks than this, with a JSON-RPC error as providers do. */
  feeHistoryMaxBlocks?: number;
  /** Silently answer eth_feeHistory with at most this many blocks (as geth truncates). */
  feeHistoryTruncateTo?: number;
  /** Delay every answer by this much. */
  delayMs?: number;
}

export interface FaultProxy {
  readonly url: string;
  readonly wsUrl: string;
  /** JSON-RPC requests received (http and ws, batches counted per call), by method. */
  counts(): Record<string, number>;
  count(method: string): number;
  /** Sum over all methods. */
  total(): number;
  /** HTTP requests received (a JSON-RPC batch is one), since the last reset. */
  httpRequests(): number;
  /** The calls received since the last reset (method and params), oldest first; the newest 100,000 at most. */
  calls(): readonly { readonly method: string; readonly params: readonly unknown[] }[];
  resetCounts(): void;
  setFaults(faults: Partial<Faults>): void;
  /** Forwards to another node from now on (an endpoint that starts serving another chain, as a misrouted load balancer). */
  retarget(targetUrl: string): void;
  /** Back to a faithful proxy (counts are kept). */
  reset(): void;
  close(): Promise<void>;
}

interface RpcCall {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
  params?: unknown[];
}

/** A real HTTP (and WebSocket) proxy on 127.0.0.1 in front of a JSON-RPC node, counting and injecting faults. */
export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  let target = new URL(targetUrl);
  let faults: Faults = { mode: "pass" };
  let counts: Record<string, number> = {};
  const sockets = new Set<Socket>();
  const upgraded = new Set<Duplex>();
  const delayed = new Set<NodeJS.Timeout>();

  let calls: { method: string; params: readonly unknown[] }[] = [];
  let httpRequestCount = 0;
  const countCall = (call: RpcCall) => {
    const method = typeof call?.method === "string" ? call.method : "<invalid>";
    counts[method] = (counts[method] ?? 0) + 1;
    calls.push({ method, params: Array.isArray(call?.params) ? call.params : [] });
    if (calls.length > 100_000) calls = calls.slice(-100_000);
  };

  // Counted on arrival (before any delay), so a test sees a request that is still hanging.
  const countBody = (body: string) => {
    try {
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      (Array.isArray(parsed) ? parsed : [parsed]).forEach(countCall);
    } catch {
      counts["<invalid>"] = (counts["<invalid>"] ?? 0) + 1;
    }
  };

  const forward = (body: string, response: ServerResponse, rewrite?: (json: unknown) => unknown) => {
    const outgoing = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: "POST",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (upstream) => {
        const chunks: Buffer[] = [];
        upstream.on("data", (chunk: Buffer) => chunks.push(chunk));
        upstream.on("end", () => {
          let text = Buffer.concat(chunks).toString("utf8");
          if (rewrite) {
            try {
              text = JSON.stringify(rewrite(JSON.parse(text)));
            } catch {
              // Not JSON: pass it on as it is.
            }
          }
          response.writeHead(upstream.statusCode ?? 502, { "content-type": "application/json" }).end(text);
        });
      },
    );
    outgoing.on("error", () => response.destroy());
    outgoing.end(body);
  };

  const handle = (body: string, response: ServerResponse) => {
    let parsed: RpcCall | RpcCall[];
    try {
      parsed = JSON.parse(body) as RpcCall | RpcCall[];
    } catch {
      return forward(body, response);
    }
    const single = Array.isArray(parsed) ? undefined : parsed;
    const reply = (status: number, json: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));

    switch (faults.mode) {
      case "down":
        return response.socket?.destroy();
      case "http500":
        return response.writeHead(500, { "content-type": "text/plain" }).end("Internal Server Error");
      case "http429":
        return response.writeHead(429, { "content-type": "text/plain", "retry-after": "1" }).end("Too Many Requests");
      case "malformed":
        return response.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{"oldestBlock":"0x1",');
      case "wrong-shape":
        return reply(200, { jsonrpc: "2.0", id: single?.id ?? null, result: { oldestBlock: "0xzz", baseFeePerGas: "-1", gasUsedRatio: null } });
      default:
        break;
    }
    if (single?.method === "eth_chainId" && faults.chainId !== undefined) {
      return reply(200, { jsonrpc: "2.0", id: single.id, result: `0x${faults.chainId.toString(16)}` });
    }
    if (single?.method === "eth_feeHistory" && Array.isArray(single.params)) {
      const blocks = Number(BigInt(String(single.params[0])));
      if (faults.feeHistoryMaxBlocks !== undefined && blocks > faults.feeHistoryMaxBlocks) {
        return reply(200, {
          jsonrpc: "2.0",
          id: single.id,
          error: { code: -32602, message: `requested block count ${blocks} exceeds the maximum of ${faults.feeHistoryMaxBlocks} blocks` },
        });
      }
      if (faults.feeHistoryTruncateTo !== undefined && blocks > faults.feeHistoryTruncateTo) {
        single.params[0] = `0x${faults.feeHistoryTruncateTo.toString(16)}`;
        return forward(JSON.stringify(single), response);
      }
      if (faults.mode === "absurd-fees") {
        return forward(body, response, (json) => {
          const result = (json as { result?: { baseFeePerGas?: string[] } }).result;
          if (result?.baseFeePerGas) result.baseFeePerGas = result.baseFeePerGas.map(() => `0x1${"0".repeat(40)}`);
          return json;
        });
      }
    }
    forward(body, response);
  };

  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      httpRequestCount++;
      countBody(body);
      const delay = faults.delayMs ?? 0;
      if (delay > 0) {
        const timer = setTimeout(() => {
          delayed.delete(timer);
          handle(body, response);
        }, delay);
        delayed.add(timer);
      } else handle(body, response);
    });
  });
  server.on("connection", (socket: Socket) => {
    if (faults.mode === "down") {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // WebSocket: piped through unchanged; the client's frames are read on the way to count the JSON-RPC calls.
  server.on("upgrade", (incoming: IncomingMessage, client: Duplex, head: Buffer) => {
    if (faults.mode === "down") return client.destroy();
    const upstream = httpRequest({
      host: target.hostname,
      port: target.port,
      path: incoming.url,
      method: "GET",
      headers: { ...incoming.headers, host: target.host },
    });
    upstream.on("upgrade", (answer: IncomingMessage, server: Socket, upstreamHead: Buffer) => {
      const headerLines = Object.entries(answer.headers).flatMap(([name, value]) =>
        Array.isArray(value) ? value.map((v) => `${name}: ${v}`) : [`${name}: ${value}`],
      );
      client.write(`HTTP/1.1 101 Switching Protocols\r\n${headerLines.join("\r\n")}\r\n\r\n`);
      if (upstreamHead.length > 0) client.write(upstreamHead);
      if (head.length > 0) server.write(head);
      const frames = new ClientFrameReader(countBody);
      if (head.length > 0) frames.push(head);
      client.on("data", (chunk: Buffer) => frames.push(chunk));
      client.pipe(server);
      server.pipe(client);
      upgraded.add(client);
      upgraded.add(server);
      const end = () => {
        client.destroy();
        server.destroy();
        upgraded.delete(client);
        upgraded.delete(server);
      };
      client.on("close", end);
      server.on("close", end);
      client.on("error", end);
      server.on("error", end);
    });
    upstream.on("error", () => client.destroy());
    upstream.on("response", () => client.destroy());
    upstream.end();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    count: (method) => counts[method] ?? 0,
    total: () => Object.values(counts).reduce((sum, n) => sum + n, 0),
    calls: () => calls,
    httpRequests: () => httpRequestCount,
    resetCounts: () => {
      calls = [];
      httpRequestCount = 0;
      counts = {};
    },
    setFaults(next) {
      faults = { ...faults, ...next };
      if (faults.mode === "down") {
        for (const socket of sockets) socket.destroy();
        for (const stream of upgraded) stream.destroy();
      }
    },
    reset() {
      faults = { mode: "pass" };
    },
    retarget(next) {
      target = new URL(next);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of delayed) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        for (const stream of upgraded) stream.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Reads WebSocket frames a client sends (masked, RFC 6455) and reports each complete text message. */
class ClientFrameReader {
  #buffer = Buffer.alloc(0);
  #fragments: Buffer[] = [];
  constructor(private readonly onText: (text: string) => void) {}

  push(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const buffer = this.#buffer;
      if (buffer.length < 2) return;
      const fin = (buffer[0]! & 0x80) !== 0;
      const opcode = buffer[0]! & 0x0f;
      const masked = (buffer[1]! & 0x80) !== 0;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const maskOffset = offset;
      if (masked) offset += 4;
      if (buffer.length < offset + length) return;
      const payload = Buffer.from(buffer.subarray(offset, offset + length));
      if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= buffer[maskOffset + (i % 4)]!;
      this.#buffer = buffer.subarray(offset + length);
      if (opcode === 0x1 || opcode === 0x0) {
        this.#fragments.push(payload);
        if (fin) {
          this.onText(Buffer.concat(this.#fragments).toString("utf8"));
          this.#fragments = [];
        }
      }
    }
  }
}
