#!/usr/bin/env bash
# The README's first command on a fresh clone, as a new user runs it: a clone of this repository's HEAD in a temporary
# folder, no environment variables of ours (only HOME, PATH and the machine's proxy settings), a home folder of its
# own for serve (no settings yet), no network beyond the npm registry. The folder is private (mode 0700), as root's
# home and a mktemp -d are. It must show:
#   npm ci exits 0;
#   the tests that open files as another user (nobody, when this runs as root) pass from the private folder;
#   npm run serve -- --demo --port 0 prints its listening line and a dashboard address that answers 200 with the page;
#   the page in Chromium shows the chart with live blocks (scripts/checkDashboardLive.mjs).
# Usage: scripts/freshCloneCheck.sh [chromium executable, default /usr/bin/chromium] [commit, default HEAD]
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
chromium="${1:-/usr/bin/chromium}"
ref="${2:-HEAD}"
work="$(mktemp -d "${TMPDIR:-/tmp}/gasfees-fresh-clone-XXXXXX")"
chmod 0700 "$work"
serve_pid=""

cleanup() {
  if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2>/dev/null; then
    kill -TERM -- "-$serve_pid" 2>/dev/null || true
    wait "$serve_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

say() { echo "fresh clone: $*"; }

# Only what a user's shell has of the machine: no GASFEES_*, no ELECTRON_*, no npm_config_* of a calling npm.
clean_env=(env -i "HOME=$HOME" "PATH=$PATH")
for name in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
  if [ -n "${!name:-}" ]; then clean_env+=("$name=${!name}"); fi
done

git clone --quiet "$repo" "$work/gasfees"
git -C "$work/gasfees" checkout --quiet --detach "$ref"
say "cloned $(git -C "$work/gasfees" log -1 --format='%h %s') into $work/gasfees"
cd "$work/gasfees"

started=$SECONDS
"${clean_env[@]}" npm ci --no-fund --no-audit
say "npm ci exited 0 in $((SECONDS - started)) s"

# The tests that drop privileges, as the user this script runs as: a checkout other users may not enter must not
# make them fail (their child runs from a folder every user may enter).
privilege_tests=(historyStoreAccess)
started=$SECONDS
"${clean_env[@]}" npm exec -- node scripts/runTests.mjs "${privilege_tests[@]}" | tee "$work/privilege-tests.out"
where="in a folder of mode $(stat -c %a "$work") as $(id -un) in $((SECONDS - started)) s"
# A test skips, saying why, where this machine cannot start a process as nobody: said again here, not called a pass.
if grep -q '^ℹ skipped 0$' "$work/privilege-tests.out"; then
  say "${privilege_tests[*]} passed $where"
else
  say "${privilege_tests[*]} ran $where, but skipped tests (the reason is on each skipped line above)"
fi

# A new user's first run: a home folder with no gasfees settings in it.
mkdir -p "$work/home"
serve_env=(env -i "HOME=$work/home" "PATH=$PATH")
started=$SECONDS
setsid "${serve_env[@]}" npm run serve -- --demo --port 0 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!

listening=""
for _ in $(seq 1 360); do
  listening="$(grep -Eo '^gasfees listening on http://127\.0\.0\.1:[0-9]+$' "$work/serve.out" || true)"
  if [ -n "$listening" ]; then break; fi
  if ! kill -0 "$serve_pid" 2>/dev/null; then
    say "npm run serve -- --demo exited before it listened:"
    cat "$work/serve.out" "$work/serve.err"
    exit 1
  fi
  sleep 0.5
done
if [ -z "$listening" ]; then
  say "no listening line within 180 s:"
  cat "$work/serve.out" "$work/serve.err"
  exit 1
fi
say "\"$listening\" after $((SECONDS - started)) s (building included)"

dashboard="$(grep -Eo '^dashboard: http://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{32}$' "$work/serve.err" | head -n 1 | cut -d' ' -f2 || true)"
if [ -z "$dashboard" ]; then
  say "no dashboard address on stderr:"
  cat "$work/serve.err"
  exit 1
fi
page_check='fetch(process.argv[1]).then(async (r) => { const t = await r.text();
  if (r.status !== 200 || !/<div id="root"><\/div>/.test(t)) { console.error(`answered ${r.status}: ${t.slice(0, 200)}`); process.exit(1); } })'
if ! node -e "$page_check" "$dashboard"; then
  say "the dashboard address does not answer with the page:"
  cat "$work/serve.err"
  exit 1
fi
say "$dashboard answers 200 with the page"

"${clean_env[@]}" node scripts/checkDashboardLive.mjs "$dashboard" "$chromium"

kill -TERM -- "-$serve_pid"
wait "$serve_pid" || true
serve_pid=""
say "the README's first command works on a fresh clone"
