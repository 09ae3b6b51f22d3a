/** Thrown into a backfill's waits and requests when it stops: not a failure of anything. */
export class BackfillStoppedError extends Error {
  override name = "BackfillStoppedError";
  constructor() {
    super("the backfill stopped");
  }
}

/** Resolves after `ms`, or rejects with BackfillStoppedError as soon as `signal` aborts, clearing its timer. */
export function waitMs(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new BackfillStoppedError());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new BackfillStoppedError());
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** `promise`, or a rejection with BackfillStoppedError as soon as `signal` aborts (whatever it settles with later is ignored). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new BackfillStoppedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new BackfillStoppedError());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
