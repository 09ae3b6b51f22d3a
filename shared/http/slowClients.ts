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
   * The answers begun and not finished: the one under way and those queued behind it. A count, not the answers: a
   * finished answer held until the connection's next request (a client's round trip, ~10 ms at 200 connections)
   * outlived young-generation collections, and copying and promoting those answers made every request cost more the
   * more connections were open (npm run bench -- server; docs/benchmarks.md).
   */
  unfinished: number;
  /** Counts an answer finished; made once per connection, so that no request makes a closure. */
  readonly onAnswerFinished: () => void;
  /** Bytes the socket handed to the system when last checked, and since when it stayed there. */
  flushedBytes: number;
  stalledSinceMs: number;
}

/** A connection's flushed bytes before its first check. */
const NOT_MEASURED = -1;

function newConnection(): Connection {
  const connection: Connection = {
    unfinished: 0,
    onAnswerFinished: () => {
      connection.unfinished--;
    },
    flushedBytes: 0,
    stalledSinceMs: 0,
  };
  return connection;
}

export interface SlowClientWatch {
  /** Counts a new answer on its connection; false (the connection is closed) when that is one too many. */
  admit(socket: Socket, res: ServerResponse): boolean;
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

  const close = (socket: Socket, why: string) => {
    logger.debug(`closed a connection whose client does not read its answers: ${why}`);
    busy.delete(socket);
    socket.destroy();
  };

  const check = () => {
    const nowMs = Date.now();
    for (const socket of busy) {
      const connection = connections.get(socket)!;
      const queued = connection.unfinished;
      if (queued === 0 && socket.writableLength === 0) {
        busy.delete(socket);
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
    // On every request: no closure is made and no answer is kept here (the connection's one listener counts it finished).
    admit(socket, res) {
      let connection = connections.get(socket);
      if (connection === undefined) {
        connection = newConnection();
        connections.set(socket, connection);
        socket.once("close", () => busy.delete(socket));
      }
      if (connection.unfinished === 0) {
        // Measured from the next check on: reading the socket's counters here would cost every request.
        connection.flushedBytes = NOT_MEASURED;
        busy.add(socket);
      }
      connection.unfinished++;
      // on, not once: once wraps the listener in a closure per request; the answer is dropped after it finishes anyway.
      res.on("finish", connection.onAnswerFinished);
      if (connection.unfinished > limits.maxQueuedResponses) {
        close(socket, `more than ${limits.maxQueuedResponses} answers queued`);
        return false;
      }
      if (timer === undefined) {
        timer = setInterval(check, checkEveryMs);
        timer.unref();
      }
      return true;
    },
    stop: stopTimer,
  };
}
