// What the workflows assume about the machine they run on, checked against what GitHub's stock runners are
// (support/githubRunners.ts): hosted runner labels, Node 24 through actions/setup-node and npm 11 before `npm ci`,
// actions at their current majors, a browser for the browser tests and a display for the Electron tests, no path or
// tool of the Debian machine this project is developed on, caches keyed by system, architecture and version, and
// artifacts named by system and architecture.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { satisfies } from "semver";
import { ACTION_MAJORS, GITHUB_HOSTED_RUNNERS } from "./support/githubRunners.ts";
import { actionOf, readWorkflow, runnerLabels, scalarText, type Workflow, type WorkflowJob, type WorkflowStep, workflowFiles } from "./support/workflows.ts";

const workflows: Workflow[] = workflowFiles().map((file) => readWorkflow(file));
const jobs = workflows.flatMap((workflow) => Object.entries(workflow.jobs).map(([id, job]) => ({ where: `${workflow.file} job ${id}`, job })));

/** The Node major the workflows pin: every dependency must accept it (no EBADENGINE in any job). */
const PINNED_NODE_MAJOR = 24;
/** npm honours package.json's allowScripts (which keeps `npm ci` to the install scripts it allows) from 11.16 on. */
const NPM_MAJOR = 11;

const runs = (step: WorkflowStep, command: RegExp) => typeof step.run === "string" && command.test(step.run);
const stepIndex = (job: WorkflowJob, predicate: (step: WorkflowStep) => boolean) => job.steps.findIndex(predicate);

test("every job runs on a runner GitHub hosts today", () => {
  for (const { where, job } of jobs) {
    const labels = runnerLabels(job);
    assert.ok(labels.length > 0, `${where}: no runner label`);
    for (const label of labels) {
      assert.ok(GITHUB_HOSTED_RUNNERS.has(label), `${where}: runs-on ${label}, which is not a GitHub-hosted runner (support/githubRunners.ts lists them)`);
    }
  }
});

test("every job that runs npm sets up Node 24 with actions/setup-node first, and installs with npm 11", () => {
  for (const { where, job } of jobs) {
    const firstNpm = stepIndex(job, (step) => runs(step, /\bnp[mx] /));
    if (firstNpm < 0) continue;
    const setupNode = stepIndex(job, (step) => actionOf(step)?.action === "actions/setup-node");
    assert.ok(setupNode >= 0 && setupNode < firstNpm, `${where}: runs npm without actions/setup-node before it`);
    const nodeVersion = scalarText(job.steps[setupNode]!.with?.["node-version"]);
    assert.equal(nodeVersion, String(PINNED_NODE_MAJOR), `${where}: setup-node's node-version is "${nodeVersion}", not ${PINNED_NODE_MAJOR}`);
    assert.equal(job.steps[setupNode]!.with?.cache, "npm", `${where}: setup-node does not cache npm's downloads`);
    for (const step of job.steps.filter((step) => runs(step, /\bnpm(@[\w.^~-]+)? ci\b/))) {
      assert.match(
        step.run!,
        new RegExp(`^npx --yes npm@${NPM_MAJOR} ci\\b`),
        `${where}: \`${step.run}\` installs with the runner's own npm, not npm ${NPM_MAJOR}`,
      );
    }
  }
});

test(`every dependency accepts the Node ${PINNED_NODE_MAJOR} the workflows pin`, () => {
  const lock = JSON.parse(readFileSync("package-lock.json", "utf8")) as { packages: Record<string, { engines?: { node?: string } | string[] }> };
  const node = `${PINNED_NODE_MAJOR}.0.0`;
  const refused = Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = !Array.isArray(entry.engines) ? entry.engines?.node : undefined;
    return range !== undefined && !satisfies(node, range) ? [`${path || "package.json"} wants node ${range}`] : [];
  });
  assert.deepEqual(refused, []);
});

test("every action is at its current major", () => {
  for (const { where, job } of jobs) {
    for (const step of job.steps) {
      const used = actionOf(step);
      if (!used) continue;
      const major = ACTION_MAJORS.get(used.action);
      assert.ok(major !== undefined, `${where}: uses ${used.action}, whose current major is not confirmed in support/githubRunners.ts`);
      assert.equal(used.version, major, `${where}: ${used.action}@${used.version}, but its current major is ${major}`);
    }
  }
});

