// Bundles the headless service with esbuild into dist/serve/, which `npm run serve` runs on plain node:
//   serve.mjs            shared/cli/serve.ts and everything it imports (only the modules it reaches, none of tsx)
//   evmNodeProcess.mjs   the --demo node's child process (hardhat stays outside, required at run time)
//   data/                the mainnet base fees the demo replays, the timed ones of its history, and the hourly samples of its past
//   inputs.json          the files the bundles were made from, so that scripts/serve.mjs rebuilds when one changes
// Under tsx the service held ~180 MB (the loader, and every module compiled at run time); bundled, about a third.
// Writes each file beside its place and renames it there, so that a serve starting meanwhile never reads half a file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const SERVE_DIR = join(root, "dist/serve");

const common = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["hardhat", "bufferutil", "utf-8-validate"],
  // CommonJS dependencies bundled into ESM call require() for Node's built-ins.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
  write: false,
  absWorkingDir: root,
};

export async function buildServe() {
  mkdirSync(join(SERVE_DIR, "data"), { recursive: true });
  const results = await Promise.all([
    build({ ...common, entryPoints: ["shared/cli/serve.ts"], outfile: join(SERVE_DIR, "serve.mjs") }),
    build({ ...common, entryPoints: ["shared/demo/evmNodeProcess.ts"], outfile: join(SERVE_DIR, "evmNodeProcess.mjs") }),
  ]);
  const dataFiles = ["mainnet-17180000-17194650.csv", "mainnet-17180000-17194650-timed.csv", "mainnet-hourly-samples-2023-12-2024-03.csv"];
  const inputs = new Set(["scripts/buildServe.mjs", ...dataFiles.map((name) => `shared/demo/data/${name}`)]);
  for (const result of results) {
    for (const input of Object.keys(result.metafile.inputs)) inputs.add(input);
    for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  }
  for (const name of dataFiles) writeAtomically(join(SERVE_DIR, "data", name), readFileSync(join(root, "shared/demo/data", name)));
  // Last: a bundle is only taken as up to date once its list of inputs is there.
  writeAtomically(join(SERVE_DIR, "inputs.json"), JSON.stringify([...inputs].map((input) => relative(root, resolve(root, input))).sort()));
}

function writeAtomically(path, contents) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const startedAtMs = Date.now();
  await buildServe();
  process.stderr.write(`gasfees: service bundled into ${relative(process.cwd(), SERVE_DIR) || "."}/ in ${((Date.now() - startedAtMs) / 1000).toFixed(1)} s\n`);
}
