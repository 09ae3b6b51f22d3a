// A stand-in for the Electron binary where only its fuse wire matters: the real binary cannot be downloaded on this
// machine, and @electron/fuses reads and writes nothing of it but the wire. The layout is Electron's (its fuse
// documentation, "The hard way"): the sentinel, the schema version, the number of fuses, one byte per fuse.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const FUSE_SENTINEL = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX";

/** The fuse wire Electron ships (build/fuses/fuses.json5, the same from 41 to 45): run_as_node on, cookie_encryption off, node_options on, node_cli_inspect on, embedded_asar_integrity_validation off, only_load_app_from_asar off, load_browser_process_specific_v8_snapshot off, grant_file_protocol_extra_privileges on, wasm_trap_handlers on. */
export const ELECTRON_DEFAULT_WIRE = "101100011";

/** The wire of Electron 40 and older: no wasm_trap_handlers. */
export const ELECTRON_40_WIRE = "10110001";

/** The bytes of a stand-in binary whose fuse wire is `wire` (one character per fuse: "0", "1" or "r"). */
export function standInBinary(wire: string = ELECTRON_DEFAULT_WIRE): Buffer {
  return Buffer.concat([
    Buffer.from("\u007fELF stand-in for the Electron binary, code before the wire\n"),
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, wire.length]),
    Buffer.from(wire),
    Buffer.from("\ncode after the wire\n"),
  ]);
}

/** Writes a stand-in binary at `path` (an executable file, its folders made). */
export function writeStandInBinary(path: string, wire?: string): Buffer {
  const bytes = standInBinary(wire);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, bytes, { mode: 0o755 });
  return bytes;
}

/** Where a packed app's fuse wire lives for each system, from the folder electron-builder packs into. */
export function fuseFileIn(appOutDir: string, electronPlatformName: "linux" | "win32" | "darwin", name: string): string {
  if (electronPlatformName === "darwin") return join(appOutDir, `${name}.app`, "Contents", "Frameworks", "Electron Framework.framework", "Electron Framework");
  return join(appOutDir, electronPlatformName === "win32" ? `${name}.exe` : name);
}
