// The request examples of the project's Markdown (README.md and docs/), read from the Markdown itself, so that an
// example added to a page is checked without editing a test (test/integration/docsExamples.test.ts runs them against
// the demo). What counts as an example, and how a page marks one, is said in docs/testing.md ("The docs' examples"):
//
// - a request: a line of a fenced block that starts with `curl`, or an inline code span `curl … $BASE/…`;
// - its shown answer: JSON in the line's trailing `# comment` (`{…}` or `[…]`, `...` standing for what is left out),
//   or a fenced block just after `<!-- example: answer to <curl command> -->`;
// - `<!-- example: not-run because <reason> -->` just before a fenced block: its requests and answer are not run
//   (counted as skipped), for examples that cannot run against the demo (a real chain, a webhook);
// - every ```json block carries one of the two markers, so that an answer cannot be left unchecked by forgetting one.

/** Where an example is, for messages: `docs/api.md:43`. */
export interface DocPlace {
  readonly file: string;
  readonly line: number;
}

export interface DocRequest {
  readonly place: DocPlace;
  /** The command as written (without its comment). */
  readonly command: string;
  /** The answer shown in the line's comment, as written, if any. */
  readonly inlineAnswer?: string;
}

export interface DocAnswerBlock {
  readonly place: DocPlace;
  /** The request it answers, as the marker writes it. */
  readonly command: string;
  /** The fenced block's info string (`json`, or empty) and its text. */
  readonly lang: string;
  readonly text: string;
}

export interface DocSkipped {
  readonly place: DocPlace;
  readonly reason: string;
  /** What the marked block holds: its requests, or an answer block. */
  readonly what: string;
}

export interface DocExamples {
  readonly requests: DocRequest[];
  readonly answers: DocAnswerBlock[];
  readonly skipped: DocSkipped[];
  /** Pages' mistakes in marking: a json block without a marker, a marker not followed by a block, an unknown marker. */
  readonly problems: string[];
}

const MARKER = /^<!--\s*example:\s*(.*?)\s*-->$/;
const ANSWER_TO = /^answer to (curl .+)$/;
const NOT_RUN = /^not-run because (.+)$/;

/** A curl line's trailing comment: `#` after white space, outside quotes. */
function splitComment(line: string): { command: string; comment?: string } {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && i > 0 && /\s/.test(line[i - 1]!)) return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
  }
  return { command: line.trim() };
}

