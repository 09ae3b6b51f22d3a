import type { ServerResponse } from "node:http";
import type { FeeSnapshot } from "../core/fees/feeSnapshot.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import { type ChainPublication, networkStatusAt } from "../service/chainPublication.ts";
import type { FeeSource } from "../service/feeSource.ts";
import { type AlertSource, NO_ALERTS } from "../alerts/alertSource.ts";
import { ALERT_EVENT_NAME, type AlertEvent } from "../wire/alerts.ts";
import { NETWORK_EVENT_NAME } from "../wire/eventNames.ts";
import type { BlockRun, NetworkEvent } from "../wire/networkEvent.ts";
import { ApiError } from "./apiErrors.ts";

export interface EventStreamLimits {
  /** Streams open at once over all keys and chains; one more is refused with 429 RATE_LIMITED. */
  readonly maxStreams: number;
  /** Streams one key may hold open at once, so that one client cannot take every stream from the others. */
  readonly maxStreamsPerKey: number;
  /** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
  readonly heartbeatMs: number;
  /** A client that lets this much pile up unread is cut off (it reconnects and gets the full state). */
  readonly maxBufferedBytes: number;
}

export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { maxStreams: 32, maxStreamsPerKey: 8, heartbeatMs: 15_000, maxBufferedBytes: 1 << 20 };

const RETRY_MS = 1000;
const RETRY_AFTER_SECONDS = 5;

/** What one stream follows: one chain (`/networks/{chainId}/events`) or every chain (`/events`). */
export type StreamScope = { readonly chainId: number } | "all";

interface Stream {
  readonly scope: StreamScope;
  readonly keyId: string;
  readonly res: ServerResponse;
  /** Per chain, the snapshot the client holds as of the last event written to it. */
  readonly held: Map<number, FeeSnapshot | undefined>;
}

export interface OpenStream {
  readonly scope: StreamScope;
  /** The key that opened it: its streams are counted against its limit and closed when it is revoked. */
  readonly keyId: string;
  /** Headers every answer of the server carries (CORS for the request's origin, nosniff). */
  readonly headers: Readonly<Record<string, string>>;
  readonly head: boolean;
}

/**
 * The open Server-Sent Event streams of one server. Each new publication of a chain is one event to each stream that
 * follows it: the chain's status and the blocks that changed since that stream's previous event (a publication that only
 * brings no new block sends nothing). Each alert that fires is an `event: alert` to each stream that follows its chain.
 * Subscribed to the sources only while a stream is open.
 */
