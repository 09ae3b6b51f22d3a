import type { FuseV1Config } from "@electron/fuses";

export const GASFEES_FUSES: Readonly<{
  runAsNode: boolean;
  enableCookieEncryption: boolean;
  enableNodeOptionsEnvironmentVariable: boolean;
  enableNodeCliInspectArguments: boolean;
  enableEmbeddedAsarIntegrityValidation: boolean;
  onlyLoadAppFromAsar: boolean;
  loadBrowserProcessSpecificV8Snapshot: boolean;
  grantFileProtocolExtraPrivileges: boolean;
  wasmTrapHandlers: boolean;
}>;
export function fuseConfigFor(electronPlatformName: string): FuseV1Config;
/** A wire as @electron/fuses' getCurrentFuseWire reads it: each fuse's byte by its index. */
export function fuseMismatches(wire: Readonly<Partial<Record<number, number>>>): string[];
/** Read before the flip: the named fuses the shipped wire has no byte for. */
export function absentFuses(wire: Readonly<Partial<Record<number, number>>>): string[];
/** Read before the flip: the named fuses the shipped wire marks as removed. */
export function removedFuses(wire: Readonly<Partial<Record<number, number>>>): string[];
export function describeFuseWire(wire: Readonly<Record<number | string, unknown>>): string;
