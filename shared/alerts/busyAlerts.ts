import { toGweiString } from "../core/fees/gwei.ts";
import type { Congestion } from "../wire/congestion.ts";

/**
 * When a chain's crossing of its busy threshold is worth a desktop notification. Pure: it is fed one observation per
 * chain update and answers with the alert to show, if any.
 *
 * - Busy is entered after `enterAfterBlocks` new blocks in a row whose current base fee is above the busy threshold,
 *   or at once on one block above the threshold by more than `enterMarginPercent`.
 * - Calm is entered after `calmAfterBlocks` new blocks in a row at or below the threshold.
 * - Only new blocks count: repeated updates about the same block (health changes) change nothing.
 * - The user is told when the state differs from what they were last told, at most once per `cooldownMs` per chain.
 *   A state that came and went within the cooldown is never announced (nor is its end), and a state still holding
 *   when the cooldown ends is announced then.
 * - A muted chain is followed but never announced.
 */
export interface AlertPolicy {
  readonly enterAfterBlocks: number;
  readonly enterMarginPercent: number;
  readonly calmAfterBlocks: number;
  readonly cooldownMs: number;
}

export interface ChainObservation {
  readonly chainId: number;
  readonly name: string;
  readonly blockNumber: bigint;
  readonly currentBaseFeeWei: bigint;
  readonly busyThresholdWei: bigint;
  /** Epoch ms. */
  readonly atMs: number;
}

/** A crossing to announce: the observation that completed it, and which way it went. */
export interface BusyAlert extends ChainObservation {
  readonly kind: KnownCongestion;
}

/** The hysteresis only ever knows a chain busy or normal (calm until it sees otherwise). */
type KnownCongestion = Exclude<Congestion, "unknown">;

interface ChainState {
  lastBlock: bigint | undefined;
  state: KnownCongestion;
  /** What the user was last told (normal until told otherwise). */
  announced: KnownCongestion;
  blocksAbove: number;
  blocksAtOrBelow: number;
  lastAlertAtMs: number | undefined;
}

const BASIS_POINTS = 10_000n;

export class BusyAlerts {
  readonly #chains = new Map<number, ChainState>();
  #policy: AlertPolicy;

  constructor(
    policy: AlertPolicy,
    private readonly isMuted: (chainId: number) => boolean = () => false,
  ) {
    this.#policy = policy;
  }

  setPolicy(policy: AlertPolicy): void {
    this.#policy = policy;
  }

  /** The congestion state of a chain as the hysteresis sees it (normal before any observation). */
  stateOf(chainId: number): KnownCongestion {
    return this.#chains.get(chainId)?.state ?? "normal";
  }

  observe(observation: ChainObservation): BusyAlert | undefined {
    let chain = this.#chains.get(observation.chainId);
    if (chain === undefined) {
      chain = { lastBlock: undefined, state: "normal", announced: "normal", blocksAbove: 0, blocksAtOrBelow: 0, lastAlertAtMs: undefined };
      this.#chains.set(observation.chainId, chain);
    }
    if (chain.lastBlock !== observation.blockNumber) {
      chain.lastBlock = observation.blockNumber;
      this.#count(chain, observation);
    }
    return this.#announce(chain, observation);
  }

  #count(chain: ChainState, { currentBaseFeeWei, busyThresholdWei }: ChainObservation): void {
    const policy = this.#policy;
    if (currentBaseFeeWei > busyThresholdWei) {
      chain.blocksAbove++;
      chain.blocksAtOrBelow = 0;
      const marginBasisPoints = BigInt(Math.round(policy.enterMarginPercent * 100));
      const farAbove = currentBaseFeeWei * BASIS_POINTS > busyThresholdWei * (BASIS_POINTS + marginBasisPoints);
      if (chain.state === "normal" && (chain.blocksAbove >= policy.enterAfterBlocks || farAbove)) chain.state = "busy";
    } else {
      chain.blocksAtOrBelow++;
      chain.blocksAbove = 0;
      if (chain.state === "busy" && chain.blocksAtOrBelow >= policy.calmAfterBlocks) chain.state = "normal";
    }
  }

  #announce(chain: ChainState, observation: ChainObservation): BusyAlert | undefined {
    if (chain.state === chain.announced || this.isMuted(observation.chainId)) return undefined;
    if (chain.lastAlertAtMs !== undefined && observation.atMs - chain.lastAlertAtMs < this.#policy.cooldownMs) return undefined;
    chain.announced = chain.state;
    chain.lastAlertAtMs = observation.atMs;
    return {
      kind: chain.state,
      chainId: observation.chainId,
      name: observation.name,
      blockNumber: observation.blockNumber,
      currentBaseFeeWei: observation.currentBaseFeeWei,
      busyThresholdWei: observation.busyThresholdWei,
      atMs: observation.atMs,
    };
  }
}

/** The notification's words. */
export function alertText(alert: BusyAlert): { title: string; body: string } {
  const fee = toGweiString(alert.currentBaseFeeWei);
  const threshold = toGweiString(alert.busyThresholdWei);
  return alert.kind === "busy"
    ? { title: `${alert.name} is busy`, body: `Base fee ${fee} gwei, above the busy threshold of ${threshold} gwei (block ${alert.blockNumber}).` }
    : {
        title: `${alert.name} has calmed down`,
        body: `Base fee ${fee} gwei, at or below the busy threshold of ${threshold} gwei (block ${alert.blockNumber}).`,
      };
}
