import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const obsidianStub = fileURLToPath(new URL("./test/stubs/obsidian.ts", import.meta.url));

export default defineConfig({
	resolve: { alias: { obsidian: obsidianStub } },
	test: {
		// Dates in notes are formatted in local time; one zone for every run. The other agents'
		// folders point nowhere: a developer's own Codex or Gemini CLI sessions never enter a test.
		env: { TZ: "UTC", CODEX_HOME: "/nonexistent/codex-home", GEMINI_CLI_HOME: "/nonexistent/gemini-home", COPILOT_HOME: "/nonexistent/copilot-home" },
		projects: [
			{
				extends: true,
				test: { name: "unit", environment: "node", include: ["test/**/*.test.ts"], exclude: ["test/e2e/**"] },
			},
			{
				extends: true,
				test: {
					name: "e2e",
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
