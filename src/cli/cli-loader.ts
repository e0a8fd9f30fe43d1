import { setRunFlags, MissingBundleError, runBundleBeside } from "../node/code-cache";

/** The CLI bundle's content hash, put here by the build; the bundle is the file beside this one that it names. */
declare const AI_MEMORY_CLI_BUNDLE_HASH: string;

/**
 * `dist/cli.cjs`: sets the run's V8 flags, then runs the CLI bundle (`cli.<hash>.js` beside it)
 * with V8's code cache (see `node/code-cache`).
 */
setRunFlags();
try {
	runBundleBeside(AI_MEMORY_CLI_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module });
} catch (error) {
	if (!(error instanceof MissingBundleError)) throw error;
	process.stderr.write(`ai-memory: ${error.message}\n`);
	process.exitCode = 1;
}
