/** A rule's last firing as kept across restarts: whose it was, its cooldown group, and what GET /alerts shows of it. */
export interface StoredFiring {
  readonly ruleId: string;
  readonly cooldownGroup: string;
  /** Epoch ms of the delivery. */
  readonly atMs: number;
  /** The chain's newest block when the rule fired. */
  readonly block: bigint;
  /** The chain's current base fee then (the next block's). */
  readonly baseFeeWei: bigint;
  /** The rule's threshold then. */
  readonly thresholdWei: bigint;
}

/**
 * Where the alert service keeps each rule's last firing, so that a restart keeps the cooldowns (CONTRACT.md, "Alerts":
 * never twice within the cooldown) and GET /alerts still shows when each rule last fired. The history store's file
 * keeps it (shared/history/alertFiringStore.ts). Both methods may throw: the alert service logs the error, and the
 * alert goes out all the same. Declared in core, below both: history, which keeps it, sits below alerts, which use it.
 */
export interface AlertFiringLog {
  /** The newest firing of each rule id ever recorded (read once, when the alert service starts). */
  load(): readonly StoredFiring[];
  /** Keeps `firing` as its rule's newest (an older one than the rule's kept firing changes nothing). */
  record(firing: StoredFiring): void;
}
