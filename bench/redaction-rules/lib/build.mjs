// Bundles the project's redactor and its labelled test table (SECRETS, LOOK_ALIKES) from the
// project's own sources, without editing them: the test file is loaded as is, with `export`
// appended, and vitest's describe/it/expect stubbed so no test runs.
import { build } from "esbuild";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { createRequire } from "node:module";

export async function buildProject(mainDir, outDir) {
	const redactSrc = path.join(mainDir, "src/core/digest/redact.ts");
	const testSrc = path.join(mainDir, "test/core/digest/redact.test.ts");
	const redactOut = path.join(outDir, "redact.cjs");
	const tableOut = path.join(outDir, "redact-table.cjs");
	await build({ entryPoints: [redactSrc], outfile: redactOut, bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "error" });
	const stubVitest = {
		name: "stub-vitest",
		setup(b) {
			b.onResolve({ filter: /^vitest$/ }, () => ({ path: "vitest", namespace: "stub" }));
			b.onLoad({ filter: /.*/, namespace: "stub" }, () => ({
				contents: `const noop = () => {}; const it = Object.assign(() => {}, { each: () => noop, skip: noop, only: noop });
export const describe = Object.assign(() => {}, { each: () => noop, skip: noop, only: noop });
export { it }; export const test = it; export const expect = () => ({});
export const beforeAll = noop, afterAll = noop, beforeEach = noop, afterEach = noop;`,
				loader: "js",
			}));
			b.onLoad({ filter: /redact\.test\.ts$/ }, async (args) => ({
				contents: (await readFile(args.path, "utf8")) + "\nexport { SECRETS, LOOK_ALIKES, t };\n",
				loader: "ts",
				resolveDir: path.dirname(args.path),
			}));
		},
	};
	await build({
		entryPoints: [testSrc], outfile: tableOut, bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "error",
		plugins: [stubVitest],
		// fast-check comes from the project's node_modules (found from the test's folder), else ours.
		nodePaths: [path.join(mainDir, "node_modules"), path.join(path.dirname(new URL(import.meta.url).pathname), "..", "node_modules")],
	});
	const req = createRequire(import.meta.url);
	delete req.cache[redactOut];
	delete req.cache[tableOut];
	const redact = req(redactOut);
	const table = req(tableOut);
	return { redact, SECRETS: table.SECRETS, LOOK_ALIKES: table.LOOK_ALIKES, t: table.t };
}
