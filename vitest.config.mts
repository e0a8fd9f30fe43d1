import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The test files that race real writing processes against the sync (see the "races" project). */
const RACES = ["test/node/project-files.test.ts", "test/node/vault-folder.test.ts", "test/node/claude-memory-folder.test.ts"];

const obsidianStub = fileURLToPath(new URL("./test/stubs/obsidian.ts", import.meta.url));

export default defineConfig({
	resolve: { alias: { obsidian: obsidianStub } },
	// A `.wasm` import is its bytes, as esbuild's `binary` loader gives them in the bundles.
	plugins: [{ name: "wasm-bytes", enforce: "pre", load: (id) => (id.endsWith(".wasm") ? `import { readFileSync } from "node:fs";\nexport default new Uint8Array(readFileSync(${JSON.stringify(id)}));` : undefined) }],
	test: {
		// The `.wasm` file goes through the plugin above, not to Node (which cannot import one).
		server: { deps: { inline: [/\.wasm$/] } },
		// Dates in notes are formatted in local time; one zone for every run. The other agents'
		// folders point nowhere: a developer's own Codex or Gemini CLI sessions never enter a test.
		env: { TZ: "UTC", CODEX_HOME: "/nonexistent/codex-home", GEMINI_CLI_HOME: "/nonexistent/gemini-home", COPILOT_HOME: "/nonexistent/copilot-home", XDG_DATA_HOME: "/nonexistent/xdg-data" },
		projects: [
			{
				extends: true,
				// The guards against quadratic time allow a loaded machine (a few times their time alone, far under the pairwise one): a minute each.
				test: { name: "unit", environment: "node", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**", ...RACES], globalSetup: ["test/corpus/global-setup.ts"], sequence: { groupOrder: 0 }, testTimeout: 60_000 },
			},
			{
				// Real processes writing a file while hundreds of syncs replace it: run alone, after the
				// rest, so the writers are not held off the CPU by the other test files (a write held
				// between its open and its write past the sync's watch is a known gap: docs/threat-model.md).
				extends: true,
				test: { name: "races", environment: "node", include: RACES, fileParallelism: false, sequence: { groupOrder: 1 } },
			},
			{
				extends: true,
				test: {
					name: "e2e",
					sequence: { groupOrder: 0 },
					environment: "node",
					include: ["test/e2e/**/*.test.ts"],
					testTimeout: 300_000,
					hookTimeout: 600_000,
					fileParallelism: false,
				},
			},
		],
	},
});
