import type { IncomingMessage, ServerResponse } from "node:http";

/** After an answer of the batch is written (or found abandoned): its request's accounting, under its route's label. */
export type AnswerWritten = (req: IncomingMessage, res: ServerResponse, route: string) => void;
/** A queued answer whose writing threw (a bug): answered as the server answers any unexpected failure. */
export type AnswerFailed = (req: IncomingMessage, res: ServerResponse, error: unknown) => void;

/** Slots of one queued answer in the flat queue: request, response, headers, body, route. */
const SLOTS = 5;

/**
 * A batch this large is written at once, before its turn ends: a long turn's answers would otherwise stay alive through
 * young-generation collections (copied, then promoted). At 200 connections, 32 used 0.82 to 0.96 of the CPU time per
 * request of no bound, in three pairs of services loaded at once; 12 took 1.05 times 32's, 64 and 128 within 4% of
 * it (a pair each).
 */
export const MAX_QUEUED_ANSWERS = 32;

/**
 * The answers made in one turn of the event loop, written together at its end (`setImmediate`, once the turn's ready
 * connections have all been read) rather than each as soon as it is made. Under load a turn reads many requests; their
 * answers then leave in one burst, so that a client waiting on several connections is woken once for the burst rather
 * than once per answer, and the server's own work stays on one path at a time. On this 2-core virtual machine that
 * saved 6 to 17% of a request's CPU time at 10 connections, and up to 16% at 200 (two services loaded at once; see
 * docs/benchmarks.md). An answer waits at most for the rest of its turn: a lone request is answered in the turn it
 * was read, and a turn that makes more than MAX_QUEUED_ANSWERS writes them as they reach it.
 *
 * Only answers whole at once go through it (a prepared JSON body): streams, files and answers computed later are
 * written by their routes. The queue is flat, so that queuing an answer makes no object.
 */
export class AnswerBatch {
  #queued: unknown[] = [];
  readonly #written: AnswerWritten;
  readonly #failed: AnswerFailed;

  constructor(written: AnswerWritten, failed: AnswerFailed) {
    this.#written = written;
    this.#failed = failed;
  }

  /** Queues a 200 answer with these headers (a flat list, headerList.ts) and body (none for HEAD). */
  add(req: IncomingMessage, res: ServerResponse, headers: readonly string[], body: Buffer | undefined, route: string): void {
    const queued = this.#queued;
    queued.push(req, res, headers, body, route);
    if (queued.length === SLOTS) setImmediate(this.#flush);
    else if (queued.length === MAX_QUEUED_ANSWERS * SLOTS) this.#flush();
  }

  readonly #flush = (): void => {
    // Swapped first: writing an answer can let node:http read a pipelined request at once, whose answer joins the next batch.
    const queued = this.#queued;
    this.#queued = [];
    for (let index = 0; index < queued.length; index += SLOTS) {
      const req = queued[index] as IncomingMessage;
      const res = queued[index + 1] as ServerResponse;
      try {
        // A client gone meanwhile has nothing to read.
        if (!res.destroyed && !req.socket.destroyed) {
          res.writeHead(200, queued[index + 2] as string[]);
          res.end(queued[index + 3] as Buffer | undefined);
        }
      } catch (error) {
        this.#failed(req, res, error);
      }
      this.#written(req, res, queued[index + 4] as string);
    }
  };
}
