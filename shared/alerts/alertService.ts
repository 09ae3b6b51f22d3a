import type { AlertRule, AlertThreshold } from "../core/alerts/alertRule.ts";
import { STARTING, stepRule } from "../core/alerts/ruleEngine.ts";
import { webhookShown } from "../core/alerts/webhookUrl.ts";
import { toGweiString } from "../core/fees/gwei.ts";
import type { Logger } from "../log/logger.ts";
import type { ChainPublication } from "../service/chainPublication.ts";
import type { FeeSource } from "../service/feeSource.ts";
import type { AlertEvent, AlertRuleProblem, AlertsBody } from "../wire/alerts.ts";
import type { AlertFiringLog, StoredFiring } from "../core/alerts/alertFiringLog.ts";
import type { AlertSource } from "./alertSource.ts";
import { type RuleFiring, type RuleMemory, ruleStatusOf } from "./alertStatus.ts";
import { alertSentence } from "./alertText.ts";
import { chainPause } from "./chainPause.ts";
import { thresholdNow } from "./ruleThreshold.ts";
import type { WebhookDelivery, WebhookOutcomeListener } from "./webhookSender.ts";

/** Where the rules' webhooks go (the service's WebhookSender): `send` returns at once, and outcomes come later. */
export interface WebhookChannel {
  send(delivery: WebhookDelivery): void;
  onOutcome(listener: WebhookOutcomeListener): () => void;
}

export interface AlertServiceOptions {
  readonly source: FeeSource;
  /** One info line per alert (the headless service's channel), and the rules' problems. */
  readonly logger: Logger;
  /** Without it, rules with a webhookUrl fire on the other channels only. */
  readonly webhooks?: WebhookChannel;
  /** Epoch ms: when an alert fires, for the cooldowns and `firedAt`. */
  readonly now?: () => number;
  /**
   * Where each rule's last firing is kept across restarts (the history file's): read once here, so that the cooldowns
   * go on and GET /alerts shows the last firings from before; written at each firing. Without it, a start knows none.
   */
  readonly firings?: AlertFiringLog;
}

type Memory = { -readonly [K in keyof RuleMemory]: RuleMemory[K] };

/** An alert to hand to the channels, with the rule it is of and the firing to keep. */
interface Firing {
  readonly rule: AlertRule;
  readonly event: AlertEvent;
  readonly fired: RuleFiring;
}

/**
 * Runs the alert rules (CONTRACT.md, "Alerts") on the chains of a FeeSource: on each publication of a chain whose newest
 * block (or health) changed, each of its rules takes one step of the rule engine (shared/core/alerts/ruleEngine.ts)
 * with its threshold as of that block, and each firing is handed to every channel at once: the listeners (the event
 * streams, the desktop app's notifications), the log (one line), and the rule's webhook. A channel that throws is
 * logged and never stops the others, nor the feed. Rules compare the chain's current base fee (the next block's, as the
 * Busy badge does) and pause, firing nothing, while the chain's data is missing or stale.
 */
export class AlertService implements AlertSource {
  readonly #source: FeeSource;
  readonly #logger: Logger;
  readonly #webhooks: WebhookChannel | undefined;
  readonly #now: () => number;
  readonly #firings: AlertFiringLog | undefined;
  /** The rules' last firings from before this start, by rule id, until the first configure gives them to its rules. */
  #restoredFirings: ReadonlyMap<string, RuleFiring> | undefined;
  /** Every rule by its id, in the order configured. */
  #rules = new Map<string, Memory>();
  #problems: readonly AlertRuleProblem[] = [];
  /** Each cooldown group's newest delivery (epoch ms). */
  readonly #lastDeliveredAtMs = new Map<string, number>();
  readonly #listeners = new Set<(event: AlertEvent) => void>();
  readonly #unsubscribe: Array<() => void> = [];
  #stopped = false;