export class EventStreams {
  readonly #source: FeeSource;
  readonly #alerts: AlertSource;
  readonly #limits: EventStreamLimits;
  readonly #now: () => number;
  readonly #streams = new Set<Stream>();
  #unsubscribe: (() => void) | undefined;
  #unsubscribeAlerts: (() => void) | undefined;
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(source: FeeSource, limits: EventStreamLimits, now: () => number, alerts: AlertSource = NO_ALERTS) {
    this.#source = source;
    this.#alerts = alerts;
    this.#limits = limits;
    this.#now = now;
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Opens a stream on `res` and writes the full state of its chains; throws RATE_LIMITED, naming the limit, when full. */
  open(res: ServerResponse, request: OpenStream): void {
    if (this.#streams.size >= this.#limits.maxStreams) {
      throw new ApiError("RATE_LIMITED", {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
        limit: { what: "event streams open on this service", max: this.#limits.maxStreams },
      });
    }
    let ofKey = 0;
    for (const stream of this.#streams) if (stream.keyId === request.keyId) ofKey++;
    if (ofKey >= this.#limits.maxStreamsPerKey) {
      throw new ApiError("RATE_LIMITED", {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
        limit: { what: "event streams open with this API key", max: this.#limits.maxStreamsPerKey },
      });
    }
    res.writeHead(200, {
      ...request.headers,
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      // Tells a buffering reverse proxy (nginx) to pass events through at once.
      "X-Accel-Buffering": "no",
    });
    if (request.head) {
      res.end();
      return;
    }
    res.socket?.setNoDelay(true);
    const stream: Stream = { scope: request.scope, keyId: request.keyId, res, held: new Map() };
    this.#streams.add(stream);
    res.once("close", () => this.#remove(stream));
    res.write(`retry: ${RETRY_MS}\n\n`);
    const chains = request.scope === "all" ? this.#source.list() : [this.#source.get(request.scope.chainId)];
    for (const publication of chains) if (publication !== undefined) this.#send(stream, publication);
    this.#unsubscribe ??= this.#source.subscribe((publication) => this.#published(publication));
    this.#unsubscribeAlerts ??= this.#alerts.subscribe((event) => this.#alerted(event));
    if (this.#heartbeat === undefined) {
      this.#heartbeat = setInterval(() => this.#beat(), this.#limits.heartbeatMs);
      this.#heartbeat.unref();
    }
  }

  /** Ends every stream opened with a key for which `stillValid` says no (it was revoked). */
  closeRevoked(stillValid: (keyId: string) => boolean): void {
    for (const stream of this.#streams) {
      if (stillValid(stream.keyId)) continue;
      stream.res.end();
      this.#remove(stream);
    }
  }

  #published(publication: ChainPublication): void {
    if (!publication.changed.blocks && !publication.changed.health && !publication.changed.history && !publication.changed.money) return;
    for (const stream of this.#streams) {
      if (stream.scope === "all" || stream.scope.chainId === publication.chainId) this.#send(stream, publication);
    }
  }

  #alerted(event: AlertEvent): void {
    const text = `event: ${ALERT_EVENT_NAME}\ndata: ${JSON.stringify(event)}\n\n`;
    for (const stream of this.#streams) {
      if (stream.scope === "all" || stream.scope.chainId === event.chainId) this.#write(stream, text);
    }
  }

  #send(stream: Stream, publication: ChainPublication): void {
    const event: NetworkEvent = {
      status: networkStatusAt(publication, this.#now()),
      blocks: blocksChanged(stream.held.get(publication.chainId), publication.snapshot),
    };
    stream.held.set(publication.chainId, publication.snapshot);
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
    this.#unsubscribeAlerts?.();
    this.#unsubscribeAlerts = undefined;
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
  }
}

/**
 * What a client holding `held` must change to hold `next`: nothing (null), the blocks from the first one that is new
 * or differs (new blocks, or a reorganisation's re-mined ones), or everything when the two do not line up.
 */
export function blocksChanged(held: FeeSnapshot | undefined, next: FeeSnapshot | undefined): BlockRun | null {
  if (next === undefined || held === next) return null;
  const all = (): BlockRun => ({
    kind: "all",
    firstBlock: firstBlockOf(next).toString(),
    baseFees: next.historyWei.map(toGweiString),
    ...blobFieldsFrom(next, 0),
  });
  if (held === undefined) return all();
  const heldFirst = firstBlockOf(held);
  const nextFirst = firstBlockOf(next);
  // A window that moved back, or a chain that got shorter: the client cannot patch that, it starts over.
  if (nextFirst < heldFirst || next.newestBlock < held.newestBlock) return all();
  for (let index = 0; index < next.historyWei.length; index++) {
    const block = nextFirst + BigInt(index);
    const heldIndex = Number(block - heldFirst);
    if (heldIndex < held.historyWei.length && held.historyWei[heldIndex] === next.historyWei[index] && sameBlobFields(held, heldIndex, next, index)) continue;
    if (index === 0) return all();
    return { kind: "from", firstBlock: block.toString(), baseFees: next.historyWei.slice(index).map(toGweiString), ...blobFieldsFrom(next, index) };
  }
  return null;
}

/** A block's blob base fee and blob gas used ratio in a snapshot (by its index among the base fees); undefined where none. */
function blobAt(snapshot: FeeSnapshot, index: number): { fee: bigint | undefined; ratio: number | undefined } {
  const blob = snapshot.blob;
  if (blob === undefined) return { fee: undefined, ratio: undefined };
  const at = index - (snapshot.historyWei.length - blob.historyWei.length);
  return { fee: blob.historyWei[at], ratio: blob.gasUsedRatios[at] };
}

function sameBlobFields(held: FeeSnapshot, heldIndex: number, next: FeeSnapshot, index: number): boolean {
  const a = blobAt(held, heldIndex);
  const b = blobAt(next, index);
  return a.fee === b.fee && a.ratio === b.ratio;
}

/** The blob fields of the event's blocks from `index` on, on a chain with blob fees. */
function blobFieldsFrom(snapshot: FeeSnapshot, index: number): Pick<BlockRun, "blobBaseFees" | "blobGasUsedRatios"> {
  if (snapshot.blob === undefined) return {};
  const blocks = Array.from({ length: snapshot.historyWei.length - index }, (_, i) => blobAt(snapshot, index + i));
  return {
    blobBaseFees: blocks.map(({ fee }) => (fee === undefined ? null : toGweiString(fee))),
    blobGasUsedRatios: blocks.map(({ ratio }) => ratio ?? null),
  };
}

function firstBlockOf(snapshot: FeeSnapshot): bigint {
  return snapshot.newestBlock - BigInt(snapshot.historyWei.length) + 1n;
}
