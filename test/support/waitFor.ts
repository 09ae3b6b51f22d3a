// The one way tests wait for something to come true: a check polled until it gives a value, failing with what was
// awaited. A wait for an event, never a measure of time: tests that prove something did not happen wait for a later
// event that would have come after it, not for a while.

/** Long enough for a loaded 2-core machine; a condition that holds at all holds well within it. */
export const DEFAULT_WAIT_MS = 15_000;

export interface WaitOptions {
  /** Fail after this long; DEFAULT_WAIT_MS unless given. */
  readonly timeoutMs?: number;
  /** Check again this often; 20 ms unless given. */
  readonly everyMs?: number;
}

/** The real timer, taken before any test mocks the global one (node:test's mock.timers): a wait goes on under mocked timers. */
const realSetTimeout = globalThis.setTimeout;

/** What a check gives while the awaited thing has not come: undefined, null or false. */
type NotYet = undefined | null | false;

/**
 * Calls `check` (sync or async) now and then every `everyMs` until it gives a value other than undefined, null or
 * false, and resolves with that value (a boolean check resolves with `true`). Fails, naming `what`, after
 * `timeoutMs` (a number stands for `{ timeoutMs }`); a check that throws fails the wait at once with its error.
 */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, options: WaitOptions | number = {}): Promise<Exclude<T, NotYet>> {
  const { timeoutMs = DEFAULT_WAIT_MS, everyMs = 20 } = typeof options === "number" ? { timeoutMs: options } : options;
  const started = performance.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, NotYet>;
    if (performance.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => realSetTimeout(resolve, everyMs));
  }
}
