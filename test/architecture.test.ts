import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { filesUnder, isSourceFile } from "../scripts/filesUnder.mjs";
import { importsOf, resolveRelative } from "./support/sourceImports.ts";

test("shared/ imports neither Electron, React nor the other layers (it runs in plain Node)", () => {
  const offending = sourceFiles("shared").flatMap((file) =>
    importsOf(readFileSync(file, "utf8"))
      .map(({ specifier }) => specifier)
      .filter((specifier) => /^(electron|react|react-dom|recharts)(\/|$)/.test(specifier) || /(^|\/)(electron|renderer)\//.test(specifier))
      .map((specifier) => `${file} imports ${specifier}`),
  );
  assert.deepEqual(offending, []);
});

test("shared/ is typechecked without the DOM lib, so a DOM global there fails `npm run typecheck`", () => {
  const config = JSON.parse(readFileSync("tsconfig.json", "utf8")) as { include: string[]; compilerOptions: { lib: string[]; types: string[] } };
  assert.ok(config.include.includes("shared"));
  assert.deepEqual(config.compilerOptions.types, ["node"]);
  assert.equal(
    config.compilerOptions.lib.some((lib) => /^dom/i.test(lib)),
    false,
  );
});

/**
 * shared/'s folders from the bottom up (electron/ and renderer/ sit above them all: the test above). A file imports
 * from its own level and those below, never from one above; the folders of one level may use each other, and the
 * cycle check keeps them from going round. Type-only imports count: a type is a dependency on the concept it names.
 * Each folder is placed by what it imports:
 */
const LAYERS: readonly (readonly string[])[] = [
  // pure computation on wei, blocks and text (the page takes it too)
  ["core"],
  // the contract's shapes (zod schemas), made of core's values
  ["wire"],
  // the logger, and API keys (format, keyring, Basic parsing): they need nothing of shared/
  ["log", "keys"],
  // the settings: schema, defaults, file, stored keys
  ["config"],
  // chain feeds: connections, the endpoint layer (health, backoff, chain-id check, rate limit) and pool, the fee-history state
  ["rpc"],
  // the history store, and the backfill that fills it (through connections of its own, on rpc/'s endpoint layer)
  ["history", "backfill"],
  // one publication per chain and change
  ["service"],
  // the readers of the publications: alert rules and their channels, the HTTP server
  ["alerts", "http"],
  // the service put together, as `npm run serve` and the desktop app start it
  ["app"],
  // the command line, and the demo chain it can start
  ["cli", "demo"],
];

/**
 * What breaks the layering among `files` (path → text, paths as `shared/<folder>/…`): each import of a folder above
 * the importer's, each file in a folder no layer holds, and each import cycle among the files (named by the files
 * going round it, whatever their folders).
 */
function architectureFindings(files: ReadonlyMap<string, string>, layers: readonly (readonly string[])[] = LAYERS): string[] {
  const levelOf = (path: string) => {
    const folder = /^shared\/([^/]+)\//.exec(path)?.[1];
    const level = layers.findIndex((folders) => folders.includes(folder ?? ""));
    return level === -1 ? undefined : { folder: folder!, level };
  };
  const findings: string[] = [];
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const from = levelOf(file);
    if (from === undefined) findings.push(`${file} is in a folder that no layer holds: place it in LAYERS`);
    const targets: string[] = [];
    for (const { specifier } of importsOf(text)) {
      const target = resolveRelative(file, specifier);
      if (target === undefined || !target.startsWith("shared/")) continue;
      targets.push(target);
      const to = levelOf(target);
      if (from !== undefined && to !== undefined && to.level > from.level)
        findings.push(`${file} (${from.folder}) imports ${target} (${to.folder}), a layer above`);
    }
    graph.set(file, targets);
  }
  for (const { cycle, group } of importCycles(graph)) {
    const others = group.filter((file) => !cycle.includes(file));
    findings.push(`import cycle: ${cycle.join(" → ")}${others.length > 0 ? ` (going round with it too: ${others.join(", ")})` : ""}`);
  }
  return findings;
}

