// How the layer tests (test/architecture.test.ts, test/rendererImports.test.ts) read a source file's imports: one
// reading, so that the two cannot disagree about what a file imports.
import { dirname, join, normalize } from "node:path";

export interface ImportStatement {
  readonly specifier: string;
  /** `import type …`, `export type …`, or braces holding only `type` names: erased from the built code. */
  readonly typeOnly: boolean;
  readonly statement: string;
}

/** Every import or re-export with a `from`, every bare side-effect import and every dynamic import() of a file. */
export function importsOf(text: string): ImportStatement[] {
  const statements = [...text.matchAll(/^(import|export)\s+(type\s+)?([^;]*?)\s*from\s*["']([^"']+)["']/gms)].map((match) => ({
    specifier: match[4]!,
    typeOnly: match[2] !== undefined || /^\{\s*(type\s+[^,}]+,?\s*)+\}$/.test(match[3]!.trim()),
    statement: match[0],
  }));
  const bare = [...text.matchAll(/^import\s*["']([^"']+)["']/gm)].map((match) => ({ specifier: match[1]!, typeOnly: false, statement: match[0] }));
  const dynamic = [...text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => ({ specifier: match[1]!, typeOnly: false, statement: match[0] }));
  return [...statements, ...bare, ...dynamic];
}

/** The project-relative path a relative specifier of `file` names, or undefined for a package or `node:` module. */
export function resolveRelative(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith(".")) return undefined;
  return normalize(join(dirname(file), specifier));
}
