import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The layer rules of DESIGN.md, checked from the sources themselves so they hold even if the lint
 * config is edited: core/ imports nothing outside itself; node/ and cli/ never import obsidian.
 */
const SRC = resolve(__dirname, "..", "src");
const BUILTINS = new Set(builtinModules);
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|(?:^|\n)\s*import\s*["']([^"']+)["']|\brequire\(\s*["']([^"']+)["']\s*\)|\bimport\(\s*["']([^"']+)["']\s*\)/g;

function sources(dir: string): string[] {
	return (readdirSync(join(SRC, dir), { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => join(SRC, dir, f));
}

function importsOf(file: string): string[] {
	const text = readFileSync(file, "utf8");
	return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4] ?? "");
}

function layerOf(file: string, specifier: string): string {
	if (!specifier.startsWith(".")) return specifier;
	return relative(SRC, resolve(dirname(file), specifier)).split(/[\\/]/)[0] ?? "";
}

function violations(dir: string, allowed: (specifier: string, layer: string) => boolean): string[] {
	const found: string[] = [];
	for (const file of sources(dir)) {
		for (const specifier of importsOf(file)) {
			if (!allowed(specifier, layerOf(file, specifier))) found.push(`${relative(SRC, file)} imports ${specifier}`);
		}
	}
	return found;
}

const isBuiltin = (s: string) => s.startsWith("node:") || BUILTINS.has(s) || BUILTINS.has(s.split("/")[0] ?? "");

describe("layers", () => {
	it("core/ imports neither obsidian, nor Node builtins, nor another layer", () => {
		expect(violations("core", (s, layer) => s !== "obsidian" && !isBuiltin(s) && (!s.startsWith(".") || layer === "core"))).toEqual([]);
	});

	it("node/ and cli/ never import obsidian or the plugin's UI layer", () => {
		for (const dir of ["node", "cli"]) {
			expect(violations(dir, (s, layer) => s !== "obsidian" && layer !== "obsidian" && layer !== "main.ts")).toEqual([]);
		}
	});

	it("inside core/, the sync points down: sync → plan → ingest; plan (and project discovery) read only the state's types from sync", () => {
		const inCore = (file: string, specifier: string) => relative(join(SRC, "core"), resolve(dirname(file), specifier)).split(/[\\/]/);
		const found: string[] = [];
		for (const dir of ["ingest", "plan", "projects", "transcript", "digest", "notes", "memory", "context", "text", "hooks"]) {
			for (const file of sources(join("core", dir))) {
				for (const specifier of importsOf(file).filter((s) => s.startsWith("."))) {
					const [top, name] = inCore(file, specifier);
					const allowed = top === "sync" ? (dir === "plan" || dir === "projects") && name === "sync-state" : top === "plan" ? dir === "plan" : top === "ingest" ? dir === "ingest" || dir === "plan" : true;
					if (!allowed) found.push(`${relative(SRC, file)} imports ${specifier}`);
				}
			}
		}
		expect(found).toEqual([]);
	});

	it("node/ and cli/ load child_process only where it is used, never at load: with `net` and `dgram` it cost every sync and hook 6 ms", () => {
		const STATIC = /(?:^|\n)\s*import\s[^'"]*?from\s*["'](?:node:)?child_process["']/;
		const found = ["node", "cli"].flatMap((dir) => sources(dir).filter((file) => STATIC.test(readFileSync(file, "utf8").replace(/(?:^|\n)\s*import\s+type\s[^;]*;/g, "")))).map((f) => relative(SRC, f));
		expect(found).toEqual([]);
	});

	it("ports.ts imports none of the modules that use it", () => {
		const users = new Set((readdirSync(join(SRC, "core"), { recursive: true }) as string[]).filter((f) => f.endsWith(".ts")).map((f) => join(SRC, "core", f)).filter((f) => importsOf(f).some((s) => s.startsWith(".") && resolve(dirname(f), s) === join(SRC, "core", "ports"))));
		const imported = importsOf(join(SRC, "core", "ports.ts")).map((s) => `${resolve(join(SRC, "core"), s)}.ts`);
		expect(imported.filter((f) => users.has(f)).map((f) => relative(SRC, f))).toEqual([]);
	});

	it("the checker itself catches a forbidden import", () => {
		const file = join(SRC, "core", "x.ts");
		expect(layerOf(file, "../node/transcript-tail")).toBe("node");
		expect(isBuiltin("fs/promises")).toBe(true);
		expect(isBuiltin("node:fs")).toBe(true);
		expect([...'import { a } from "obsidian";\nimport "node:fs";\nconst x = require("path");'.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3])).toEqual(["obsidian", "node:fs", "path"]);
	});
});

describe("tests", () => {
	it("mirror src/ file for file: test/<path>/<name>[.<aspect>].test.ts tests src/<path>/<name>.ts", () => {
		const TEST = resolve(__dirname);
		const whole = new Set(["architecture.test.ts"]);
		const elsewhere = ["e2e", "corpus", "golden", "fixtures", "fakes", "stubs", "contracts"];
		const unmatched = (readdirSync(TEST, { recursive: true }) as string[])
			.map((f) => f.split("\\").join("/"))
			.filter((f) => f.endsWith(".test.ts") && !whole.has(f) && !elsewhere.includes(f.split("/")[0]!))
			.filter((f) => {
				const dir = dirname(f) === "." ? "" : dirname(f);
				const name = f.split("/").pop()!.split(".")[0]!;
				return !readdirSync(join(SRC, dir)).includes(`${name}.ts`);
			});
		expect(unmatched).toEqual([]);
	});
});
