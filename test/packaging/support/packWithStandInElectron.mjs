// Runs electron-builder on a copy of the project, for Linux's unpacked `dir` target, with a stand-in Electron
// distribution (the real one cannot be downloaded here): electron-builder.yml, the files globs, the asar, the
// afterPack hook and the Linux packager's desktop entry are all electron-builder's own. Run in its own process with
// the project copy as its working directory (where electron-builder resolves the hook), by packedApp.test.ts:
//
//   node packWithStandInElectron.mjs <electron dist folder> <output folder> <result file>
//
// Writes to the result file: { appOutDir, desktopEntry }. electron-builder's log goes to this process's stdout.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";

const [electronDist, outputDir, resultFile] = process.argv.slice(2);
if (!electronDist || !outputDir || !resultFile) {
  process.stderr.write("usage: node packWithStandInElectron.mjs <electron dist folder> <output folder> <result file>\n");
  process.exit(2);
}
// electron-builder and its library, from the project copy's node_modules.
const require = createRequire(resolve("package.json"));
const { Arch, Packager, Platform } = require("electron-builder");
// app-builder-lib's build() takes the Packager to use (electron-builder's own build() makes a new one).
const { build } = require("app-builder-lib");
const { LinuxTargetHelper } = require("app-builder-lib/out/targets/LinuxTargetHelper");

const options = {
  projectDir: process.cwd(),
  targets: Platform.LINUX.createTarget("dir", Arch.x64),
  // Merged over electron-builder.yml: only where Electron comes from and where the build goes.
  config: { electronDist: resolve(electronDist), directories: { output: resolve(outputDir) } },
  publish: "never",
};
const packager = new Packager(options);
const result = {};
packager.onAfterPack(async (context) => {
  result.appOutDir = context.appOutDir;
  result.desktopEntry = await new LinuxTargetHelper(context.packager).computeDesktopEntry(context.packager.platformSpecificBuildOptions);
});
await build(options, packager);
writeFileSync(resultFile, JSON.stringify(result));