/** The first balanced `{…}` or `[…]` of a comment (strings respected), or undefined. */
export function jsonInComment(comment: string): string | undefined {
  const start = comment.search(/[[{]/);
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < comment.length; i++) {
    const c = comment[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return comment.slice(start, i + 1);
    }
  }
  return undefined;
}

/** Reads one page's examples. */
export function readDocExamples(file: string, markdown: string): DocExamples {
  const lines = markdown.split("\n");
  const requests: DocRequest[] = [];
  const answers: DocAnswerBlock[] = [];
  const skipped: DocSkipped[] = [];
  const problems: string[] = [];
  let pending: { place: DocPlace; marker: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const place = { file, line: i + 1 };
    const marker = MARKER.exec(line.trim());
    if (marker) {
      if (pending) problems.push(`${where(pending.place)}: the example marker is not followed by a fenced block`);
      pending = { place, marker: marker[1]! };
      if (!ANSWER_TO.test(pending.marker) && !NOT_RUN.test(pending.marker)) {
        problems.push(`${where(place)}: unknown example marker "${pending.marker}" (use "answer to curl …" or "not-run because …")`);
        pending = undefined;
      }
      continue;
    }
    const fence = /^(\s*)```(\S*)\s*$/.exec(line);
    if (fence) {
      const lang = fence[2]!;
      const body: string[] = [];
      const bodyStart = i + 1;
      for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
      const text = body.join("\n");
      const answerTo = pending && ANSWER_TO.exec(pending.marker);
      const notRun = pending && NOT_RUN.exec(pending.marker);
      if (answerTo) answers.push({ place, command: answerTo[1]!, lang, text });
      else if (notRun) {
        const curls = body.filter((bodyLine) => bodyLine.trim().startsWith("curl "));
        skipped.push({
          place,
          reason: notRun[1]!,
          what: curls.length > 0 ? `${curls.length} request(s)` : `a ${lang || "plain"} block`,
        });
      } else {
        if (lang === "json") problems.push(`${where(place)}: a json block without an example marker ("answer to curl …" or "not-run because …")`);
        body.forEach((bodyLine, offset) => {
          if (!bodyLine.trim().startsWith("curl ")) return;
          const { command, comment } = splitComment(bodyLine);
          const inlineAnswer = comment === undefined ? undefined : jsonInComment(comment);
          requests.push({ place: { file, line: bodyStart + offset + 1 }, command, ...(inlineAnswer === undefined ? {} : { inlineAnswer }) });
        });
      }
      pending = undefined;
      continue;
    }
    if (pending && line.trim() !== "") {
      problems.push(`${where(pending.place)}: the example marker is not followed by a fenced block`);
      pending = undefined;
    }
    // Inline code spans that are requests: `curl … $BASE/…`.
    for (const span of line.matchAll(/`(curl [^`]*\$BASE\/[^`]*)`/g)) requests.push({ place, command: span[1]!.trim() });
  }
  if (pending) problems.push(`${where(pending.place)}: the example marker is not followed by a fenced block`);
  return { requests, answers, skipped, problems };
}

export function where(place: DocPlace): string {
  return `${place.file}:${place.line}`;
}

/** A curl command as the test runs it. */
export interface CurlRequest {
  readonly url: string;
  /** `-u user:password`, after substitution. */
  readonly user?: string;
  /** `-N`: a stream; only its status and headers are read. */
  readonly stream: boolean;
  /** `-i`: the answer is shown with its headers. */
  readonly withHeaders: boolean;
}

/** Shell-like words: double and single quotes, `$NAME` substituted from `vars` (unknown names are an error). */
function words(command: string, vars: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  let current = "";
  let started = false;
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else current += c;
    } else if (c === "$" && /[A-Z_]/.test(command[i + 1] ?? "")) {
      const name = /^[A-Z_][A-Z0-9_]*/.exec(command.slice(i + 1))![0];
      const value = vars[name];
      if (value === undefined) throw new Error(`the example uses $${name}, which the test does not know`);
      current += value;
      started = true;
      i += name.length;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      started = true;
    } else if (/\s/.test(c)) {
      if (started) out.push(current);
      current = "";
      started = false;
    } else {
      current += c;
      started = true;
    }
  }
  if (quote) throw new Error("an unclosed quote");
  if (started) out.push(current);
  return out;
}

/** Reads a curl command of the docs, `$KEY`, `$SECRET` and `$BASE` substituted; options the test does not know are an error. */
export function parseCurl(command: string, vars: Readonly<Record<string, string>>): CurlRequest {
  const [curl, ...args] = words(command, vars);
  if (curl !== "curl") throw new Error(`not a curl command: ${command}`);
  let url: string | undefined;
  let user: string | undefined;
  let stream = false;
  let withHeaders = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-u") user = args[++i];
    else if (arg === "-N") stream = true;
    else if (arg === "-i") withHeaders = true;
    else if (arg === "-s") continue;
    else if (arg === ">")
      i++; // the answer written to a file: read here instead
    else if (arg.startsWith("-")) throw new Error(`curl option ${arg}: the docs' example test does not know it (test/support/docExamples.ts)`);
    else if (url === undefined) url = arg;
    else throw new Error(`a second URL: ${arg}`);
  }
  if (url === undefined) throw new Error(`no URL in ${command}`);
  return { url, stream, withHeaders, ...(user === undefined ? {} : { user }) };
}
