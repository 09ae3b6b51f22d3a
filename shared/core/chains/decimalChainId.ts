/** Digits at most: 2^53 - 1 has 16. */
const MAX_DIGITS = 16;

/**
 * A chain id written as the hosted Gas API writes it (`1`, `8453`, `11155111`): decimal, no sign, no leading zero, no
 * `0x`, from 1 to 2^53 - 1. Undefined for anything else.
 */
export function decimalChainIdOf(text: string): number | undefined {
  // A loop over the characters rather than a regular expression: every fee request reads its path's chain id.
  if (text.length === 0 || text.length > MAX_DIGITS) return undefined;
  let chainId = 0;
  for (let index = 0; index < text.length; index++) {
    const digit = text.charCodeAt(index) - 48;
    if (digit < 0 || digit > 9 || (digit === 0 && index === 0)) return undefined;
    chainId = chainId * 10 + digit;
  }
  return chainId <= Number.MAX_SAFE_INTEGER ? chainId : undefined;
}
