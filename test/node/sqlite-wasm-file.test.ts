import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readSqliteWasm, SQLITE_WASM_FILE } from "../../src/node/sqlite-wasm-file";

describe("readSqliteWasm", () => {
	const dirs: string[] = [];
	afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
	const dir = () => {
		const d = mkdtempSync(join(tmpdir(), "wasm-file-"));
		dirs.push(d);
		return d;
	};

	it("reads the bytes beside the script", () => {
		const d = dir();
		writeFileSync(join(d, SQLITE_WASM_FILE), Buffer.from([0, 0x61, 0x73, 0x6d]));
		expect([...readSqliteWasm(d)]).toEqual([0, 0x61, 0x73, 0x6d]);
	});

	it("says what is missing and how to get it back, with the path", () => {
		const d = dir();
		expect(() => readSqliteWasm(d)).toThrow(new RegExp(`opencode's database cannot be read: SQLite's WebAssembly is not at ${join(d, SQLITE_WASM_FILE).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\(ENOENT\\); build the CLI again`));
	});
});
