// How an answer shown in the docs is compared with the one the service gives (test/integration/docsExamples.test.ts):
// the shape always (the same keys, the same types, arrays at least as long as shown), the value where it is fixed.
// Values that move with the chain or the run are compared by type only: numbers (but the fixed ones of FIXED_NUMBERS),
// strings that are numbers (Gwei, wei, block numbers, money), dates, URLs (their ports), hex strings of 32 characters
// (keys, tokens, ETags). Every other string is compared exactly: codes, messages, names, states, units.

/**
 * Strings that move with the run although they are words: an endpoint's state (a loaded machine may see its WebSocket
 * drop and the feed fail over, so "ok" and "unknown" trade places). Matched against the value's path.
 */
const MOVING_PATHS = [/\.endpoints\[\d+\]\.state$/];

/**
 * Keys an object may have or not depending on the run, by the object's path: an endpoint's `reportedChainId`,
 * `lastError`, `retryAt` and `setAsideFor` are there "where known" (api.md), as its checks and failures go.
 */
const OPTIONAL_KEYS: readonly { readonly path: RegExp; readonly keys: ReadonlySet<string> }[] = [
  { path: /\.endpoints\[\d+\]$/, keys: new Set(["reportedChainId", "lastError", "retryAt", "setAsideFor"]) },
];

function optionalKey(path: string, name: string): boolean {
  return OPTIONAL_KEYS.some((optional) => optional.path.test(path) && optional.keys.has(name));
}

/** What stands for the elements or keys a page leaves out: `...` before the closing bracket. */
const MORE = "\u2026more";

/** The keys whose numbers are fixed for the demo (and would show a drift): everything else numeric moves. */
const FIXED_NUMBERS = new Set(["statusCode", "chainId", "feedChainId", "reportedChainId", "historyBlocks", "blockTimeMs", "txBytes"]);

/** JSON as a page shows it: `...` before a closing bracket means "and more" (`[a, b, ...]`, `{"code": …, ...}`). */
export function parseShownJson(text: string): unknown {
  const marked = text.replace(/(,\s*)?\.\.\.\s*([}\]])/g, (_match, comma: string | undefined, close: string) => {
    const more = close === "}" ? `"${MORE}":true` : `"${MORE}"`;
    return `${comma ? "," : ""}${more}${close}`;
  });
  return JSON.parse(marked);
}

function movingString(value: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(value) || /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value) || /^[a-z]+:\/\//.test(value) || /^[0-9a-f]{32}$/.test(value);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The differences between a shown JSON value and the actual one, each naming its path (`$.history.store.state`). */
export function compareJson(shown: unknown, actual: unknown, path = "$", key = ""): string[] {
  const shownType = typeOf(shown);
  const actualType = typeOf(actual);
  if (shownType !== actualType) return [`${path}: shown as ${shownType} ${JSON.stringify(shown)}, answered ${actualType} ${JSON.stringify(actual)}`];
  if (Array.isArray(shown)) {
    const answered = actual as unknown[];
    const partial = shown.at(-1) === MORE;
    const elements = partial ? shown.slice(0, -1) : shown;
    if (answered.length < elements.length) return [`${path}: shown with ${elements.length} element(s), answered ${answered.length}`];
    return elements.flatMap((element, index) => compareJson(element, answered[index], `${path}[${index}]`, key));
  }
  if (shownType === "object") {
    const shownObject = shown as Record<string, unknown>;
    const answered = actual as Record<string, unknown>;
    const partial = shownObject[MORE] === true;
    const shownKeys = Object.keys(shownObject).filter((name) => name !== MORE);
    const problems: string[] = [];
    for (const name of shownKeys) {
      if (!(name in answered)) {
        if (!optionalKey(path, name)) problems.push(`${path}.${name}: shown, not answered`);
      } else problems.push(...compareJson(shownObject[name], answered[name], `${path}.${name}`, name));
    }
    if (!partial)
      for (const name of Object.keys(answered)) if (!(name in shownObject) && !optionalKey(path, name)) problems.push(`${path}.${name}: answered, not shown`);
    return problems;
  }
  if (typeof shown === "string" && !movingString(shown) && !MOVING_PATHS.some((moving) => moving.test(path)) && shown !== actual)
    return [`${path}: shown ${JSON.stringify(shown)}, answered ${JSON.stringify(actual)}`];
  if (typeof shown === "number" && FIXED_NUMBERS.has(key) && shown !== actual) return [`${path}: shown ${shown}, answered ${String(actual)}`];
  return [];
}

/** Headers whose values move with the data or the run; every other header shown is compared by its value. */
const MOVING_HEADERS = new Set([
  "x-block-number",
  "x-data-age-ms",
  "last-modified",
  "x-stats-blocks",
  "x-stats-from-block",
  "x-stats-to-block",
  "etag",
  "content-length",
  "date",
]);

/** An answer shown with `curl -i`: its status line, its headers (each must be sent), then its body. */
export function splitHttpAnswer(text: string): { status: number; headers: Array<[string, string]>; body: string } {
  const [head, ...rest] = text.split(/\n\s*\n/);
  const [statusLine, ...headerLines] = head!.split("\n");
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine!);
  if (!status) throw new Error(`not an HTTP status line: ${statusLine}`);
  const headers = headerLines.map((line): [string, string] => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
  });
  return { status: Number(status[1]), headers, body: rest.join("\n\n") };
}

export function compareHeaders(shown: ReadonlyArray<[string, string]>, actual: Headers): string[] {
  return shown.flatMap(([name, value]) => {
    const answered = actual.get(name);
    if (answered === null) return [`header ${name}: shown, not answered`];
    if (!MOVING_HEADERS.has(name.toLowerCase()) && answered !== value) return [`header ${name}: shown "${value}", answered "${answered}"`];
    return [];
  });
}

/** Prometheus' text: each `# HELP`/`# TYPE` line shown is answered as it is; each sample shown has a sample of the same name and labels. */
export function comparePrometheus(shown: string, actual: string): string[] {
  const answered = actual.split("\n");
  const samples = new Set(answered.filter((line) => line !== "" && !line.startsWith("#")).map((line) => line.slice(0, line.lastIndexOf(" "))));
  return shown
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      if (line.startsWith("#")) return answered.includes(line) ? [] : [`metrics line not answered: ${line}`];
      const series = line.slice(0, line.lastIndexOf(" "));
      return samples.has(series) ? [] : [`no sample of ${series} (as shown: ${line})`];
    });
}

/** A cell's kind, for a CSV shown: empty, a number, or else its text. */
function cellKind(cell: string): string {
  if (cell === "") return "empty";
  if (/^\d+(\.\d+)?$/.test(cell)) return "number";
  return `"${cell}"`;
}

/** A CSV shown: its header line as answered, and each row shown with the cells of the answer's row at that place (by kind). */
export function compareCsv(shown: string, actual: string): string[] {
  const [shownHeader, ...shownRows] = shown.trim().split("\n");
  const [header, ...rows] = actual.trim().split("\n");
  if (shownHeader !== header) return [`CSV header shown "${shownHeader}", answered "${header}"`];
  return shownRows.flatMap((row, index) => {
    const kinds = row.split(",").map(cellKind).join(",");
    const answered = (rows[index] ?? "").split(",").map(cellKind).join(",");
    return kinds === answered ? [] : [`CSV row ${index + 1}: shown ${row} (${kinds}), answered ${rows[index]} (${answered})`];
  });
}
