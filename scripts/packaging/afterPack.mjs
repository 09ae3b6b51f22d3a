// electron-builder's afterPack hook (electron-builder.yml): flips the packaged Electron binary's fuses
// (./electronFuses.mjs) after the app is packed and before it is signed, then reads them back and fails the build
// when the binary does not carry them. It runs for every system and architecture the build packs.
import { join } from "node:path";
import { flipFuses, getCurrentFuseWire } from "@electron/fuses";
import { absentFuses, describeFuseWire, fuseConfigFor, fuseMismatches, removedFuses } from "./electronFuses.mjs";

/**
 * The packed Electron binary the fuses are flipped in, found as electron-builder's own fuse support finds it: the .app
 * bundle on macOS (@electron/fuses reads its Electron Framework), the .exe on Windows, the executable on Linux.
 */
export function packedElectronPath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  if (electronPlatformName === "darwin" || electronPlatformName === "mas") return join(appOutDir, `${packager.appInfo.productFilename}.app`);
  if (electronPlatformName === "win32") return join(appOutDir, `${packager.appInfo.productFilename}.exe`);
  if (electronPlatformName === "linux") {
    if (!packager.executableName) throw new Error("electron-builder gave the afterPack hook a Linux packager without executableName");
    return join(appOutDir, packager.executableName);
  }
  throw new Error(`gasfees' afterPack hook does not know where Electron sits in a ${electronPlatformName} build: add it to packedElectronPath`);
}

export default async function afterPack(context) {
  const binary = packedElectronPath(context);
  const shipped = await getCurrentFuseWire(binary);
  const unsettable = [...absentFuses(shipped), ...removedFuses(shipped)];
  if (unsettable.length > 0) throw new Error(`the Electron in ${binary} does not have every fuse gasfees sets:\n  ${unsettable.join("\n  ")}`);
  await flipFuses(binary, fuseConfigFor(context.electronPlatformName));
  const wire = await getCurrentFuseWire(binary);
  const mismatches = fuseMismatches(wire);
  if (mismatches.length > 0) {
    throw new Error(`the Electron fuses of ${binary} are not as scripts/packaging/electronFuses.mjs sets them:\n  ${mismatches.join("\n  ")}`);
  }
  // On stderr, beside electron-builder's own lines: the first thing to read in a release build's log.
  process.stderr.write(`  • gasfees: Electron fuses of ${binary}: ${describeFuseWire(wire)}\n`);
}
