// An error as one short sentence for a problem, a log line or a refusal: viem's messages run to many lines of details
// (its shortMessage is the first of them), zod's message is its issues as JSON (said here by their own messages), and an
// endpoint's text is bounded before it is quoted, at a word and with an ellipsis, never cut where its details begin.

/** The error's first line (viem's shortMessage when it has one, zod's issues in words), at most `maxChars` long. */
export function errorLine(error: unknown, maxChars = 200): string {
  const issues = zodIssues(error);
  const text = issues !== undefined ? issues : error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : String(error);
  // A first line that only introduces what follows ("...: [", "Details:") keeps its words, not the opening.
  const line = (text.split("\n")[0] ?? "").replace(/[\s:[{(]+$/, "").trim();
  if (line.length <= maxChars) return line;
  const cut = line.slice(0, maxChars - 1);
  const atWord = cut.lastIndexOf(" ");
  return `${(atWord > maxChars / 2 ? cut.slice(0, atWord) : cut).replace(/[\s,;:]+$/, "")}…`;
}

/** A zod error's issues as one line ("decimals: it has more decimals than a price feed has"), or undefined. */
function zodIssues(error: unknown): string | undefined {
  if (!(error instanceof Error) || error.name !== "ZodError") return undefined;
  const issues = (error as { issues?: unknown }).issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  return issues
    .map((issue: { path?: unknown; message?: unknown }) => {
      const path = Array.isArray(issue.path) && issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : "";
      return `${path}${String(issue.message)}`;
    })
    .join("; ");
}
