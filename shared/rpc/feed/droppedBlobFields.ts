// An endpoint's malformed or out-of-range blob fields cost an answer its blob fields, never its base fees
// (parseRpcAnswers.ts): said in the log once per endpoint, not at every answer or block.
import type { Logger } from "../../log/logger.ts";

/** The log of a chain's dropped blob fields: the first answer of each endpoint that had them, once. */
export class DroppedBlobFields {
  readonly #chainId: number;
  readonly #logger: Logger;
  /** The endpoints (redacted URLs) whose dropped blob fields were said. */
  readonly #said = new Set<string>();

  constructor(chainId: number, logger: Logger) {
    this.#chainId = chainId;
    this.#logger = logger;
  }

  /** An answer from `url` came without its blob fields, for `problem`; said the first time for this endpoint only. */
  note(url: string, problem: string): void {
    if (this.#said.has(url)) return;
    this.#said.add(url);
    this.#logger.warn(
      `chain ${this.#chainId}: RPC endpoint ${url} sends blob fields that are not believed (${problem}); they are left out of its answers, ` +
        "whose base fees are kept (said once)",
      { chainId: this.#chainId, url, problem },
    );
  }
}
