import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
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
 * A tree's folders in layers, from the bottom up: the folders directly under `root`, with "." naming the files at the
 * root itself. With `siblingsApart`, the folders of one level may not use each other either.
 */
interface Layering {
  readonly root: string;
  readonly layers: readonly (readonly string[])[];
  readonly siblingsApart?: boolean;
}

const SHARED: Layering = { root: "shared", layers: LAYERS };

/**
 * What breaks the layering among `files` (path → text, paths as `<root>/<folder>/…`): each import of a folder above
 * the importer's (or, with `siblingsApart`, of another folder of its level), each file in a folder no layer holds, and
 * each import cycle among the files (named by the files going round it, whatever their folders). Imports that leave
 * `root` are left to the other checks.
 */
function architectureFindings(files: ReadonlyMap<string, string>, { root, layers, siblingsApart = false }: Layering = SHARED): string[] {
  const levelOf = (path: string) => {
    if (!path.startsWith(`${root}/`)) return undefined;
    const rest = path.slice(root.length + 1);
    const folder = rest.includes("/") ? rest.slice(0, rest.indexOf("/")) : ".";
    const level = layers.findIndex((folders) => folders.includes(folder));
    return level === -1 ? { folder, level: undefined } : { folder, level };
  };
  const findings: string[] = [];
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const from = levelOf(file);
    if (from?.level === undefined) findings.push(`${file} is in a folder that no layer holds: place it in the layers`);
    const targets: string[] = [];
    for (const { specifier } of importsOf(text)) {
      const target = resolveRelative(file, specifier);
      if (target === undefined || !target.startsWith(`${root}/`)) continue;
      targets.push(target);
      const to = levelOf(target);
      if (from?.level === undefined || to?.level === undefined || to.folder === from.folder) continue;
      if (to.level > from.level) findings.push(`${file} (${from.folder}) imports ${target} (${to.folder}), a layer above`);
      else if (siblingsApart && to.level === from.level) findings.push(`${file} (${from.folder}) imports ${target} (${to.folder}), a folder beside its own`);
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
    ["shared/http/routes.ts", 'import { ALERTS_ROUTE } from "./routes/alertsRoute.ts";\nimport { AlertService } from "../alerts/alertService.ts";'],
    ["shared/http/routes/alertsRoute.ts", 'import { logger } from "../../log/logger.ts";'],
    ["shared/rpc/feed.ts", 'import { store } from "../history/store.ts";'],
    ["shared/extra/x.ts", 'import { a } from "../core/fees/a.ts";'],
  ]);
  assert.deepEqual(architectureFindings(planted), [
    "shared/core/fees/a.ts (core) imports shared/service/chainPublication.ts (service), a layer above",
    "shared/rpc/feed.ts (rpc) imports shared/history/store.ts (history), a layer above",
    "shared/extra/x.ts is in a folder that no layer holds: place it in the layers",
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

/**
 * renderer/src's folders from the bottom up. Each panel's component, hooks, words and CSS share a folder; a panel takes
 * the shared words, the shared chart parts and the live feed below it, and never the folder of a panel of its own level.
 * Two panels sit lower than the rest because others read their data (an exception to "panels stay apart", stated here):
 * costs/ holds the money per action that the history chart, the heatmap and the chain tiles show; history/ holds the
 * stats store and the chart range that the heatmap, the blob view and the chain tiles share. The page (App.tsx and
 * the chain's view, at the root) puts the panels together. The renderer's imports of shared/ and electron/ are
 * test/rendererImports.test.ts's rules.
 */
const RENDERER: Layering = {
  root: "renderer/src",
  siblingsApart: true,
  layers: [
    // words and numbers in plain text, used by several panels
    ["text"],
    // the chart parts every chart uses: frame, ticks, axes, tooltip, legend, hover, the bands of stats lines
    ["chart"],
    // the connection, the data client, the live feed and chain state, and the live fee chart drawn from them
    ["live"],
    // what an action costs in money (read by history, heatmap and chains)
    ["costs"],
    // the base fee's past: stats store, ranges, the history chart (read by heatmap, blob and chains)
    ["history"],
    // the panels, apart from each other
    ["alerts", "api", "backfill", "blob", "chains", "heatmap", "outlook", "settings"],
    // the page that puts them together, and the entry point
    ["."],
  ],
};

/**
 * What electron/ may take from shared/ at run time: the service as shared/app starts it, and what the shell needs
 * around it (settings, API keys and their cipher, the logger, the wire's shapes, pure computation). Types may come
 * from anywhere in shared/: they are erased. The service's insides (rpc, history, backfill, the publications, the
 * server) are reached through shared/app, never directly; but for the files below, each named with why the shell
 * uses it rather than a copy of its own.
 */
const ELECTRON_SHARED_FOLDERS = ["app", "config", "core", "keys", "log", "wire"];
const ELECTRON_SHARED_FILES: ReadonlyMap<string, string> = new Map([
  ["shared/http/dashboardCsp.ts", "the window's content security policy is the served dashboard's: one policy"],
  ["shared/http/contentTypes.ts", "the app:// protocol serves the dashboard's files with the server's content types"],
  ["shared/http/costAnswers.ts", "the tray's cost is the costs endpoint's answer, computed in one place"],
  ["shared/alerts/loadAlertRules.ts", "the settings page checks and counts alert rules as the service loads them"],
  ["shared/service/chainPlan.ts", "the settings page and the service host plan chains as the service does"],
]);

/** What electron/'s `files` import against the rule above or from renderer/, and each import cycle among them. */
function electronFindings(files: ReadonlyMap<string, string>): string[] {
  const findings: string[] = [];
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const targets: string[] = [];
    for (const { specifier, typeOnly } of importsOf(text)) {
      const target = resolveRelative(file, specifier);
      if (target === undefined) continue;
      if (target.startsWith("electron/")) targets.push(target);
      if (target.startsWith("renderer/")) findings.push(`${file} imports ${target}: the shell never takes from the page`);
      const folder = /^shared\/([^/]+)\//.exec(target)?.[1];
      if (folder === undefined || typeOnly || ELECTRON_SHARED_FOLDERS.includes(folder) || ELECTRON_SHARED_FILES.has(target)) continue;
      findings.push(`${file} imports ${target}: electron/ takes from shared/ only ${ELECTRON_SHARED_FOLDERS.join(", ")} and the files named`);
    }
    graph.set(file, targets);
  }
  for (const { cycle } of importCycles(graph)) findings.push(`import cycle: ${cycle.join(" → ")}`);
  return findings;
}

test("renderer/src's folders keep their layers: panels take text/, chart/, live/ and the panels read by others, never each other; no cycle", () => {
  const files = new Map(sourceFiles("renderer/src").map((path) => [path, readFileSync(path, "utf8")]));
  assert.ok(files.size > 50, "the check reads renderer/src");
  assert.deepEqual(architectureFindings(files, RENDERER), []);
});

test("the renderer check finds a panel reaching into another, a lower folder reaching up, a file outside the layers, and a cycle", () => {
  const planted = new Map([
    ["renderer/src/heatmap/CheapestHours.tsx", 'import { BlobView } from "../blob/BlobView.tsx";\nimport { format } from "../text/format.ts";'],
    ["renderer/src/blob/BlobView.tsx", 'import { statsStore } from "../history/statsStore.ts";\nimport type { CostsPanel } from "../costs/CostsPanel.tsx";'],
    ["renderer/src/chart/ChartTooltip.tsx", 'import { dataClient } from "../live/dataClient.ts";'],
    ["renderer/src/live/dataClient.ts", 'import { App } from "../App.tsx";'],
    ["renderer/src/App.tsx", 'import { dataClient } from "./live/dataClient.ts";'],
    ["renderer/src/misc/x.ts", 'import { format } from "../text/format.ts";'],
  ]);
  assert.deepEqual(architectureFindings(planted, RENDERER), [
    "renderer/src/heatmap/CheapestHours.tsx (heatmap) imports renderer/src/blob/BlobView.tsx (blob), a folder beside its own",
    "renderer/src/chart/ChartTooltip.tsx (chart) imports renderer/src/live/dataClient.ts (live), a layer above",
    "renderer/src/live/dataClient.ts (live) imports renderer/src/App.tsx (.), a layer above",
    "renderer/src/misc/x.ts is in a folder that no layer holds: place it in the layers",
    "import cycle: renderer/src/App.tsx → renderer/src/live/dataClient.ts → renderer/src/App.tsx",
  ]);
});

test("electron/ takes from shared/ only what the shell needs, nothing from renderer/, and no import goes round in a cycle", () => {
  const files = new Map(sourceFiles("electron").map((path) => [path, readFileSync(path, "utf8")]));
  assert.ok(files.size > 15, "the check reads electron/");
  assert.deepEqual(electronFindings(files), []);
  for (const file of ELECTRON_SHARED_FILES.keys()) assert.ok(existsSync(file), `${file}, named as an exception, exists`);
});

test("the electron check finds a value from a folder of shared/ outside the rule, an import of the page, and a cycle", () => {
  const planted = new Map([
    [
      "electron/main/tray.ts",
      [
        'import { startService } from "../../shared/app/startService.ts";',
        'import { costsBody } from "../../shared/http/costAnswers.ts";',
        'import type { ChainPublication } from "../../shared/service/chainPublication.ts";',
        'import { openHistoryStore } from "../../shared/history/historyStore.ts";',
        'import { createApiServer } from "../../shared/http/server.ts";',
        'import { format } from "../../renderer/src/text/format.ts";',
        'import { window } from "./window.ts";',
      ].join("\n"),
    ],
    ["electron/main/window.ts", 'import { tray } from "./tray.ts";'],
  ]);
  assert.deepEqual(electronFindings(planted), [
    "electron/main/tray.ts imports shared/history/historyStore.ts: electron/ takes from shared/ only app, config, core, keys, log, wire and the files named",
    "electron/main/tray.ts imports shared/http/server.ts: electron/ takes from shared/ only app, config, core, keys, log, wire and the files named",
    "electron/main/tray.ts imports renderer/src/text/format.ts: the shell never takes from the page",
    "import cycle: electron/main/tray.ts → electron/main/window.ts → electron/main/tray.ts",
  ]);
});

/** Every TypeScript source file under `dir`, tests left out. */
function sourceFiles(dir: string): string[] {
  return filesUnder(dir).filter(isSourceFile);
}