/**
 * Each group of files that import each other round (a strongly connected component, by Tarjan's algorithm), sorted,
 * with one cycle through it: from its first file, the shortest way back. Imports of files outside `graph` are left out.
 */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): Array<{ cycle: string[]; group: string[] }> {
  const edgesOf = (file: string) => (graph.get(file) ?? []).filter((target) => graph.has(target));
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of edgesOf(file)) {
      if (!index.has(target)) {
        visit(target);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(target)!));
      } else if (onStack.has(target)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(target)!));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || edgesOf(file).includes(file)) groups.push(group);
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return groups.map((group) => {
    const sorted = group.sort();
    return { cycle: shortestWayRound(sorted[0]!, new Set(sorted), edgesOf), group: sorted };
  });
}

/** The files from `start` back to it through `group`, by a breadth-first search; `start` at both ends. */
function shortestWayRound(start: string, group: ReadonlySet<string>, edgesOf: (file: string) => string[]): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let at = 0; at < queue.length; at++) {
    const file = queue[at]!;
    for (const target of edgesOf(file).sort()) {
      if (!group.has(target)) continue;
      if (target === start) {
        const way = [start];
        for (let step: string | undefined = file; step !== start && step !== undefined; step = cameFrom.get(step)) way.splice(1, 0, step);
        return [...way, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

test("shared/'s files import only their own layer and those below, and no import goes round in a cycle", () => {
  // Tests are left out: nothing imports them, and a test may take fixtures from any layer (a core test replays the demo's fees).
  const files = new Map(sourceFiles("shared").map((path) => [path, readFileSync(path, "utf8")]));
  assert.ok(files.size > 100, "the check reads shared/");
  assert.deepEqual(architectureFindings(files), []);
});

test("the check finds an upward import, a type-only one too, a file outside the layers, and a cycle among files of one folder", () => {
  const planted = new Map([
    ["shared/core/fees/a.ts", 'import { b } from "./b.ts";\nimport type { ChainPublication } from "../../service/chainPublication.ts";'],
    ["shared/core/fees/b.ts", 'import { c } from "./c.ts";'],
    ["shared/core/fees/c.ts", 'export { a } from "./a.ts";\nimport { d } from "./d.ts";'],
    ["shared/core/fees/d.ts", 'import { c } from "./c.ts";'],
    ["shared/http/routes.ts", 'import { ALERTS_ROUTE } from "./alertsRoute.ts";\nimport { AlertService } from "../alerts/alertService.ts";'],
    ["shared/http/alertsRoute.ts", 'import { logger } from "../log/logger.ts";'],
    ["shared/rpc/feed.ts", 'import { store } from "../history/store.ts";'],
    ["shared/extra/x.ts", 'import { a } from "../core/fees/a.ts";'],
  ]);
  assert.deepEqual(architectureFindings(planted), [
    "shared/core/fees/a.ts (core) imports shared/service/chainPublication.ts (service), a layer above",
    "shared/rpc/feed.ts (rpc) imports shared/history/store.ts (history), a layer above",
    "shared/extra/x.ts is in a folder that no layer holds: place it in LAYERS",
    "import cycle: shared/core/fees/a.ts → shared/core/fees/b.ts → shared/core/fees/c.ts → shared/core/fees/a.ts (going round with it too: shared/core/fees/d.ts)",
  ]);
});

test("the check finds a cycle between two folders of one level, and one through a file that imports itself", () => {
  const planted = new Map([
    ["shared/http/server.ts", 'import { AlertSource } from "../alerts/alertSource.ts";'],
    ["shared/alerts/alertSource.ts", 'import type { Route } from "../http/routeTypes.ts";'],
    ["shared/http/routeTypes.ts", 'import type { ServerResources } from "./server.ts";'],
    ["shared/log/logger.ts", 'import { createLogger } from "./logger.ts";'],
  ]);
  assert.deepEqual(architectureFindings(planted), [
    "import cycle: shared/alerts/alertSource.ts → shared/http/routeTypes.ts → shared/http/server.ts → shared/alerts/alertSource.ts",
    "import cycle: shared/log/logger.ts → shared/log/logger.ts",
  ]);
});

/** Every TypeScript source file under `dir`, tests left out. */
function sourceFiles(dir: string): string[] {
  return filesUnder(dir).filter(isSourceFile);
}
