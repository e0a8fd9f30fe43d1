/** Modules the bundles (esbuild's `binary` loader) and the tests (vitest.config.mts) give as bytes. */
declare module "*.wasm" {
	const bytes: Uint8Array;
	export default bytes;
}

/** wa-sqlite's base class for a VFS written in JavaScript (its package declares no types for it). */
declare module "@journeyapps/wa-sqlite/src/FacadeVFS.js" {
	export class FacadeVFS {
		constructor(name: string, module: object);
		name: string;
		jOpen(filename: string | null, fileId: number, flags: number, pOutFlags: DataView): number;
		jClose(fileId: number): number;
		jRead(fileId: number, pData: Uint8Array, iOffset: number): number;
		jWrite(fileId: number, pData: Uint8Array, iOffset: number): number;
		jTruncate(fileId: number, iSize: number): number;
		jFileSize(fileId: number, pSize64: DataView): number;
		jAccess(filename: string, flags: number, pResOut: DataView): number;
		jDeviceCharacteristics(fileId: number): number;
	}
}
