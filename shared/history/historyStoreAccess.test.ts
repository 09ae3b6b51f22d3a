// The history file as the user's system hands it over: read-only, or damaged inside its pages. Each is refused at
// open with a message that says what is wrong and what to do, and the file is left exactly as it was.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, linkSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, parse } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, test, type TestContext } from "node:test";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { HistoryStore } from "./historyStore.ts";
import { HistoryStoreCorruptError } from "./historyStoreErrors.ts";

const HISTORY_STORE = fileURLToPath(new URL("./historyStore.ts", import.meta.url));
/** An unprivileged user: root may write any file, so a test run as root opens the file as this one. */
const NOBODY = 65_534;
const runsAsRoot = process.getuid?.() === 0;

// Everything the child needs, in a folder of the system's temporary folder that any user may enter: the checkout may
// sit in a private folder (root's home, a mktemp -d), which nobody cannot enter. The history store bundled into one
// file (no tsx, no node_modules), and, for nobody, this Node linked or copied beside it. Removed after the tests.
const scratch = mkdtempSync(join(tmpdir(), "gasfees-history-access-"));
chmodSync(scratch, 0o755);
after(() => rmSync(scratch, { recursive: true, force: true }));
const bundledStore = join(scratch, "historyStore.mjs");
buildSync({ entryPoints: [HISTORY_STORE], bundle: true, platform: "node", format: "esm", keepNames: true, outfile: bundledStore, logLevel: "error" });
chmodSync(bundledStore, 0o644);
const childNode = runsAsRoot ? nodeNobodyMayRun() : process.execPath;
/** Why these tests cannot open the history as nobody here (a sentence for the skip), or undefined when they can. */
const cannotDropPrivileges = runsAsRoot ? whyNobodyCannotRun(childNode) : undefined;

/** This Node, linked (or copied, across file systems) into the scratch folder, executable by any user. */
function nodeNobodyMayRun(): string {
  const node = realpathSync(process.execPath);
  const copy = join(scratch, "node");
  if ((statSync(node).mode & 0o001) !== 0) {
    try {
      linkSync(node, copy);
      return copy;
    } catch {
      // Another file system: copied below.
    }
  }
  copyFileSync(node, copy);
  chmodSync(copy, 0o755);
  return copy;
}

/** Why nobody cannot run `node` on the bundled store, or undefined when it can. */
function whyNobodyCannotRun(node: string): string | undefined {
  const probe = spawnSync(node, ["-e", `require("node:fs").accessSync(${JSON.stringify(bundledStore)}, 4)`], { uid: NOBODY, gid: NOBODY, encoding: "utf8" });
  if (probe.status === 0) return undefined;
  const closed = folderClosedToNobody(bundledStore);
  const what = closed ? `nobody may not enter ${closed}` : (probe.error?.message ?? (probe.stderr.trim() || `exit status ${probe.status}`));
  return (
    `this test runs as root, so it opens the history as nobody (uid ${NOBODY}) for the file modes to count, ` +
    `and nobody cannot run Node from ${scratch} (${what}); point TMPDIR at a folder every user may enter, on a file system not mounted noexec, and run again`
  );
}

/** The first folder on the way to `path` that nobody may not enter, with its mode, or undefined when none is closed. */
function folderClosedToNobody(path: string): string | undefined {
  const folders: string[] = [];
  for (let folder = dirname(path); ; folder = dirname(folder)) {
    folders.unshift(folder);
    if (folder === parse(folder).root) break;
  }
  for (const folder of folders) {
    const { mode, uid, gid } = statSync(folder);
    const enter = uid === NOBODY ? 0o100 : gid === NOBODY ? 0o010 : 0o001;
    if ((mode & enter) === 0) return `${folder} (mode ${(mode & 0o777).toString(8).padStart(4, "0")})`;
  }
  return undefined;
}

/** A folder another user may use, when the test runs as root and opens the file as nobody. */
function temporaryFolder(): string {
  const folder = mkdtempSync(join(scratch, "history-"));
  if (runsAsRoot) chownSync(folder, NOBODY, NOBODY);
  return folder;
}

