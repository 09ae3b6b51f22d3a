import type { ServerResponse } from "node:http";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import type { ChainEntry, FeeSource } from "../service/feeSource.ts";
import { ApiError } from "./apiErrors.ts";
import { NETWORK_EVENT_NAME, type BlockRun, type NetworkEvent } from "../wire/networkEvent.ts";

export interface EventStreamLimits {
  /** Streams open at once over all chains; one more is refused with 429 RATE_LIMITED. */
  readonly maxStreams: number;
  /** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
  readonly heartbeatMs: number;
  /** A client that lets this much pile up unread is cut off (it reconnects and gets the full state). */
  readonly maxBufferedBytes: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { maxStreams: 32, heartbeatMs: 15_000, maxBufferedBytes: 1 << 20 };

const RETRY_MS = 1000;

interface Stream {
  readonly chainId: number;
  readonly res: ServerResponse;
  /** The snapshot the client holds, as of the last event written to it. */
  held: FeeSnapshot | undefined;
}

/**
 * The open event streams of one fee source: subscribed to it while a stream is open, one event per change to each
 * stream of the changed chain. Closing a connection (the client leaving, or the server closing them all) removes
 * its stream; the last one gone unsubscribes and stops the heartbeat.
 */
export class EventStreams {
  readonly #source: FeeSource;
  readonly #limits: EventStreamLimits;
  readonly #streams = new Set<Stream>();
  #unsubscribe: (() => void) | undefined;
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(source: FeeSource, limits: EventStreamLimits) {
    this.#source = source;
    this.#limits = limits;
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Opens a stream on `res` for `entry`'s chain and writes the full state; throws RATE_LIMITED when full. */
  open(entry: ChainEntry, res: ServerResponse, head: boolean): void {
    if (this.#streams.size >= this.#limits.maxStreams) throw new ApiError("RATE_LIMITED", { retryAfterSeconds: 5 });
    res.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      // Tells a buffering reverse proxy (nginx) to pass events through at once.
      "X-Accel-Buffering": "no",
    });
    if (head) {
      res.end();
      return;
    }
    res.socket?.setNoDelay(true);
    const stream: Stream = { chainId: entry.chainId, res, held: undefined };
    this.#streams.add(stream);
    res.once("close", () => this.#remove(stream));
    res.write(`retry: ${RETRY_MS}\n\n`);
    this.#send(stream, entry);
    if (this.#unsubscribe === undefined) this.#unsubscribe = this.#source.subscribe((chainId) => this.#changed(chainId));
    if (this.#heartbeat === undefined) {
      this.#heartbeat = setInterval(() => this.#beat(), this.#limits.heartbeatMs);
      this.#heartbeat.unref();
    }
  }

  #changed(chainId: number): void {
    const entry = this.#source.chain(chainId);
    if (entry === undefined) return;
    for (const stream of this.#streams) if (stream.chainId === chainId) this.#send(stream, entry);
  }

  #send(stream: Stream, entry: ChainEntry): void {
    const snapshot = entry.snapshot;
    const event: NetworkEvent = { status: entry.status(), blocks: blocksChanged(stream.held, snapshot) };
    stream.held = snapshot;
    this.#write(stream, `event: ${NETWORK_EVENT_NAME}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  #beat(): void {
    for (const stream of this.#streams) this.#write(stream, ": heartbeat\n\n");
  }

  #write(stream: Stream, text: string): void {
    const { res } = stream;
    if (res.destroyed || res.writableEnded) return this.#remove(stream);
    if (res.writableLength > this.#limits.maxBufferedBytes) {
      res.destroy();
      return this.#remove(stream);
    }
    res.write(text);
  }

  #remove(stream: Stream): void {
    if (!this.#streams.delete(stream)) return;
    if (this.#streams.size > 0) return;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}

/**
 * What a client holding `held` must change to hold `next`: nothing (null), the blocks from the first one that is new
 * or differs (new blocks, or a reorganisation's re-mined ones), or everything when the two do not line up.
 */
export function blocksChanged(held: FeeSnapshot | undefined, next: FeeSnapshot | undefined): BlockRun | null {
  if (next === undefined) return null;
  const all = (): BlockRun => ({ kind: "all", firstBlock: firstBlockOf(next).toString(), baseFees: next.historyWei.map(toGweiString) });
  if (held === undefined) return all();
  const heldFirst = firstBlockOf(held);
  const nextFirst = firstBlockOf(next);
  // A window that moved back, or a chain that got shorter: the client cannot patch that, it starts over.
  if (nextFirst < heldFirst || next.newestBlock < held.newestBlock) return all();
  for (let index = 0; index < next.historyWei.length; index++) {
    const block = nextFirst + BigInt(index);
    const heldIndex = Number(block - heldFirst);
    if (heldIndex < held.historyWei.length && held.historyWei[heldIndex] === next.historyWei[index]) continue;
    if (index === 0) return all();
    return { kind: "from", firstBlock: block.toString(), baseFees: next.historyWei.slice(index).map(toGweiString) };
  }
  return null;
}

function firstBlockOf(snapshot: FeeSnapshot): bigint {
  return snapshot.newestBlock - BigInt(snapshot.historyWei.length) + 1n;
}

const registry = new WeakMap<FeeSource, EventStreams>();

/**
 * The event streams of `source`, made on first use. Tests may call it first with other limits (a short heartbeat,
 * fewer streams) for the source they serve.
 */
export function eventStreamsOf(source: FeeSource, limits: EventStreamLimits = DEFAULT_EVENT_STREAM_LIMITS): EventStreams {
  let streams = registry.get(source);
  if (streams === undefined) {
    streams = new EventStreams(source, limits);
    registry.set(source, streams);
  }
  return streams;
}