  constructor(options: AlertServiceOptions) {
    this.#source = options.source;
    this.#logger = options.logger;
    this.#webhooks = options.webhooks;
    this.#now = options.now ?? Date.now;
    this.#firings = options.firings;
    this.#restoredFirings = this.#restore();
    this.#unsubscribe.push(this.#source.subscribe((publication) => this.#published(publication)));
    if (this.#webhooks) {
      this.#unsubscribe.push(
        this.#webhooks.onOutcome((ruleId, outcome) => {
          const memory = this.#rules.get(ruleId);
          if (memory) memory.lastWebhook = { atMs: outcome.at, ok: outcome.ok, detail: outcome.detail };
        }),
      );
    }
  }

  /**
   * Replaces the rules (loadAlertRules' answer). A rule whose condition is unchanged keeps its state (a change of its
   * label, webhook, cooldown or enabled alone keeps it); a new or changed one starts again, learning its chain's state
   * without an alert. The first call gives each rule its last firing from before this start (by rule id). Problems not
   * told before are logged, one line each.
   */
  configure(rules: readonly AlertRule[], problems: readonly AlertRuleProblem[]): void {
    const previous = this.#rules;
    const restored = this.#restoredFirings ?? new Map<string, RuleFiring>();
    this.#restoredFirings = undefined;
    const next = new Map<string, Memory>();
    for (const rule of rules) {
      if (next.has(rule.id)) {
        this.#logger.warn(`alert rule ${rule.id}: a second rule has this id; only the first one runs`);
        continue;
      }
      const kept = previous.get(rule.id);
      next.set(
        rule.id,
        kept !== undefined && sameCondition(kept.rule, rule)
          ? { ...kept, rule }
          : { rule, state: STARTING, threshold: undefined, lastFired: restored.get(rule.id), lastWebhook: undefined },
      );
    }
    this.#rules = next;
    const groups = new Set(rules.map((rule) => rule.cooldownGroup));
    for (const group of [...this.#lastDeliveredAtMs.keys()]) if (!groups.has(group)) this.#lastDeliveredAtMs.delete(group);

    const told = new Set(this.#problems.map(problemKey));
    for (const problem of problems) if (!told.has(problemKey(problem))) this.#logger.warn(problemLine(problem));
    this.#problems = [...problems];

    // New and changed rules learn their chain's state now rather than at its next block (GET /alerts shows it at once).
    const starting = [...next.values()].filter((memory) => memory.state.phase === "starting");
    for (const chainId of new Set(starting.map((memory) => memory.rule.chainId))) {
      const publication = this.#source.get(chainId);
      if (publication)
        this.#observeGuarded(
          publication,
          starting.filter((memory) => memory.rule.chainId === chainId),
        );
    }
  }

  /** GET /alerts: every rule with its state, and the problems of the rules that were refused. */
  status(): AlertsBody {
    const rules = [...this.#rules.values()].map((memory) => {
      const lastDelivered = this.#lastDeliveredAtMs.get(memory.rule.cooldownGroup);
      return ruleStatusOf(memory, this.#source.get(memory.rule.chainId), lastDelivered === undefined ? undefined : lastDelivered + memory.rule.cooldownMs);
    });
    return { rules, problems: this.#problems };
  }

  /** Calls `listener` with every alert from now on (every chain's); returns the unsubscribe function. */
  subscribe(listener: (event: AlertEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops following the chains and telling the listeners. */
  stop(): void {
    this.#stopped = true;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#listeners.clear();
  }

  #published(publication: ChainPublication): void {
    const rules = [...this.#rules.values()].filter((memory) => memory.rule.chainId === publication.chainId);
    const learning = rules.some((memory) => memory.state.phase === "starting");
    // A publication without new blocks (new tips, the history's progress, money, health) moves no rule.
    if (rules.length > 0 && (publication.changed.blocks || publication.changed.health || publication.changed.money || learning))
      this.#observeGuarded(publication, rules);
  }

  /** #observe, whose failure (a bug) is logged rather than thrown at the feed. */
  #observeGuarded(publication: ChainPublication, memories: readonly Memory[]): void {
    try {
      this.#observe(publication, memories);
    } catch (error) {
      this.#logger.error("the alert rules of a chain could not be checked; they are checked again at its next block", {
        chainId: publication.chainId,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
  }

  /** One step of each rule in `memories` (all of `publication`'s chain); the firings are told once every step is made. */
  #observe(publication: ChainPublication, memories: readonly Memory[]): void {
    const { snapshot } = publication;
    if (snapshot === undefined) return;
    const chainPaused = chainPause(publication) !== null;
    const history = this.#source.history(publication.chainId);
    const atMs = this.#now();
    const firings: Firing[] = [];
    for (const memory of memories) {
      const { rule } = memory;
      // The fee the rule compares: the next block's base fee, or its blob base fee (a chain without one has nothing to compare).
      const feeWei = rule.fee === "blob" ? snapshot.blob?.currentWei : snapshot.currentBaseFeeWei;
      if (feeWei === undefined) continue;
      // A money rule without a price waits (paused, "no price"): it never fires on a price that is not current.
      const paused = chainPaused || (rule.threshold.kind === "fiat" && publication.money.price === undefined);
      if (!paused) memory.threshold = thresholdNow(rule, history, publication);
      const thresholdWei = paused ? undefined : memory.threshold?.wei;
      const observation = { block: snapshot.newestBlock, baseFeeWei: feeWei, thresholdWei, atMs, paused };
      const step = stepRule(rule, memory.state, observation, this.#lastDeliveredAtMs.get(rule.cooldownGroup));
      memory.state = step.state;
      if (!step.deliver || thresholdWei === undefined) continue;
      this.#lastDeliveredAtMs.set(rule.cooldownGroup, atMs);
      const fired: RuleFiring = { atMs, block: snapshot.newestBlock, baseFeeWei: feeWei, thresholdWei };
      memory.lastFired = fired;
      const text = alertSentence({
        rule,
        chainName: publication.name,
        block: snapshot.newestBlock,
        baseFeeWei: feeWei,
        thresholdWei,
        currency: publication.money.currency,
      });
      const event: AlertEvent = {
        ruleId: rule.id,
        chainId: publication.chainId,
        chainName: publication.name,
        block: snapshot.newestBlock.toString(),
        baseFee: toGweiString(feeWei),
        ...(rule.fee === "blob" ? { fee: "blob" as const } : {}),
        threshold: toGweiString(thresholdWei),
        when: rule.when,
        firedAt: new Date(atMs).toISOString(),
        text,
        content: text,
      };
      firings.push({ rule, event, fired });
    }
    // Told after the publication has reached every reader of the feed, so that an event stream carries the block
    // (`event: network`) before the alert about it.
    if (firings.length > 0) queueMicrotask(() => this.#tell(firings));
  }

  #tell(firings: readonly Firing[]): void {
    if (this.#stopped) return;
    for (const { rule, event, fired } of firings) {
      for (const listener of this.#listeners) {
        this.#guarded("an alert listener failed; the other channels still get the alert", rule, () => listener(event));
      }
      this.#guarded("the alert could not be logged", rule, () =>
        this.#logger.info(`alert ${rule.id} fired: ${event.text}`, rule.webhookUrl === undefined ? undefined : { webhook: webhookShown(rule.webhookUrl) }),
      );
      const { webhookUrl } = rule;
      const webhooks = this.#webhooks;
      if (webhookUrl !== undefined && webhooks !== undefined) {
        this.#guarded("the alert could not be handed to the webhook sender", rule, () => webhooks.send({ ruleId: rule.id, url: webhookUrl, event }));
      }
      // Kept last, once every channel has the alert: a slow or failing store delays none of them.
      const log = this.#firings;
      if (log !== undefined) {
        this.#guarded("the alert's firing could not be kept; after a restart, its cooldown starts afresh", rule, () =>
          log.record({ ruleId: rule.id, cooldownGroup: rule.cooldownGroup, ...fired }),
        );
      }
    }
  }

  /**
   * Reads the firings kept before this start: each cooldown group's newest becomes its last delivery (so that a crossing
   * right after a restart waits for the cooldown, as without the restart), and each rule's is returned for configure.
   * A log that cannot be read is logged, and the rules start without their firings.
   */
  #restore(): ReadonlyMap<string, RuleFiring> | undefined {
    if (this.#firings === undefined) return undefined;
    let stored: readonly StoredFiring[];
    try {
      stored = this.#firings.load();
    } catch (error) {
      this.#logger.warn("the alert rules' last firings could not be read; their cooldowns start afresh", {
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
    // A firing kept with a clock that was ahead (since set back) counts as now: it never holds a rule back longer.
    const nowMs = this.#now();
    const byRule = new Map<string, RuleFiring>();
    for (const { ruleId, cooldownGroup, ...fired } of stored) {
      byRule.set(ruleId, fired);
      const deliveredAtMs = Math.min(fired.atMs, nowMs);
      const known = this.#lastDeliveredAtMs.get(cooldownGroup);
      if (known === undefined || deliveredAtMs > known) this.#lastDeliveredAtMs.set(cooldownGroup, deliveredAtMs);
    }
    return byRule;
  }

  #guarded(what: string, rule: AlertRule, channel: () => void): void {
    try {
      channel();
    } catch (error) {
      try {
        this.#logger.error(what, { rule: rule.id, error: error instanceof Error ? error.message : String(error) });
      } catch {
        // The logger itself failed: nothing is left to tell it to.
      }
    }
  }
}

/** Whether two definitions of a rule watch the same condition the same way (so that its state still holds). */
function sameCondition(a: AlertRule, b: AlertRule): boolean {
  return (
    a.chainId === b.chainId &&
    a.when === b.when &&
    sameThreshold(a.threshold, b.threshold) &&
    a.forBlocks === b.forBlocks &&
    a.rearmAfterBlocks === b.rearmAfterBlocks &&
    a.atOnceMarginPercent === b.atOnceMarginPercent &&
    a.cooldownGroup === b.cooldownGroup
  );
}

function sameThreshold(a: AlertThreshold, b: AlertThreshold): boolean {
  if (a.kind === "fixed") return b.kind === "fixed" && a.wei === b.wei;
  if (a.kind === "fiat")
    return b.kind === "fiat" && a.fiat === b.fiat && a.action.id === b.action.id && a.action.gas === b.action.gas && a.action.txBytes === b.action.txBytes;
  return b.kind === "percentile" && a.percentile === b.percentile && a.window.text === b.window.text;
}

function problemKey(problem: AlertRuleProblem): string {
  return JSON.stringify([problem.rule, problem.field, problem.message]);
}

/** "alert rule cheap-eth: percentile: must be a whole number from 1 to 99 …" (a problem of the whole rule names no field). */
function problemLine(problem: AlertRuleProblem): string {
  return `alert rule ${problem.rule}: ${problem.field === "(rule)" ? "" : `${problem.field}: `}${problem.message}`;
}
