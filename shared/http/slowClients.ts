import type { Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../log/logger.ts";
import { KEEP_ALIVE_IDLE_MS } from "./keepAlive.ts";

export interface SlowClientLimits {
  /** Answers one connection may have queued for its client at once (pipelined requests); one more closes it. */
  readonly maxQueuedResponses: number;
  /** A connection whose answers wait this long without the client reading any of them is closed. */
  readonly drainTimeoutMs: number;
  /** A kept-alive connection that sends nothing and waits on no answer for this long is closed (keepAlive.ts). */
  readonly idleTimeoutMs: number;
}

export const DEFAULT_SLOW_CLIENT_LIMITS: SlowClientLimits = Object.freeze({
  maxQueuedResponses: 64,
  drainTimeoutMs: 10_000,
  idleTimeoutMs: KEEP_ALIVE_IDLE_MS,
});

interface Connection {
  /**
   * The answers begun and not yet handed to the socket whole, oldest first: the one under way if it is still being
   * written (an event stream, the CSV) and those queued behind it. An answer ended at once is dropped as soon as its
   * handler returns (`answered`): held until the connection's next request (a client's round trip, ~10 ms at 200
   * connections), answers outlived young-generation collections and were copied and promoted, and every request cost
   * more the more connections were open (npm run bench -- server; docs/benchmarks.md). Finished ones are dropped from
   * the front when next looked at.
   */
  readonly answers: ServerResponse[];
  /** Bytes the socket handed to the system when last checked, and since when it stayed there. */
  flushedBytes: number;
  stalledSinceMs: number;
  /** Bytes read and written when last checked, and the last check that saw them move or an answer under way. */
  bytesMoved: number;
  activeAtMs: number;
}

/** A counter not read yet: a connection's flushed bytes until its next check, and the bytes it moved until its first. */
const NOT_MEASURED = -1;

/** Drops the finished answers from the front; what is left is under way (the first) or queued behind it. */
function pruned(connection: Connection): readonly ServerResponse[] {
  const { answers } = connection;
  while (answers.length > 0 && answers[0]!.writableFinished) answers.shift();
  return answers;
}

export interface SlowClientWatch {
  /** Counts a new answer on its connection; false (the connection is closed) when that is one too many. */
  admit(socket: Socket, res: ServerResponse): boolean;
  /**
   * After the answer's handler returned: an answer ended and on its socket (not queued behind another) is no longer
   * held; what of it the client has not read yet is in the socket's buffer, which the check watches.
   */
  answered(socket: Socket, res: ServerResponse): void;
  stop(): void;
}

/**
 * Bounds what a client can make the server hold by keeping a connection open.
 * - Pipelined requests queue their answers behind the one being written; without a bound, a client could queue
 *   thousands and never read one. A connection with too many queued answers is closed at once, and one whose waiting
 *   answers make no progress for `drainTimeoutMs` is closed then (an event stream that the client reads is left alone).
 * - A kept-alive connection on which nothing moves for `idleTimeoutMs` (no byte either way, no answer under way) is
 *   closed, within a check's interval after that. node:http would do it with a timer armed after every answer and
 *   disarmed by the next request (`server.keepAliveTimeout`), which cost 4 to 12% of the CPU time of a request
 *   answered at once (two services loaded at once; docs/benchmarks.md); here one check a second looks at every
 *   connection.
 * A connection is watched from its first request; until then node:http's headers timeout bounds it.
 */
export function watchSlowClients(server: Server, overrides: Partial<SlowClientLimits> | undefined, logger: Logger): SlowClientWatch {
  const limits: SlowClientLimits = { ...DEFAULT_SLOW_CLIENT_LIMITS, ...overrides };
  /** The open connections that made a request, until they close. */
  const connections = new Map<Socket, Connection>();
  let timer: NodeJS.Timeout | undefined;
  const checkEveryMs = Math.max(10, Math.min(1000, Math.floor(Math.min(limits.drainTimeoutMs, limits.idleTimeoutMs) / 4)));

  /** The connection of the last request's socket: `answered` follows `admit` on the same one (a look-up fewer). */
  let lastSocket: Socket | undefined;
  let lastConnection: Connection | undefined;

  const close = (socket: Socket, why: string) => {
    logger.debug(`closed a connection whose client does not read its answers: ${why}`);
    connections.delete(socket);
    socket.destroy();
  };

  const check = () => {
    const nowMs = Date.now();
    for (const [socket, connection] of connections) {
      const queued = pruned(connection).length;
      const moved = socket.bytesRead + socket.bytesWritten;
      if (queued > 0 || socket.writableLength > 0 || moved !== connection.bytesMoved) {
        connection.bytesMoved = moved;
        connection.activeAtMs = nowMs;
      } else if (nowMs - connection.activeAtMs >= limits.idleTimeoutMs) {
        connections.delete(socket);
        socket.destroy();
        continue;
      }
      const flushed = socket.bytesWritten - socket.writableLength;
      const waiting = socket.writableLength > 0 || queued > 1;
      if (!waiting || flushed !== connection.flushedBytes) {
        connection.flushedBytes = flushed;
        connection.stalledSinceMs = nowMs;
      } else if (nowMs - connection.stalledSinceMs >= limits.drainTimeoutMs) {
        close(socket, `nothing read for ${limits.drainTimeoutMs} ms`);
      }
    }
    if (connections.size === 0) stopTimer();
  };

  const stopTimer = () => {
    clearInterval(timer);
    timer = undefined;
  };

  server.on("close", stopTimer);

  return {
    // On every request: no listener and no closure is made here, which kept this to a fraction of a microsecond.
    admit(socket, res) {
      let connection = socket === lastSocket ? lastConnection : connections.get(socket);
      if (connection === undefined) {
        // Its first check sees its bytes move, and counts its idle time from there.
        const made: Connection = { answers: [], flushedBytes: 0, stalledSinceMs: 0, bytesMoved: NOT_MEASURED, activeAtMs: 0 };
        connections.set(socket, made);
        socket.once("close", () => connections.delete(socket));
        connection = made;
      }
      lastSocket = socket;
      lastConnection = connection;
      // Measured from the next check on: reading the socket's counters here would cost every request.
      if (pruned(connection).length === 0) connection.flushedBytes = NOT_MEASURED;
      connection.answers.push(res);
      if (connection.answers.length > limits.maxQueuedResponses) {
        close(socket, `more than ${limits.maxQueuedResponses} answers queued`);
        return false;
      }
      if (timer === undefined) {
        timer = setInterval(check, checkEveryMs);
        timer.unref();
      }
      return true;
    },
    answered(socket, res) {
      // writableEnded: end() was called; a socket: the answer is not queued behind another (those wait in Node's queue).
      if (!res.writableEnded || res.socket === null) return;
      const answers = (socket === lastSocket ? lastConnection : connections.get(socket))?.answers;
      if (answers !== undefined && answers[answers.length - 1] === res) answers.pop();
    },
    stop: stopTimer,
  };
}
