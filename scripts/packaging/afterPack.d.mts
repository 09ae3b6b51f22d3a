/** The part of electron-builder's AfterPackContext the hook reads. */
export interface PackedAppContext {
  readonly appOutDir: string;
  readonly electronPlatformName: string;
  readonly arch: number;
  readonly packager: { readonly appInfo: { readonly productFilename: string }; readonly executableName?: string };
}
export function packedElectronPath(context: PackedAppContext): string;
export default function afterPack(context: PackedAppContext): Promise<void>;
