// The history file as the user's system hands it over: read-only, or damaged inside its pages. Each is refused at
// open with a message that says what is wrong and what to do, and the file is left exactly as it was.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { HistoryStore } from "./historyStore.ts";

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
