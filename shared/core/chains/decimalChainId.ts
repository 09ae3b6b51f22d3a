const DECIMAL_CHAIN_ID = /^[1-9][0-9]{0,15}$/;

/**
 * A chain id written as the hosted Gas API writes it (`1`, `8453`, `11155111`): decimal, no sign, no leading zero, no
 * `0x`, from 1 to 2^53 - 1. Undefined for anything else.
 */
export function decimalChainIdOf(text: string): number | undefined {
  if (!DECIMAL_CHAIN_ID.test(text)) return undefined;
  const chainId = Number(text);
  return chainId <= Number.MAX_SAFE_INTEGER ? chainId : undefined;
}
