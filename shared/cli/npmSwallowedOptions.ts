import { parseArgs } from "node:util";
import { SERVE_OPTIONS } from "./serveOptions.ts";

/** Options of serve's that npm kept for itself, and the command that would have given them to serve. */
export interface SwallowedOptions {
  /** As typed: `--demo`, `--port`. */
  readonly options: readonly string[];
  readonly command: string;
  /**
   * What serve would have got had they been typed after `--` (the options npm kept, then the arguments it passed);
   * undefined when a value npm passed on alone cannot be told to belong to its option.
   */
  readonly args?: readonly string[];
}

const PLACEHOLDER = "<value>";

/**
 * `npm run serve --demo` (without `--`) does not pass `--demo` to the script: npm takes it as a setting of its own and
 * hands it over as `npm_config_demo=true` in the environment, and a value typed after such an option (`--port 0`)
 * reaches the script as a bare argument. Finds serve's options among npm's settings, so that serve can take them
 * back and say what to type next time; undefined when there are none.
 */
export function npmSwallowedOptions(env: NodeJS.ProcessEnv, argv: readonly string[]): SwallowedOptions | undefined {
  const found: Array<{ name: string; value: string | undefined; needsValue: boolean }> = [];
  for (const [name, spec] of Object.entries(SERVE_OPTIONS)) {
    if (name === "help") continue;
    const setting = env[`npm_config_${name.replaceAll("-", "_")}`];
    if (setting === undefined) continue;
    if (spec.type === "boolean") {
      if (setting === "true") found.push({ name, value: undefined, needsValue: false });
    } else {
      found.push({ name, value: setting === "true" || setting === "" ? undefined : setting, needsValue: true });
    }
  }
  if (found.length === 0) return undefined;

  // The bare arguments npm passed on are the values of the options it kept, when it is clear which belongs to which.
  const { tokens } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true });
  const positionals = tokens.flatMap((token) => (token.kind === "positional" ? [token.index] : []));
  const valueless = found.filter((option) => option.needsValue && option.value === undefined);
  if (valueless.length === 1 && positionals.length === 1) valueless[0]!.value = argv[positionals[0]!];
  // Bare arguments are values of the options npm kept (serve takes none of its own), paired or not.
  const rest = valueless.length === 0 ? argv : argv.filter((_, index) => !positionals.includes(index));

  const words = found.flatMap((option) => (option.needsValue ? [`--${option.name}`, option.value ?? PLACEHOLDER] : [`--${option.name}`]));
  const complete = found.every((option) => !option.needsValue || option.value !== undefined);
  return {
    options: found.map((option) => `--${option.name}`),
    command: ["npm run serve --", ...words, ...rest].join(" "),
    ...(complete ? { args: [...words, ...rest] } : {}),
  };
}
