// An error as one short line for a problem, a log line or a refusal: viem's messages run to many lines of details (its
// shortMessage is the first of them), and an endpoint's text is bounded before it is quoted.

/** The error's first line (viem's shortMessage when it has one), at most `maxChars` long. */
export function errorLine(error: unknown, maxChars = 200): string {
  const text = error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  return (text.split("\n")[0] ?? "").slice(0, maxChars);
}
