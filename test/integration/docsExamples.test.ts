// Every request example of README.md and docs/ runs against the demo, as `npm run serve -- --demo` starts it (the
// demo chain on a real local EVM node, the service with the default settings and a history file), and its answer is
// compared with the one the page shows: the status, the JSON's keys and types, and the values that do not move (codes,
// messages, names, states). The examples are read from the Markdown (test/support/docExamples.ts), so that a new one
// is checked without editing this test; docs/testing.md says how a page marks an answer or an example not run here.
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { DEMO_CHAIN_ID, startDemoChain } from "../../shared/cli/demoChain.ts";
import { startService } from "../../shared/app/startService.ts";
import { parseSettings } from "../../shared/config/settings.ts";
import { silentLogger } from "../../shared/log/logger.ts";
import type { Costs } from "../../shared/wire/costs.ts";
import type { NetworkStatus } from "../../shared/wire/networkStatus.ts";
import { callApi } from "../support/apiClient.ts";
import { compareCsv, compareHeaders, compareJson, comparePrometheus, parseShownJson, splitHttpAnswer } from "../support/answerShape.ts";
import { type DocExamples, type DocPlace, parseCurl, readDocExamples, where } from "../support/docExamples.ts";
import { waitFor } from "../support/waitFor.ts";

const KEY = "d0c5d0c5d0c5d0c5d0c5d0c5d0c5d0c5";
/** For the examples that send `$KEY:$SECRET`: a key made with a required secret. */
const SECRET_KEY = "5ec5ec5ec5ec5ec5ec5ec5ec5ec5ec5e";
const SECRET = "the-secret";

const ROOT = join(import.meta.dirname, "..", "..");

/** README.md and every page of docs/. */
function pages(): Array<{ file: string; examples: DocExamples }> {
  const files = [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  return files.map((file) => ({ file, examples: readDocExamples(file, readFileSync(join(ROOT, file), "utf8")) }));
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text; undefined for a stream (`curl -N`), which is not read to its end. */
  readonly text?: string;
}

async function run(command: string, base: string): Promise<{ answer: Answer; url: string }> {
  const vars: Record<string, string> = command.includes("$SECRET") ? { KEY: SECRET_KEY, SECRET, BASE: base } : { KEY, BASE: base };
  const request = parseCurl(command, vars);
  const headers: Record<string, string> = {};
  if (request.user !== undefined) headers.authorization = `Basic ${Buffer.from(request.user).toString("base64")}`;
  const abort = new AbortController();
  const response = await fetch(request.url, { headers, signal: abort.signal });
  if (request.stream) {
    abort.abort();
    return { answer: { status: response.status, headers: response.headers }, url: request.url };
  }
  return { answer: { status: response.status, headers: response.headers, text: await response.text() }, url: request.url };
}

/** The differences of an answer from a shown JSON body; a shown error's statusCode is the status expected. */
function compareShownJson(shownText: string, answer: Answer): string[] {
  let shown: unknown;
  try {
    shown = parseShownJson(shownText);
  } catch (error) {
    return [`the shown answer is not JSON (${(error as Error).message}): ${shownText}`];
  }
  const expectedStatus = typeof shown === "object" && shown !== null && "statusCode" in shown ? Number(shown.statusCode) : 200;
  if (answer.status !== expectedStatus) return [`status ${answer.status}, expected ${expectedStatus}: ${answer.text ?? ""}`];
  if (answer.text === undefined) return ["a stream, shown with a body"];
  return compareJson(shown, JSON.parse(answer.text));
}

const stops: Array<() => Promise<void>> = [];
const configDir = mkdtempSync(join(tmpdir(), "gasfees-docs-"));
after(async () => {
  for (const stop of stops.reverse()) await stop();
  rmSync(configDir, { recursive: true, force: true });
});

test("the pages mark their examples well: every json block is an answer or not run, every marker is before a block", () => {
  const problems = pages().flatMap((page) => page.examples.problems);
  assert.deepEqual(problems, []);
});

test("every request example of README.md and docs/ answers the demo as the page shows", { timeout: 300_000 }, async (t) => {
  // The demo as `npm run serve -- --demo` starts it: its chain, the default settings, a history file.
  const demo = await startDemoChain(silentLogger);
  stops.push(demo.stop);
  const settings = parseSettings({});
  const running = await startService(
    {
      ...settings,
      host: "127.0.0.1",
      port: 0,
      chains: [demo.plan],
      apiKeys: [{ key: KEY }, { key: SECRET_KEY, secret: SECRET }],
      historyFile: join(configDir, "history.sqlite"),
      alerts: { rules: settings.alerts, notifications: settings.notifications },
    },
    silentLogger,
  );
  stops.push(() => running.stop());
  const base = running.url;

  // The examples show the demo settled: its two days held, its price read.
  await waitFor(
    "the demo's history backfilled and its price read",
    async () => {
      const networks = await callApi<NetworkStatus[]>(base, "/networks", KEY);
      const chain = networks.body[0];
      if (chain?.state !== "ok" || chain.history.backfill.running) return false;
      const costs = await callApi<Costs>(base, `/networks/${DEMO_CHAIN_ID}/costs`, KEY);
      return costs.status === 200 && costs.body.price !== null;
    },
    { timeoutMs: 240_000, everyMs: 250 },
  );

  const problems: string[] = [];
  const say = (place: DocPlace, command: string, found: readonly string[]) => {
    for (const problem of found) problems.push(`${where(place)} ${command}\n    ${problem}`);
  };
  let ran = 0;
  let skipped = 0;
  for (const { examples } of pages()) {
    skipped += examples.skipped.length;
    for (const request of examples.requests) {
      ran++;
      try {
        const { answer } = await run(request.command, base);
        if (request.inlineAnswer !== undefined) say(request.place, request.command, compareShownJson(request.inlineAnswer, answer));
        else if (answer.status !== 200) say(request.place, request.command, [`status ${answer.status}, shown as a request that answers: ${answer.text ?? ""}`]);
      } catch (error) {
        say(request.place, request.command, [(error as Error).message]);
      }
    }
    for (const block of examples.answers) {
      ran++;
      try {
        const { answer, url } = await run(block.command, base);
        if (block.text.startsWith("HTTP/")) {
          const shown = splitHttpAnswer(block.text);
          const found = answer.status === shown.status ? compareHeaders(shown.headers, answer.headers) : [`status ${answer.status}, shown ${shown.status}`];
          say(block.place, block.command, [...found, ...(shown.body.trim() ? compareShownJson(shown.body, answer) : [])]);
        } else if (block.lang === "json" || /^\s*[[{]/.test(block.text)) {
          say(block.place, block.command, compareShownJson(block.text, answer));
        } else if (new URL(url).pathname.endsWith(".csv")) {
          say(block.place, block.command, answer.status === 200 ? compareCsv(block.text, answer.text ?? "") : [`status ${answer.status}`]);
        } else if (new URL(url).pathname.endsWith("/metrics")) {
          say(block.place, block.command, answer.status === 200 ? comparePrometheus(block.text, answer.text ?? "") : [`status ${answer.status}`]);
        } else say(block.place, block.command, ["the test does not know how to compare this answer (JSON, HTTP with -i, CSV or metrics)"]);
      } catch (error) {
        say(block.place, block.command, [(error as Error).message]);
      }
    }
  }
  t.diagnostic(`docs' examples: ${ran} run against the demo, ${skipped} marked not-run`);
  assert.ok(ran > 0, "the docs have request examples");
  assert.equal(problems.length, 0, `${problems.length} example(s) differ from what the demo answers:\n${problems.join("\n")}`);
});
