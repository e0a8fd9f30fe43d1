import { codeCacheDir, MissingBundleError, runBundleBeside } from "../node/code-cache";

/** The MCP server bundle's content hash, put here by the build; the bundle is the file beside this one that it names. */
declare const AI_MEMORY_MCP_BUNDLE_HASH: string;

/** `dist/mcp.cjs`: the MCP server bundle (`mcp.<hash>.js` beside it) run with V8's code cache (see `node/code-cache`); an agent starts it with each session. */
try {
	runBundleBeside(AI_MEMORY_MCP_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module }, codeCacheDir(), "mcp");
} catch (error) {
	if (!(error instanceof MissingBundleError)) throw error;
	process.stderr.write(`ai-memory mcp: ${error.message}\n`);
	process.exitCode = 1;
}
