// The one function of `semver` (installed with npm's own dependency tree: electron-builder, vite) these checks use.
declare module "semver" {
  /** Whether `version` is in `range` (npm's range syntax, as package.json's engines field uses it). */
  export function satisfies(version: string, range: string): boolean;
}
