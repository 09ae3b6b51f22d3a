// The Electron fuses the packaged app ships with: the configuration electron-builder's afterPack hook applies
// (scripts/packaging/electronFuses.mjs), and the hook itself flipping them in a stand-in binary's fuse wire, reading
// them back and refusing a binary that does not carry them. test/packaging/packedApp.test.ts runs the same hook
// inside electron-builder.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { FuseV1Options, FuseVersion, getCurrentFuseWire } from "@electron/fuses";
import afterPack, { packedElectronPath, type PackedAppContext } from "../../scripts/packaging/afterPack.mjs";
import { describeFuseWire, fuseConfigFor, fuseMismatches } from "../../scripts/packaging/electronFuses.mjs";
import { ELECTRON_40_WIRE, ELECTRON_DEFAULT_WIRE, fuseFileIn, writeStandInBinary } from "./support/standInElectron.ts";

const workDir = mkdtempSync(join(tmpdir(), "gasfees-fuses-"));
after(() => rmSync(workDir, { recursive: true, force: true }));

const ON = 0x31;
const OFF = 0x30;

/** electron-builder's Arch numbers (builder-util): x64 1, arm64 3. */
const X64 = 1;

function contextFor(electronPlatformName: "linux" | "win32" | "darwin", appOutDir: string): PackedAppContext {
  return { appOutDir, electronPlatformName, arch: X64, packager: { appInfo: { productFilename: "gasfees" }, executableName: "gasfees" } };
}

test("the build turns off run-as-node, NODE_OPTIONS and --inspect, turns on cookie encryption, asar integrity and asar-only loading, and decides every fuse", () => {
  const config = fuseConfigFor("linux");
  assert.equal(config.version, FuseVersion.V1);
  assert.equal(config[FuseV1Options.RunAsNode], false);
  assert.equal(config[FuseV1Options.EnableNodeOptionsEnvironmentVariable], false);
  assert.equal(config[FuseV1Options.EnableNodeCliInspectArguments], false);
  assert.equal(config[FuseV1Options.EnableCookieEncryption], true);
  assert.equal(config[FuseV1Options.EnableEmbeddedAsarIntegrityValidation], true);
  assert.equal(config[FuseV1Options.OnlyLoadAppFromAsar], true);
  // The rest: the browser process's own V8 snapshot stays off (none ships), file:// gets no extra privileges, and
  // WebAssembly's bounds stay guarded by trap handlers (Electron's and Chrome's default).
  assert.equal(config[FuseV1Options.LoadBrowserProcessSpecificV8Snapshot], false);
  assert.equal(config[FuseV1Options.GrantFileProtocolExtraPrivileges], false);
  assert.equal(config[FuseV1Options.WasmTrapHandlers], true);
  const named = Object.keys(config)
    .filter((key) => /^\d+$/.test(key))
    .map(Number);
  const known = Object.values(FuseV1Options).filter((value) => typeof value === "number");
  assert.deepEqual(named.sort(), known.sort(), "every fuse @electron/fuses knows is decided");
  assert.deepEqual(fuseConfigFor("win32"), config, "every system gets the same fuses");
});

test("on macOS the bundle is signed ad hoc again after the flip (Apple silicon refuses a broken signature); elsewhere nothing is signed", () => {
  assert.equal(fuseConfigFor("darwin").resetAdHocDarwinSignature, true);
  assert.equal(fuseConfigFor("linux").resetAdHocDarwinSignature, false);
  assert.equal(fuseConfigFor("win32").resetAdHocDarwinSignature, false);
});

test("the hook finds the packed binary where electron-builder puts it on each system", () => {
  const context = { ...contextFor("linux", "/out/linux-unpacked"), packager: { appInfo: { productFilename: "Gas Fees" }, executableName: "gasfees" } };
  assert.equal(packedElectronPath(context), join("/out/linux-unpacked", "gasfees"), "Linux: the executable, named executableName");
  assert.equal(packedElectronPath({ ...context, electronPlatformName: "win32" }), join("/out/linux-unpacked", "Gas Fees.exe"));
  assert.equal(packedElectronPath({ ...context, electronPlatformName: "darwin" }), join("/out/linux-unpacked", "Gas Fees.app"));
  assert.throws(() => packedElectronPath({ ...context, electronPlatformName: "aix" }), /does not know where Electron sits in a aix build/);
});

