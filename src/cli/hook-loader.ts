import { codeCacheDir, MissingBundleError, runBundleBeside } from "../node/code-cache";

/** The hook bundle's content hash, put here by the build; the bundle is the file beside this one that it names. */
declare const AI_MEMORY_HOOK_BUNDLE_HASH: string;

/**
 * `dist/hook.cjs`: the hook bundle (`hook.<hash>.js` beside it) run with V8's code cache (see
 * `node/code-cache`), since Claude Code starts it on every session start and prompt. No V8 flags:
 * a hook is not a batch. Without its bundle it fails open, as every hook does: a line on stderr,
 * exit 0, and the prompt goes on.
 */
try {
	runBundleBeside(AI_MEMORY_HOOK_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module }, codeCacheDir(), "hook");
} catch (error) {
	if (!(error instanceof MissingBundleError)) throw error;
	process.stderr.write(`ai-memory hook: ${error.message}\n`);
}
