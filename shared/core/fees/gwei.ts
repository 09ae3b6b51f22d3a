// viem/utils rather than viem: the root module loads all of viem (clients, actions, ABI coding) for one function.
import { formatGwei } from "viem/utils";

/**
 * A wei amount as the contract's Gwei string: exact, shortest decimal, no exponent, at most nine
 * fractional digits, never rounded (1 wei -> "0.000000001", 2 Gwei -> "2"). viem's formatGwei on a
 * bigint is exactly that, and it is what the hosted Gas API prints.
 */
export function toGweiString(wei: bigint): string {
  if (wei < 0n) throw new RangeError(`a base fee cannot be negative (got ${wei} wei)`);
  return formatGwei(wei);
}
