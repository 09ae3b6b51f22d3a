// The history file as the user's system hands it over: read-only, or damaged inside its pages. Each is refused at
// open with a message that says what is wrong and what to do, and the file is left exactly as it was.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { HistoryStore } from "./historyStore.ts";
import { HistoryStoreCorruptError } from "./historyStoreErrors.ts";

const HISTORY_STORE = fileURLToPath(new URL("./historyStore.ts", import.meta.url));
/** An unprivileged user: root may write any file, so a test run as root opens the file as this one. */
const NOBODY = 65_534;
const runsAsRoot = process.getuid?.() === 0;

/** A folder another user may use, when the test runs as root and opens the file as nobody. */
function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "gasfees-history-access-"));
  if (runsAsRoot) chownSync(folder, NOBODY, NOBODY);
  return folder;
}

/** HistoryStore.open(file) in a process of its own (as nobody when this one is root): its error's name and message. */
function openInProcess(file: string): { name: string; message: string } {
  const script = `import(${JSON.stringify(HISTORY_STORE)}).then(({ HistoryStore }) => {
    try { HistoryStore.open(${JSON.stringify(file)}).close(); console.log(JSON.stringify({ name: "opened", message: "" })); }
    catch (error) { console.log(JSON.stringify({ name: error.name, message: error.message })); }
  });`;
  const child = spawnSync(process.execPath, ["--disable-warning=ExperimentalWarning", "--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    ...(runsAsRoot ? { uid: NOBODY, gid: NOBODY, env: { ...process.env, HOME: tmpdir() } } : {}),
  });
  assert.equal(child.status, 0, child.stderr);
  return JSON.parse(child.stdout.trim()) as { name: string; message: string };
}

test("a read-only history file is named read-only, with what to do, not 'could not create'; it is left as it was", () => {
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

test("an -shm file this user may not write is refused at open, naming it, before SQLite maps it; the process lives on", () => {
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
