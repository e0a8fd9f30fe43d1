import { setRunFlags, codeCacheDir, runBundleBeside } from "../src/node/code-cache";

/** The reader bundle's content hash (`bench/agent-read.ts`, built beside this file), put here by the build. */
declare const AI_MEMORY_READER_BUNDLE_HASH: string;

/**
 * `bench/out/agent-read.cjs`: the reader run the way `dist/cli.cjs` runs a sync (its V8 flags, its
 * bundle in a file beside it, V8's code cache), so what the benchmark times is the CLI's reading as the CLI does it.
 */
setRunFlags();
runBundleBeside(AI_MEMORY_READER_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module }, codeCacheDir(), "reader");
