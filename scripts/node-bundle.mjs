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
		...options,
	});
}