/** HistoryStore.open(file) in a process of its own (as nobody when this one is root): its error's name and message. */
function openInProcess(file: string): { name: string; message: string } {
  const script = `import(${JSON.stringify(bundledStore)}).then(({ HistoryStore }) => {
    try { HistoryStore.open(${JSON.stringify(file)}).close(); console.log(JSON.stringify({ name: "opened", message: "" })); }
    catch (error) { console.log(JSON.stringify({ name: error.name, message: error.message })); }
  });`;
  const child = spawnSync(childNode, ["--disable-warning=ExperimentalWarning", "--input-type=module", "-e", script], {
    encoding: "utf8",
    ...(runsAsRoot ? { uid: NOBODY, gid: NOBODY, env: { ...process.env, HOME: scratch } } : {}),
  });
  assert.equal(child.status, 0, child.error?.message ?? child.stderr);
  return JSON.parse(child.stdout.trim()) as { name: string; message: string };
}

/** Skips the test, saying why, when it runs as root and nobody cannot run Node here; true when it was skipped. */
function skippedWithoutNobody(t: TestContext): boolean {
  if (cannotDropPrivileges === undefined) return false;
  t.skip(cannotDropPrivileges);
  return true;
}

test("a read-only history file is named read-only, with what to do, not 'could not create'; it is left as it was", (t) => {
  if (skippedWithoutNobody(t)) return;
  const file = join(temporaryFolder(), "history.sqlite");
  const store = HistoryStore.open(file);
  store.write(1, 0n, { baseFeesWei: [1n, 2n, 3n] });
  store.close();
  if (runsAsRoot) chownSync(file, NOBODY, NOBODY);
  chmodSync(file, 0o400);
  const before = readFileSync(file);
  const { name, message } = openInProcess(file);
  assert.equal(name, "HistoryStoreReadOnlyError", message);
  assert.doesNotMatch(message, /create/i);
  assert.match(message, new RegExp(`The history database ${file} is read-only`));
  assert.match(message, /make it writable/);
  assert.deepEqual(readFileSync(file), before);
});

test("a file damaged inside its pages is refused at open and left untouched: nothing is written into it", () => {
  const file = join(temporaryFolder(), "history.sqlite");
  const store = HistoryStore.open(file);
  for (let page = 0; page < 40; page++)
    store.write(1, BigInt(page * 1_024), { baseFeesWei: Array.from({ length: 1_024 }, (_, i) => BigInt(page * 1_024 + i + 1)) });
  store.close();
  const pageSize = Number((new DatabaseSync(file, { readOnly: true }).prepare("PRAGMA page_size").get() as { page_size: number }).page_size);
  const bytes = readFileSync(file);
  // One page in the middle of the records overwritten with garbage; the schema's pages and the others are whole.
  const damaged = Math.floor(bytes.length / pageSize / 2);
  for (let at = damaged * pageSize; at < (damaged + 1) * pageSize; at++) bytes[at] = (at * 131) & 0xff;
  writeFileSync(file, bytes);
  assert.throws(
    () => HistoryStore.open(file).write(2, 0n, { baseFeesWei: [1n] }),
    (error: unknown) => error instanceof HistoryStoreCorruptError && error.message.includes(file) && /move the file aside/.test(error.message),
  );
  assert.deepEqual(readFileSync(file), bytes, "the damaged file was written into");
});

test("an -shm file this user may not write is refused at open, naming it, before SQLite maps it; the process lives on", (t) => {
  if (skippedWithoutNobody(t)) return;
  const folder = temporaryFolder();
  const file = join(folder, "history.sqlite");
  HistoryStore.open(file).close();
  if (runsAsRoot) chownSync(file, NOBODY, NOBODY);
  // Another process has the history open (its -wal and -shm files exist), and the -shm file is another user's.
  const other = new DatabaseSync(file);
  other.exec("BEGIN; SELECT count(*) FROM chains; COMMIT");
  const shm = `${file}-shm`;
  if (runsAsRoot) chownSync(shm, 0, 0);
  chmodSync(shm, 0o444);
  try {
    const { name, message } = openInProcess(file);
    assert.equal(name, "HistoryStoreReadOnlyError", message);
    assert.match(message, new RegExp(`The history database ${file} is read-only \\(its -shm file ${shm} cannot be written: EACCES`));
  } finally {
    other.close();
  }
});
