import obsidianmd from "eslint-plugin-obsidianmd";
import { DEFAULT_BRANDS } from "./node_modules/eslint-plugin-obsidianmd/dist/lib/rules/ui/brands.js";
import globals from "globals";
import tseslint from "typescript-eslint";

const layerMessage = {
	core: "core/ is pure and shared by the plugin and the CLI: take I/O through a port.",
	obsidian: "Runs under plain Node: no obsidian runtime here.",
};

// A read that opens a FIFO waits for a writer forever (holding the sync lock fresh): files are read
// through node/confined-path.ts (readPlainFile, readPlainBytes, openPlainFile…), which refuse them
// (an `open` for reading takes O_NONBLOCK and checks the file, as transcript-tail.ts and sqlite-image.ts do).
const plainReadMessage = "Read files through node/confined-path.ts (readPlainFile, readPlainBytes, readPlainBytesSync, openPlainFile): a FIFO or a device would block the read.";
const plainReadPaths = ["node:fs", "node:fs/promises", "fs", "fs/promises"].map((name) => ({ name, importNames: ["readFile", "readFileSync", "createReadStream"], message: plainReadMessage }));

export default tseslint.config(
	{ ignores: ["node_modules/", "main.js", "dist/", "demo/", ".cache/", "bench/out/", "bench/redaction-rules/build/", "bench/redaction-rules/node_modules/", "bench/sqlite-candidates/node_modules/", "bench/sqlite-candidates/build/", "eval/out/", "examples/", "coverage/"] },
	...obsidianmd.configs.recommended,
	{
		files: ["**/*.ts", "**/*.mts"],
		languageOptions: {
			parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
		},
	},
	{
		// "Claude Code" is a product name, written as its makers write it (also in the middle of a sentence).
		rules: { "obsidianmd/ui/sentence-case": ["warn", { enforceCamelCaseLower: true, brands: [...DEFAULT_BRANDS, "Claude Code", "CLAUDE.md", "CLAUDE.local.md"] }] },
	},
	{
		// The layer rules (DESIGN.md): dependencies point down to core/, which imports nothing outside itself.
		files: ["src/core/**/*.ts"],
		rules: {
			"no-restricted-imports": [
				"error",
				{
					patterns: [
						{ group: ["obsidian"], message: layerMessage.core },
						{ group: ["node:*"], message: layerMessage.core },
						{ group: ["../node/*", "../../node/*", "../obsidian/*", "../../obsidian/*", "../cli/*", "../../cli/*", "../main", "../../main"], message: layerMessage.core },
					],
					paths: ["fs", "fs/promises", "path", "os", "child_process", "crypto", "util", "events", "stream", "url", "process"].map((name) => ({ name, message: layerMessage.core })),
				},
			],
		},
	},
	{
		files: ["src/node/**/*.ts", "src/cli/**/*.ts"],
		rules: {
			// Outside Obsidian there is no Vault#configDir: the CLI defaults to .obsidian and takes
			// --config-dir; the plugin passes its own manifest.dir.
			"obsidianmd/hardcoded-config-path": "off",
			"no-restricted-imports": [
				"error",
				{
					paths: [{ name: "obsidian", message: layerMessage.obsidian }, ...plainReadPaths],
					patterns: [{ group: ["../obsidian/*", "../main"], message: layerMessage.obsidian }],
				},
			],
		},
	},
	{
		// The one place that opens files for reading (without blocking, plain files only).
		files: ["src/node/confined-path.ts"],
		rules: { "no-restricted-imports": ["error", { paths: [{ name: "obsidian", message: layerMessage.obsidian }] }] },
	},
	{
		// Tests, benchmarks, evaluations and build scripts are Node programs, not plugin code.
		files: ["test/**/*.ts", "bench/**/*.{ts,mjs}", "eval/**/*.ts", "scripts/**/*.mjs", "*.mjs", "vitest.config.mts"],
		languageOptions: { globals: { ...globals.node } },
		rules: {
			"no-console": "off",
			"obsidianmd/prefer-window-timers": "off",
			"import/no-nodejs-modules": "off",
			"obsidianmd/no-global-this": "off",
			"obsidianmd/hardcoded-config-path": "off",
		},
	},
	{
		// The stub implements the API these rules point plugins to.
		files: ["test/stubs/**/*.ts"],
		rules: {
			"obsidianmd/prefer-create-el": "off",
			"obsidianmd/prefer-file-manager-trash-file": "off",
		},
	},
);
