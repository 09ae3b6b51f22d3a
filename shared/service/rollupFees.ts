// What a rollup charges an action besides its gas, as last read into the chain's money: its L1 data fee and, on the
// OP stack, its operator fee. /costs and fiat alert rules take them from here (CONTRACT.md, "Costs in money").
import type { ChainMoney } from "./chainMoney.ts";

/** The L1 fee of a transaction of `txBytes`: 0 where the chain charges none, undefined when it was not read. */
export function l1FeeOf(money: ChainMoney, txBytes: number): bigint | undefined {
  if (money.l1FeeKind === "none") return 0n;
  return money.l1Fees?.get(txBytes);
}

/**
 * The operator fee of a transaction using `gas`: 0 where the chain charges none (any chain but the OP stack's; an
 * OP-stack chain before Isthmus reads as 0), undefined when it was not read.
 */
export function operatorFeeOf(money: ChainMoney, gas: bigint): bigint | undefined {
  if (money.l1FeeKind !== "op-stack") return 0n;
  return money.operatorFees?.get(gas);
}

/** Why an action's L1 fee or operator fee is not known: one sentence of each problem, or null when both are. */
export function rollupFeeProblem(money: ChainMoney): string | null {
  const problems = [money.l1FeeProblem, money.l1FeeKind === "op-stack" ? (money.operatorFeeProblem ?? null) : null].filter(
    (problem): problem is string => problem !== null,
  );
  return problems.length === 0 ? null : problems.join("; ");
}
