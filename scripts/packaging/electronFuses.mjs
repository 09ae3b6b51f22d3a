// The Electron fuses the packaged app ships with. Fuses are bits in the Electron binary that turn features off for
// good; electron-builder's afterPack hook (./afterPack.mjs) flips them before the app is signed, so that the system's
// signature check keeps them as set. Each is set to what the app needs and nothing more.
import { FuseV1Options, FuseVersion } from "@electron/fuses";

/** A fuse's byte in the wire, as Electron's fuse documentation defines it: "0" off, "1" on, "r" removed. */
const FUSE_BYTE = Object.freeze({ off: 0x30, on: 0x31, removed: 0x72 });

/** Every fuse @electron/fuses knows, by the name Electron's fuse documentation gives it, with the value the app ships. */
export const GASFEES_FUSES = Object.freeze({
  // ELECTRON_RUN_AS_NODE would turn the app's signed binary into a plain Node running any script. The main process
  // forks no Node child (a utility process would be the way if it ever must).
  runAsNode: false,
  // Chromium's cookie store encrypted with the system's key store, as Chrome does it.
  enableCookieEncryption: true,
  // NODE_OPTIONS (and NODE_EXTRA_CA_CERTS) would let anyone who sets the environment load code into the main process.
  enableNodeOptionsEnvironmentVariable: false,
  // --inspect, --inspect-brk and SIGUSR1 would open a debugger on the main process.
  enableNodeCliInspectArguments: false,
  // app.asar is checked against the header hash electron-builder embeds (Info.plist on macOS, a resource in the .exe
  // on Windows); Electron has no such check on Linux yet, where this fuse does nothing.
  enableEmbeddedAsarIntegrityValidation: true,
  // Only app.asar is loaded: no `app` folder or default_app.asar beside it can stand in for the checked code.
  onlyLoadAppFromAsar: true,
  // Electron's default: the browser process uses the same V8 snapshot as the others (no browser_v8_context_snapshot.bin ships).
  loadBrowserProcessSpecificV8Snapshot: false,
  // The window loads gasfees://app, never a file:// page, so file pages need none of their extra privileges.
  grantFileProtocolExtraPrivileges: false,
  // Electron's default (the fuse is new in Electron 41): V8 keeps WebAssembly's memory in bounds with guard regions and
  // a signal handler, as Chrome does, rather than with a check before every access. Both are memory-safe and neither
  // turns WebAssembly off; gasfees runs none (the page's script-src has no 'wasm-unsafe-eval'), so the fuse stays as
  // Chromium ships and tests it. Electron suggests turning it off only where address space is short (the guard
  // regions reserve gigabytes of it for each WebAssembly memory).
  wasmTrapHandlers: true,
});

/** Where each named fuse sits in the fuse wire (@electron/fuses' FuseV1Options). */
const FUSE_INDEX = Object.freeze({
  runAsNode: FuseV1Options.RunAsNode,
  enableCookieEncryption: FuseV1Options.EnableCookieEncryption,
  enableNodeOptionsEnvironmentVariable: FuseV1Options.EnableNodeOptionsEnvironmentVariable,
  enableNodeCliInspectArguments: FuseV1Options.EnableNodeCliInspectArguments,
  enableEmbeddedAsarIntegrityValidation: FuseV1Options.EnableEmbeddedAsarIntegrityValidation,
  onlyLoadAppFromAsar: FuseV1Options.OnlyLoadAppFromAsar,
  loadBrowserProcessSpecificV8Snapshot: FuseV1Options.LoadBrowserProcessSpecificV8Snapshot,
  grantFileProtocolExtraPrivileges: FuseV1Options.GrantFileProtocolExtraPrivileges,
  wasmTrapHandlers: FuseV1Options.WasmTrapHandlers,
});

/**
 * The @electron/fuses configuration for one packaged app. On macOS the flip invalidates the app's ad-hoc signature,
 * which Apple silicon refuses to launch (and which makes an unsigned download look "damaged" on Intel Macs):
 * @electron/fuses signs the bundle ad hoc again; a real signing identity, when there is one, signs over it later.
 */
export function fuseConfigFor(electronPlatformName) {
  const config = { version: FuseVersion.V1, resetAdHocDarwinSignature: electronPlatformName === "darwin" || electronPlatformName === "mas" };
  for (const [name, enabled] of Object.entries(GASFEES_FUSES)) config[FUSE_INDEX[name]] = enabled;
  return config;
}

/** The named fuses whose state in a wire read back from a binary differs from GASFEES_FUSES, each said in words. */
export function fuseMismatches(wire) {
  return Object.entries(GASFEES_FUSES).flatMap(([name, enabled]) => {
    const state = wire[FUSE_INDEX[name]];
    const wanted = enabled ? FUSE_BYTE.on : FUSE_BYTE.off;
    if (state === wanted) return [];
    if (state === undefined) return [`${name}: this Electron's fuse wire has no such fuse (it is older than @electron/fuses expects)`];
    return [`${name}: ${describeState(state)} instead of ${enabled ? "on" : "off"}`];
  });
}

/**
 * The named fuses that the wire Electron ships has no byte for, each said in words: an Electron older than the fuse.
 * Read before the flip, which would refuse to set them without naming which.
 */
export function absentFuses(wire) {
  return Object.keys(GASFEES_FUSES)
    .filter((name) => wire[FUSE_INDEX[name]] === undefined)
    .map((name) => `${name}: this Electron's fuse wire has no such fuse (it is older than the fuse): use a newer Electron`);
}

/**
 * The named fuses that Electron marks as removed in the wire it ships, each said in words. Read before the flip:
 * @electron/fuses writes over a removed fuse's byte (with only a warning), and setting it has no effect.
 */
export function removedFuses(wire) {
  return Object.keys(GASFEES_FUSES)
    .filter((name) => wire[FUSE_INDEX[name]] === FUSE_BYTE.removed)
    .map((name) => `${name}: this Electron removed the fuse, so setting it does nothing; take it out of GASFEES_FUSES`);
}

/** A fuse wire in one line: each fuse by name (or by its index when @electron/fuses does not know it) and its state. */
export function describeFuseWire(wire) {
  const names = new Map(Object.entries(FUSE_INDEX).map(([name, index]) => [index, name]));
  return Object.keys(wire)
    .filter((key) => /^\d+$/.test(key))
    .map(Number)
    .sort((a, b) => a - b)
    .map((index) => `${names.get(index) ?? `fuse ${index} (unknown to @electron/fuses, left as Electron ships it)`} ${describeState(wire[index])}`)
    .join(", ");
}

function describeState(state) {
  if (state === FUSE_BYTE.on) return "on";
  if (state === FUSE_BYTE.off) return "off";
  if (state === FUSE_BYTE.removed) return "removed";
  return `unreadable (byte ${state})`;
}