test("nothing depends on the Debian machine this project is developed on", () => {
  for (const workflow of workflows) {
    for (const debianOnly of ["/usr/bin/chromium", "apt-get install -y chromium", "GASFEES_CHROMIUM", "/work/"]) {
      assert.ok(!workflow.text.includes(debianOnly), `${workflow.file} mentions ${debianOnly}`);
    }
  }
  for (const { where, job } of jobs) {
    const systems = new Set(runnerLabels(job).map((label) => GITHUB_HOSTED_RUNNERS.get(label)?.os));
    for (const step of job.steps) {
      if (runs(step, /\bapt-get\b|\bxvfb-run\b/)) assert.deepEqual([...systems], ["linux"], `${where}: apt-get or xvfb-run on a runner that is not Linux`);
      if (runs(step, /\$\(|\$GITHUB_|"\$/) && systems.has("windows")) {
        assert.equal(step.shell, "bash", `${where}: a step written for bash runs in PowerShell on Windows; give it shell: bash`);
      }
    }
  }
});

test("the browser tests find a browser, and the Electron tests a display, or they say why they skip", () => {
  for (const { where, job } of jobs) {
    const npmTest = stepIndex(job, (step) => runs(step, /\bnpm test\b/));
    if (npmTest >= 0) {
      const browser = stepIndex(job, (step) => runs(step, /playwright install (--with-deps )?chromium/));
      assert.ok(browser >= 0 && browser < npmTest, `${where}: npm test runs the browser tests, but no step installs Playwright's Chromium before it`);
      const underXvfb = runs(job.steps[npmTest]!, /xvfb-run/);
      assert.ok(underXvfb || job.env?.ELECTRON_SKIP_BINARY_DOWNLOAD === "1", `${where}: npm test would fetch Electron and run it without a display`);
    }
    const electronTests = stepIndex(job, (step) => runs(step, /npm run test:electron/));
    if (electronTests >= 0) {
      assert.ok(runs(job.steps[electronTests]!, /^xvfb-run /), `${where}: the Electron tests run without a display (xvfb-run)`);
      assert.equal(job.env?.GASFEES_REQUIRE_ELECTRON, "1", `${where}: the Electron tests would skip, not fail, if Electron could not be fetched`);
    }
  }
});

test("caches are keyed by system, architecture and what they hold; artifacts are named by system and architecture", () => {
  for (const { where, job } of jobs) {
    for (const step of job.steps) {
      const used = actionOf(step)?.action;
      if (used === "actions/cache") {
        const key = scalarText(step.with?.key);
        for (const part of ["runner.os", "runner.arch"]) assert.ok(key.includes(part), `${where}: cache key ${key} does not include ${part}`);
        assert.ok(/steps\.\w+\.outputs\.\w+|hashFiles\(/.test(key), `${where}: cache key ${key} names no version or lockfile hash, so it never changes`);
      }
      if (used === "actions/upload-artifact") {
        const name = scalarText(step.with?.name);
        const system = /(linux|windows|macos|\$\{\{ matrix\.os \}\})-(x64|arm64|\$\{\{ matrix\.arch \}\})$/;
        assert.match(name, system, `${where}: artifact ${name} is not named by system and architecture`);
      }
    }
  }
});

test("the installers are built only once the tests pass, and each matrix entry names its runner's own architecture", () => {
  for (const { where, job } of jobs) {
    if (!job.steps.some((step) => runs(step, /npm run dist\b/))) continue;
    const needs: readonly string[] = typeof job.needs === "string" ? [job.needs] : (job.needs ?? []);
    const testJobs = jobs.filter((other) => other.job.steps.some((step) => runs(step, /\bnpm (test|run test:electron)\b/)));
    for (const other of testJobs) assert.ok(needs.includes(other.where.split(" job ")[1]!), `${where}: does not wait for ${other.where}`);
    for (const entry of job.strategy?.matrix?.include ?? []) {
      const runner = GITHUB_HOSTED_RUNNERS.get(scalarText(entry.runner));
      assert.deepEqual({ os: entry.os, arch: entry.arch }, { os: runner?.os, arch: runner?.arch }, `${where}: matrix entry ${JSON.stringify(entry)}`);
    }
  }
});
