import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const obsidianStub = fileURLToPath(new URL("./test/stubs/obsidian.ts", import.meta.url));

export default defineConfig({
	resolve: { alias: { obsidian: obsidianStub } },
	test: {
		// Dates in notes are formatted in local time; one zone for every run.
		env: { TZ: "UTC" },
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
