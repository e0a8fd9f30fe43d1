import wasm from "@journeyapps/wa-sqlite/dist/wa-sqlite.wasm";

/**
 * SQLite's WebAssembly (wa-sqlite's build), as bytes inside the bundle. Imported only when a
 * database is first read: decoding the bytes is not free, and most runs of the CLI read none.
 */
export const sqliteWasm: Uint8Array = wasm;
