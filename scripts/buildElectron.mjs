// Bundles the desktop shell with esbuild into dist/electron/:
//   main.mjs     the main process (ESM; shared/ is bundled in, only `electron` stays outside)
//   preload.cjs  the preload (CommonJS, one file: a sandboxed preload can require nothing but `electron`)
//   tray/        the tray icons (build/tray)
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { build } from "esbuild";

const outdir = "dist/electron";
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const common = { bundle: true, platform: "node", target: "node22", sourcemap: "linked", logLevel: "warning", legalComments: "none" };

await Promise.all([
  build({
    ...common,
    entryPoints: ["electron/main/index.ts"],
    outfile: `${outdir}/main.mjs`,
    format: "esm",
    // ws's optional native helpers; Electron's Node has a native WebSocket anyway.
    external: ["electron", "bufferutil", "utf-8-validate"],
    // CommonJS dependencies bundled into ESM call require() for Node's built-ins.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  }),
  build({ ...common, entryPoints: ["electron/preload/index.ts"], outfile: `${outdir}/preload.cjs`, format: "cjs", external: ["electron"] }),
]);
cpSync("build/tray", `${outdir}/tray`, { recursive: true });
console.log(`desktop shell bundled into ${outdir}/`);
