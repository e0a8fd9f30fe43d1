import { readPlainBytesSync } from "./confined-path";
import { join } from "node:path";

/** The name of SQLite's WebAssembly beside the CLI script (dist/, or the plugin's folder). */
export const SQLITE_WASM_FILE = "wa-sqlite.wasm";

/**
 * SQLite's WebAssembly as the built CLI reads it: from the file beside its script, put there by the
 * build (esbuild.config.mjs) or by the plugin's hook install. Read only when a database is first read.
 */
export function readSqliteWasm(dir: string): Uint8Array {
	const path = join(dir, SQLITE_WASM_FILE);
	try {
		return new Uint8Array(readPlainBytesSync(path));
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? String(error);
		throw new Error(`opencode's database cannot be read: SQLite's WebAssembly is not at ${path} (${code}); build the CLI again (npm run build:cli) or install the hooks again from Obsidian`);
	}
}
