// The API contract as the tests read it: ../shared/CONTRACT.md beside the repository, parsed here (its error table, the
// endpoints it names and how each is authenticated), so that a completeness test compares the server with the contract
// rather than with the server's own tables. Where the repository is checked out alone (a CI runner), the copy committed
// beside this file stands in; test/contractCopy.test.ts fails wherever the two differ. What the contract names and no issue has built yet is listed below as
// pending, with the issue that will build it; everything else must be built.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where the contract lives: beside the repository (`../shared/CONTRACT.md` from its root). */
export const CONTRACT_PATH = fileURLToPath(new URL("../../../shared/CONTRACT.md", import.meta.url));
/** Its copy in the repository, read where the contract itself is not checked out beside it. */
export const CONTRACT_COPY_PATH = fileURLToPath(new URL("./contract/CONTRACT.md", import.meta.url));

export interface ContractErrorRow {
  readonly code: string;
  readonly statusCode: number;
  /** Headers the row requires (`401 + WWW-Authenticate: ...`), by name, with the value when the contract gives one. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The row's first cell: when it is answered. */
  readonly when: string;
}

export interface ContractRoute {
  /** The path in the contract's notation, `{chainId}` and `{apiKey}` as parameters, without a query. */
  readonly path: string;
  readonly auth: "none" | "key";
}

export interface ApiContract {
  readonly errors: readonly ContractErrorRow[];
  /** Every GET path the contract names, the `/v3/{apiKey}` forms it asks for included. */
  readonly routes: readonly ContractRoute[];
}

/** Contract endpoints not built yet, by path (their `/v3/{apiKey}` forms follow them), with the issue that builds each. */
export const PENDING_ROUTES: Readonly<Record<string, string>> = {};

/** Contract error rows not built yet, by code, with the issue that builds each. */
export const PENDING_ERROR_CODES: Readonly<Record<string, string>> = {};

const KEY_PATH_PREFIX = "/v3/{apiKey}";

/** The issue that will build `path` (a contract path, in either form), or undefined when it must be built now. */
export function pendingIssueOf(path: string): string | undefined {
  return PENDING_ROUTES[path.startsWith(`${KEY_PATH_PREFIX}/`) ? path.slice(KEY_PATH_PREFIX.length) : path];
}

/**
 * Reads and parses the contract (its copy where it is not beside the repository); throws, saying where it was looked
 * for, when neither is there.
 */
export function readApiContract(path = existsSync(CONTRACT_PATH) ? CONTRACT_PATH : CONTRACT_COPY_PATH): ApiContract {
  if (!existsSync(path)) {
    throw new Error(
      `The API contract is missing: it is read from ${path} (../shared/CONTRACT.md beside the repository). ` +
        "Check it out beside this repository; the completeness tests compare the server with it.",
    );
  }
  return parseApiContract(readFileSync(path, "utf8"));
}

/** The contract's error table and endpoints, from its Markdown; throws when a part the tests need cannot be found. */
export function parseApiContract(markdown: string): ApiContract {
  const sections = sectionsOf(markdown);
  const errorsSection = sections.get("Errors");
  if (errorsSection === undefined) throw new Error('The contract has no "## Errors" section: the error table cannot be read.');
  const errors = errorRowsOf(errorsSection);
  if (errors.length === 0) throw new Error('The contract\'s "## Errors" section has no table rows.');
  return { errors, routes: routesOf(markdown) };
}

/** The text of each `## ` section, by its heading. */
function sectionsOf(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  let heading: string | undefined;
  let lines: string[] = [];
  for (const line of [...markdown.split("\n"), "## "]) {
    if (line.startsWith("## ")) {
      if (heading !== undefined) sections.set(heading, lines.join("\n"));
      heading = line.slice(3).trim();
      lines = [];
    } else lines.push(line);
  }
  return sections;
}

