import { readFileSync } from "node:fs";

/** How often the parent is looked for: a stop within a second of it going, at the cost of one system call. */
const PARENT_CHECK_MS = 250;

/** Shells that npm runs a script with (`sh -c`), which stay between npm and the service where they do not `exec` it. */
const SCRIPT_SHELLS: readonly string[] = ["sh", "dash", "bash", "zsh", "ash", "ksh"];

/** The parent of process `pid`, from /proc (Linux), or undefined where that cannot be read. */
function parentOf(pid: number, procRoot: string): number | undefined {
  try {
    const stat = readFileSync(`${procRoot}/${pid}/stat`, "utf8");
    // "pid (comm) state ppid ...": the command may hold spaces and parentheses, so the fields are read after the last ")".
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    return Number.isSafeInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * npm's process, where this one was started by an npm script through a shell that stayed (Debian's dash runs its
 * command as a child, where bash would `exec` it): npm then is the shell's parent. Undefined otherwise, or where /proc
 * cannot say (macOS, whose /bin/sh is bash, which `exec`s).
 */
function npmBehindShell(parent: number, procRoot: string): number | undefined {
  if (process.env["npm_lifecycle_event"] === undefined) return undefined;
  let command: string;
  try {
    command = readFileSync(`${procRoot}/${parent}/comm`, "utf8").trim();
  } catch {
    return undefined;
  }
  return SCRIPT_SHELLS.includes(command) ? parentOf(parent, procRoot) : undefined;
}

/**
 * Calls `gone` once the process that started this one has exited: this process then has another parent (init, or a
 * subreaper), and nobody is left to stop it. Started by `npm run` through a shell that stayed, npm's going counts too
 * (the shell outlives npm killed with SIGKILL). `npm run serve` under a supervisor that kills npm, or a shell that
 * dies, would otherwise leave the service running, holding its port. Returns a function that stops watching.
 */
export function watchParent(gone: () => void, everyMs = PARENT_CHECK_MS, procRoot = "/proc"): () => void {
  const parent = process.ppid;
  const npm = npmBehindShell(parent, procRoot);
  const timer = setInterval(() => {
    if (process.ppid === parent && (npm === undefined || parentOf(parent, procRoot) === npm)) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  // Never what keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