for (const electronPlatformName of ["linux", "win32"] as const) {
  test(`the hook flips the fuses of a ${electronPlatformName} build and leaves the rest of the binary as it was`, async () => {
    const appOutDir = join(workDir, electronPlatformName);
    const binary = fuseFileIn(appOutDir, electronPlatformName, "gasfees");
    const before = writeStandInBinary(binary);
    await afterPack(contextFor(electronPlatformName, appOutDir));

    const wire = await getCurrentFuseWire(binary);
    assert.deepEqual(
      Object.fromEntries(Object.entries(wire).filter(([key]) => key !== "version")),
      { 0: OFF, 1: ON, 2: OFF, 3: OFF, 4: ON, 5: ON, 6: OFF, 7: OFF, 8: ON },
      "run-as-node, NODE_OPTIONS, inspect, V8 snapshot and file privileges off; cookie encryption, asar integrity, asar-only and wasm trap handlers on",
    );
    const afterFlip = readFileSync(binary);
    assert.equal(afterFlip.length, before.length);
    const changed = [...afterFlip.keys()].filter((index) => afterFlip[index] !== before[index]);
    const wireStart = before.indexOf(Buffer.from(ELECTRON_DEFAULT_WIRE));
    assert.ok(
      changed.every((index) => index >= wireStart && index < wireStart + ELECTRON_DEFAULT_WIRE.length),
      "only fuse bytes changed",
    );
  });
}

test("a build whose Electron removed one of the fuses fails, saying which and what to do", async () => {
  const appOutDir = join(workDir, "removed");
  writeStandInBinary(fuseFileIn(appOutDir, "linux", "gasfees"), `r${ELECTRON_DEFAULT_WIRE.slice(1)}`);
  await assert.rejects(
    afterPack(contextFor("linux", appOutDir)),
    /runAsNode: this Electron removed the fuse, so setting it does nothing; take it out of GASFEES_FUSES/,
  );
});

test("a build whose Electron is older than a fuse gasfees sets fails before the flip, naming the fuse", async () => {
  const appOutDir = join(workDir, "older");
  const binary = fuseFileIn(appOutDir, "linux", "gasfees");
  const before = writeStandInBinary(binary, ELECTRON_40_WIRE);
  await assert.rejects(afterPack(contextFor("linux", appOutDir)), /wasmTrapHandlers: this Electron's fuse wire has no such fuse \(it is older than the fuse\)/);
  assert.deepEqual(readFileSync(binary), before, "nothing was flipped");
});

test("a wire read back short of a fuse, or with it in the wrong state, is named", () => {
  assert.deepEqual(fuseMismatches({ 0: OFF, 1: ON, 2: OFF, 3: OFF, 4: ON, 5: ON, 6: OFF, 7: OFF, 8: ON }), []);
  assert.deepEqual(fuseMismatches({ 0: ON, 1: ON, 2: OFF, 3: OFF, 4: ON, 5: ON, 6: OFF, 7: OFF }), [
    "runAsNode: on instead of off",
    "wasmTrapHandlers: this Electron's fuse wire has no such fuse (it is older than @electron/fuses expects)",
  ]);
});

test("the build log names every fuse of the wire, one @electron/fuses does not know among them", () => {
  const wire = { version: "1", 0: OFF, 1: ON, 2: OFF, 3: OFF, 4: ON, 5: ON, 6: OFF, 7: OFF, 8: ON, 9: OFF };
  assert.equal(
    describeFuseWire(wire),
    "runAsNode off, enableCookieEncryption on, enableNodeOptionsEnvironmentVariable off, enableNodeCliInspectArguments off, " +
      "enableEmbeddedAsarIntegrityValidation on, onlyLoadAppFromAsar on, loadBrowserProcessSpecificV8Snapshot off, " +
      "grantFileProtocolExtraPrivileges off, wasmTrapHandlers on, fuse 9 (unknown to @electron/fuses, left as Electron ships it) off",
  );
});
