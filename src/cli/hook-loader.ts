import { codeCacheDir, runWithCodeCache } from "../node/code-cache";

/** The hook bundle (`src/cli/hook-entry.ts`, built) and its content hash, put here by the build. */
declare const AI_MEMORY_HOOK_BUNDLE: string;
declare const AI_MEMORY_HOOK_BUNDLE_HASH: string;

/**
 * `dist/hook.cjs`: the hook bundle run with V8's code cache (see `node/code-cache`), since Claude
 * Code starts it on every session start and prompt. No V8 flags: a hook is not a batch.
 */
runWithCodeCache(AI_MEMORY_HOOK_BUNDLE, AI_MEMORY_HOOK_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module }, codeCacheDir(), "hook");
