import type { Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../log/logger.ts";

export interface SlowClientLimits {
  /** Answers one connection may have queued for its client at once (pipelined requests); one more closes it. */
  readonly maxQueuedResponses: number;
  /** A connection whose answers wait this long without the client reading any of them is closed. */
  readonly drainTimeoutMs: number;
}

export const DEFAULT_SLOW_CLIENT_LIMITS: SlowClientLimits = Object.freeze({ maxQueuedResponses: 64, drainTimeoutMs: 10_000 });

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
  /** In the set the check looks at. */
  watched: boolean;
}

/** A connection's flushed bytes before its first check. */
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
 * Bounds what a client that sends requests but does not read the answers can make the server hold. Pipelined requests
 * queue their answers behind the one being written; without a bound, a client could queue thousands and never read
 * one. A connection with too many queued answers is closed at once, and one whose waiting answers make no progress for
 * `drainTimeoutMs` is closed then (an idle keep-alive connection, or an event stream that the client reads, waits on
 * nothing and is left alone).
 */
export function watchSlowClients(server: Server, overrides: Partial<SlowClientLimits> | undefined, logger: Logger): SlowClientWatch {
  const limits: SlowClientLimits = { ...DEFAULT_SLOW_CLIENT_LIMITS, ...overrides };
  const connections = new WeakMap<Socket, Connection>();
  /** The connections with answers under way: the only ones the check looks at. */
  const busy = new Set<Socket>();
  let timer: NodeJS.Timeout | undefined;
  const checkEveryMs = Math.max(10, Math.min(1000, Math.floor(limits.drainTimeoutMs / 4)));

  /** The connection of the last request's socket: `answered` follows `admit` on the same one (a WeakMap look-up fewer). */
  let lastSocket: Socket | undefined;
  let lastConnection: Connection | undefined;

  const unwatch = (socket: Socket, connection: Connection | undefined) => {
    busy.delete(socket);
    if (connection !== undefined) connection.watched = false;
  };

  const close = (socket: Socket, why: string) => {
    logger.debug(`closed a connection whose client does not read its answers: ${why}`);
    unwatch(socket, connections.get(socket));
    socket.destroy();
  };

  const check = () => {
    const nowMs = Date.now();
    for (const socket of busy) {
      const connection = connections.get(socket)!;
      const queued = pruned(connection).length;
      if (queued === 0 && socket.writableLength === 0) {
        unwatch(socket, connection);
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
    if (busy.size === 0) stopTimer();
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
        const made: Connection = { answers: [], flushedBytes: 0, stalledSinceMs: 0, watched: false };
        connections.set(socket, made);
        socket.once("close", () => unwatch(socket, made));
        connection = made;
      }
      lastSocket = socket;
      lastConnection = connection;
      if (pruned(connection).length === 0) {
        // Measured from the next check on: reading the socket's counters here would cost every request.
        connection.flushedBytes = NOT_MEASURED;
        if (!connection.watched) {
          connection.watched = true;
          busy.add(socket);
        }
      }
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