/** Rows of a `| case | status | code |` table: the status may carry headers (`401 + \`WWW-Authenticate: ...\``). */
function errorRowsOf(section: string): ContractErrorRow[] {
  const rows: ContractErrorRow[] = [];
  for (const line of section.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    if (cells.length < 5 || cells[0] !== "") continue;
    const [, when = "", status = "", codeCell = ""] = cells;
    const statusCode = /^(\d{3})\b/.exec(status)?.[1];
    const code = /`([A-Z][A-Z_]+)`/.exec(codeCell)?.[1];
    if (statusCode === undefined || code === undefined) continue;
    const headers: Record<string, string | undefined> = {};
    for (const [, header = ""] of status.matchAll(/`([^`]+)`/g)) {
      const colon = header.indexOf(":");
      if (colon < 0) headers[header.trim()] = undefined;
      else headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    }
    rows.push({ code, statusCode: Number(statusCode), headers, when });
  }
  return rows;
}

/**
 * The contract's endpoints. Every `` `GET /path` `` it writes is one; an item (a list item or table row, with its
 * continuation lines) that says "no key" names endpoints that need none, and so does the authentication rule
 * ("`/healthz` ..., `/openapi.json` ... need no key"), which also names /healthz. The key-in-path form
 * (`/v3/{apiKey}/networks/{chainId}/...`) is asked for every keyed endpoint under /networks/{chainId}/, and for the
 * endpoints of an item that names a `/v3/{key}/...` form itself (the event streams).
 */
function routesOf(markdown: string): ContractRoute[] {
  const routes = new Map<string, ContractRoute>();
  const add = (path: string, auth: ContractRoute["auth"]) => {
    const known = routes.get(path);
    if (known !== undefined && known.auth !== auth) throw new Error(`The contract names ${path} both with and without a key.`);
    routes.set(path, { path, auth });
  };
  let keyPathForChainRoutes = false;
  for (const item of itemsOf(markdown)) {
    if (/^Path form: `\/v3\/\{apiKey\}\/networks\/\{chainId\}\/\.\.\.`/.test(item)) keyPathForChainRoutes = true;
    const noKeyRule = /^(.*)\bneed no key\b/.exec(item);
    if (noKeyRule) {
      for (const [, path = ""] of (noKeyRule[1] ?? "").matchAll(/`(\/[^`\s]*)`/g)) add(path, "none");
      continue;
    }
    const paths = [...item.matchAll(/`GET (\/[^`\s?]*)/g)].map(([, path = ""]) => path);
    if (paths.length === 0) continue;
    const auth = /\bno key\b/.test(item) ? "none" : "key";
    const inPathToo = /`\/v3\/\{[A-Za-z]+\}\/\.\.\.`/.test(item);
    for (const path of paths) {
      add(path, auth);
      if (inPathToo) add(`${KEY_PATH_PREFIX}${path}`, auth);
    }
  }
  if (!keyPathForChainRoutes) throw new Error("The contract's key-in-path form (`Path form: /v3/{apiKey}/networks/{chainId}/...`) was not found.");
  for (const route of [...routes.values()]) {
    if (route.auth === "key" && route.path.startsWith("/networks/{chainId}/")) add(`${KEY_PATH_PREFIX}${route.path}`, "key");
  }
  if (routes.size === 0) throw new Error("The contract names no `GET /path` endpoint.");
  return [...routes.values()];
}

/**
 * List items, table rows and paragraph lines (an endpoint may be introduced by a line of its own, "`GET /path` (same
 * auth...):"), each list item with its continuation lines joined (indented lines under it).
 */
function itemsOf(markdown: string): string[] {
  const items: string[] = [];
  for (const line of markdown.split("\n")) {
    if (/^- /.test(line)) items.push(line.slice(2));
    else if (/^\|/.test(line)) items.push(line);
    else if (/^ {2,}\S/.test(line) && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
    else items.push(/^\S/.test(line) && !line.startsWith("#") ? line : "");
  }
  return items.filter((item) => item !== "");
}
