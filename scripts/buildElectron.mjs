// Bundles the desktop shell with esbuild into dist/electron/:
//   main.mjs     the main process (ESM; shared/ is bundled in, only `electron` stays outside)
//   preload.cjs  the preload (CommonJS, one file: a sandboxed preload can require nothing but `electron`)
//   tray/        the tray icons (build/tray)
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";

const outdir = "dist/electron";
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const common = { bundle: true, platform: "node", target: "node22", sourcemap: "linked", logLevel: "warning", legalComments: "none" };

/**
 * The bridge's channel list, computed from its one declaration (electron/bridge/bridgeCalls.ts) by bundling and
 * running electron/bridge/bridgeChannels.ts here: the preload gets this list as plain JSON, and with it none of the
 * schemas (and no zod), which only the main process uses.
 */
async function bridgeChannelsModule() {
  const bundled = await build({ ...common, sourcemap: false, entryPoints: ["electron/bridge/bridgeChannels.ts"], format: "esm", write: false });
  const { BRIDGE_CHANNELS } = await import(`data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].contents).toString("base64")}`);
  return `export const BRIDGE_CHANNELS = ${JSON.stringify(BRIDGE_CHANNELS)};\n`;
}

const bridgeChannelsFile = resolve("electron/bridge/bridgeChannels.ts");
const channelListAsData = {
  name: "bridge-channels-as-data",
  setup(plugin) {
    plugin.onLoad({ filter: /bridgeChannels\.ts$/ }, async (args) =>
      args.path === bridgeChannelsFile ? { contents: await bridgeChannelsModule(), loader: "js" } : undefined,
    );
  },
};

const [, preload] = await Promise.all([
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
  build({
    ...common,
    entryPoints: ["electron/preload/index.ts"],
    outfile: `${outdir}/preload.cjs`,
    format: "cjs",
    external: ["electron"],
    plugins: [channelListAsData],
    metafile: true,
  }),
]);
// The preload runs before every page load: it stays small, and never carries a dependency by accident.
const preloadInputs = Object.keys(preload.metafile.inputs);
const dependencies = preloadInputs.filter((input) => input.includes("node_modules"));
if (dependencies.length > 0) throw new Error(`the preload must bundle no dependency, but it has ${dependencies.join(", ")}: import types only`);
cpSync("build/tray", `${outdir}/tray`, { recursive: true });
console.log(`desktop shell bundled into ${outdir}/ (preload: ${preloadInputs.length} source files)`);
