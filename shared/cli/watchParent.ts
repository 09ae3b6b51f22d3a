/** How often the parent is looked for: a stop within a second of it going, at the cost of one system call. */
const PARENT_CHECK_MS = 250;

/**
 * Calls `gone` once the process that started this one has exited: this process then has another parent (init, or a
 * subreaper), and nobody is left to stop it. `npm run serve` under a supervisor that kills npm, or a shell that dies,
 * would otherwise leave the service running, holding its port. Returns a function that stops watching.
 */
export function watchParent(gone: () => void, everyMs = PARENT_CHECK_MS): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone();
  }, everyMs);
  // Never what keeps the process alive.
  timer.unref();
  return () => clearInterval(timer);
}
