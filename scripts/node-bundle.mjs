import { builtinModules } from "node:module";
import esbuild from "esbuild";

/** Bundles TypeScript sources into CommonJS for Node 20, Node's own modules left out (benchmarks, evaluations). */
export function bundleForNode(options) {
	return esbuild.build({
		bundle: true,
		platform: "node",
		mainFields: ["module", "main"],
		target: "node20",
		format: "cjs",
		external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
		logLevel: "warning",
		// As the CLI bundle has them (esbuild.config.mjs): SQLite's WebAssembly inside, no `import.meta`.
		loader: { ".wasm": "binary" },
		define: { "import.meta.url": "undefined" },
		...options,
	});
}
