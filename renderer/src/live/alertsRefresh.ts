// When the page asks `GET /alerts` again: at once when something says the rules' state changed (the stream opened, an
// alert fired, the settings were saved), and at most once per `minGapMs` while blocks arrive (a percentile rule's
// threshold moves with its window), never two asks at a time.

export class AlertsRefresh {
  readonly #ask: () => Promise<void>;
  readonly #minGapMs: number;
  #inFlight = false;
  #lastAskAt = Number.NEGATIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Asked for at once while an ask was in flight: asked again right after it. */
  #againNow = false;
  /** Asked for soon while an ask was in flight or waiting: scheduled after it. */
  #againSoon = false;
  #stopped = false;

  constructor(ask: () => Promise<void>, minGapMs: number) {
    this.#ask = ask;
    this.#minGapMs = minGapMs;
  }

  /** Ask now (or right after the ask in flight, whose answer may predate the change). */
  now(): void {
    if (this.#stopped) return;
    if (this.#inFlight) {
      this.#againNow = true;
      return;
    }
    this.#start();
  }

  /** Ask within `minGapMs` of the previous ask; any number of calls meanwhile make one ask. */
  soon(): void {
    if (this.#stopped) return;
    if (this.#inFlight || this.#timer !== undefined) {
      this.#againSoon ||= this.#inFlight;
      return;
    }
    const delayMs = Math.max(0, this.#lastAskAt + this.#minGapMs - Date.now());
    this.#timer = setTimeout(() => this.#start(), delayMs);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #start(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inFlight = true;
    this.#lastAskAt = Date.now();
    void this.#ask()
      .catch(() => undefined)
      .finally(() => {
        this.#inFlight = false;
        if (this.#againNow) {
          this.#againNow = false;
          this.#againSoon = false;
          this.now();
        } else if (this.#againSoon) {
          this.#againSoon = false;
          this.soon();
        }
      });
  }
}
