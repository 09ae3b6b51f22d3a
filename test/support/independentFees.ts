// The expected answers, computed here from the raw data without the project's fee code, so that a test
// comparing the API with them checks the project's Gwei formatting and percentiles rather than restating them.

/** Wei to a Gwei string by string arithmetic: integer part, then up to nine fractional digits without trailing zeros. */
export function expectedGwei(wei: bigint): string {
  const digits = wei.toString().padStart(10, "0");
  const whole = digits.slice(0, -9).replace(/^0+(?=\d)/, "");
  const fraction = digits.slice(-9).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Nearest rank, written out as the contract states it: sorted[ceil(q/100 * N) - 1]. */
export function expectedPercentile(valuesWei: readonly bigint[], percentile: number): bigint {
  const sorted = [...valuesWei].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[Math.ceil((percentile / 100) * sorted.length) - 1]!;
}
