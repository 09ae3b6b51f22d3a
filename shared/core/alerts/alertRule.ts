import type { Action } from "../costs/defaultActions.ts";
import type { WindowSpec } from "../history/duration.ts";

/** Which side of its threshold a rule waits for: `below` (cheap) or `above` (expensive). */
export type AlertDirection = "below" | "above";

/**
 * What a rule compares the chain's current base fee with: a fixed fee, or a percentile of the chain's own base fees
 * over a window ending at its newest block (nearest rank, as every percentile of the service).
 */
export type AlertThreshold =
  | { readonly kind: "fixed"; readonly wei: bigint }
  | { readonly kind: "percentile"; readonly percentile: number; readonly window: WindowSpec }
  /** The medium-tier cost of `action` against `fiat` in the currency (as written, "1.50"). */
  | { readonly kind: "fiat"; readonly fiat: string; readonly action: Action };

/** The two rules every chain has: the busy and calm notifications (settings' `notifications`). */
export type BuiltInRule = "busy" | "calm";

/**
 * One alert rule as the engine runs it (CONTRACT.md, "Alerts"): parsed and checked, with every default filled in.
 * A rule is per chain; the built-in busy/calm pair exists once per followed chain.
 */
export interface AlertRule {
  /** Unique among the rules: a user rule's id from the settings, or `busy:<chainId>` / `calm:<chainId>`. */
  readonly id: string;
  readonly chainId: number;
  readonly when: AlertDirection;
  readonly threshold: AlertThreshold;
  /**
   * The condition must hold for this many new blocks in a row before the rule fires; once firing, it re-arms after
   * the condition was false for `rearmAfterBlocks` new blocks in a row (the contract's `forBlocks` for both).
   */
  readonly forBlocks: number;
  readonly rearmAfterBlocks: number;
  /**
   * Fires at once, before `forBlocks` new blocks, on one block beyond the threshold by more than this (percent of the
   * threshold); re-arms at once likewise. Only the built-in busy/calm pair sets it (`enterMarginPercent`).
   */
  readonly atOnceMarginPercent?: number;
  /** Never two deliveries within this long of each other (among the rules of the same `cooldownGroup`). */
  readonly cooldownMs: number;
  /** Rules sharing a group share their cooldown: the busy/calm pair of a chain, so that they never nag in turns. */
  readonly cooldownGroup: string;
  readonly enabled: boolean;
  /** https, or http to a loopback address; checked when the rule is parsed. */
  readonly webhookUrl?: string;
  /** A name the user gave it, for notifications and lists. */
  readonly label?: string;
  readonly builtIn?: BuiltInRule;
}
