import type { Logger } from "../../log/logger.ts";
import { errorLine } from "../connection/errorLine.ts";
import { parseBlockHeader } from "../connection/parseRpcAnswers.ts";
import type { ChainEndpoint, ChainEndpoints } from "./chainEndpoints.ts";
import { differenceText, judgeAnswers, type Witness } from "./judgeAnswers.ts";

/** At least one block in this many is compared across the chain's endpoints (CONTRACT.md, "Endpoints check each other"). */
export const CROSS_CHECK_EVERY_BLOCKS = 32n;
/** A block is compared once it is this many blocks below the newest: a block re-mined at the head is no lie. */
export const CROSS_CHECK_DEPTH_BLOCKS = 8n;
/** What a dispute about blocks is filed under in the layer (one at a time: the newest sample's). */
export const BLOCK_DISPUTE = "blocks";

/**
 * The chain's endpoints checking each other on a sample of blocks: each block whose number is a multiple of
 * CROSS_CHECK_EVERY_BLOCKS, once it is CROSS_CHECK_DEPTH_BLOCKS deep, is asked of every endpoint the layer trusts
 * (`eth_getBlockByNumber`, through the checks' own lane, never delaying the head): its base fee and its hash. An
 * endpoint that differs from a majority is set aside for every reader, its status saying how; two stories with no
 * majority are a dispute of the chain, said until a later sample agrees. One endpoint alone is never checked: it costs
 * nothing then; with k endpoints a sample costs k calls (k/32 per block).
 */
export class BlockCrossCheck {
  readonly #layer: ChainEndpoints;
  readonly #logger: Logger;
  readonly #timeoutMs: number | undefined;
  #lastChecked: bigint | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(layer: ChainEndpoints, options: { readonly logger: Logger; readonly timeoutMs?: number }) {
    this.#layer = layer;
    this.#logger = options.logger;
    this.#timeoutMs = options.timeoutMs;
  }

  /** Calls made for the checks so far, over every endpoint. */
  get calls(): number {
    return this.#layer.callCounts("checks").reduce((sum, count) => sum + count.calls, 0);
  }

  /**
   * The chain is confirmed up to `newest`: the newest sample due, if any, is checked in the background (one check at
   * a time; a sample passed over while one runs is left: the next one is at most 32 blocks on).
   */
  offer(newest: bigint): void {
    if (this.#stopped || this.#layer.endpoints.length < 2 || this.#running !== undefined) return;
    const deep = newest - CROSS_CHECK_DEPTH_BLOCKS;
    if (deep < 0n) return;
    const sample = deep - (deep % CROSS_CHECK_EVERY_BLOCKS);
    if (this.#lastChecked !== undefined && sample <= this.#lastChecked) return;
    this.#lastChecked = sample;
    this.#running = this.check(sample)
      .catch((error: unknown) => this.#logger.error("a cross-check of the chain's endpoints failed", { chainId: this.#layer.chainId, error: String(error) }))
      .finally(() => {
        this.#running = undefined;
      });
  }

  /** Asks every trusted endpoint for `block` and judges their answers (tests call it; `offer` does in service). */
  async check(block: bigint): Promise<void> {
    const endpoints = this.#layer.trusted();
    if (endpoints.length < 2) return;
    const answers = await Promise.all(endpoints.map(async (endpoint) => ({ endpoint, witness: await this.#ask(endpoint, block) })));
    if (this.#stopped) return;
    const witnesses = answers.flatMap(({ witness }) => (witness === undefined ? [] : [witness]));
    const judgement = judgeAnswers(witnesses);
    const chainId = this.#layer.chainId;
    if (judgement.kind === "agreed") {
      this.#layer.settle(BLOCK_DISPUTE);
      return;
    }
    const how = differenceText(`block ${block}`, judgement);
    if (judgement.kind === "disputed") {
      if (!this.#layer.disputes.includes(how)) this.#logger.warn(`chain ${chainId}: its endpoints disagree and no majority settles it: ${how}`, { chainId });
      this.#layer.dispute(BLOCK_DISPUTE, how);
      return;
    }
    this.#layer.settle(BLOCK_DISPUTE);
    for (const outlier of judgement.outliers) {
      const endpoint = answers.find((answer) => answer.endpoint.redactedUrl === outlier.source)?.endpoint;
      if (endpoint === undefined) continue;
      this.#logger.warn(`chain ${chainId}: ${outlier.source} is set aside: it differs from the chain's other endpoints: ${how}`, {
        chainId,
        url: outlier.source,
      });
      this.#layer.setAside(endpoint, "disagrees", new Error(`${outlier.source} is set aside: it differs from the chain's other endpoints: ${how}`));
    }
  }

  stop(): void {
    this.#stopped = true;
  }

  /** The endpoint's word on `block` (its base fee and hash), or undefined when it has no such block yet or fails. */
  async #ask(endpoint: ChainEndpoint, block: bigint): Promise<Witness | undefined> {
    try {
      const options = this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs };
      await this.#layer.checkChainId(endpoint, "checks", options);
      const answer = await this.#layer.connection(endpoint, "checks", this.#timeoutMs).request("eth_getBlockByNumber", [`0x${block.toString(16)}`, false]);
      if (answer === null) return undefined;
      const header = parseBlockHeader(answer, endpoint.redactedUrl);
      if (header.number !== block) return { source: endpoint.redactedUrl, value: `block ${header.number} instead` };
      const hash = (answer as { hash?: unknown }).hash;
      const shownHash = typeof hash === "string" && /^0x[0-9a-fA-F]{64}$/.test(hash) ? hash.toLowerCase() : "none";
      return { source: endpoint.redactedUrl, value: `base fee ${header.baseFeePerGas ?? "none"} wei, hash ${shownHash}` };
    } catch (error) {
      this.#logger.debug(`chain ${this.#layer.chainId}: ${endpoint.redactedUrl} did not answer a cross-check of block ${block}: ${errorLine(error)}`, {
        chainId: this.#layer.chainId,
      });
      return undefined;
    }
  }
}
