import { setFlagsFromString } from "node:v8";
import { CLI_V8_FLAGS, codeCacheDir, runWithCodeCache } from "../src/node/code-cache";

/** The reader bundle (`bench/agent-read.ts`, built) and its content hash, put here by the build. */
declare const AI_MEMORY_READER_BUNDLE: string;
declare const AI_MEMORY_READER_BUNDLE_HASH: string;

/**
 * `bench/out/agent-read.cjs`: the reader run the way `dist/cli.cjs` runs a sync (its V8 flags, V8's
 * code cache), so what the benchmark times is the CLI's reading as the CLI does it.
 */
for (const flag of CLI_V8_FLAGS) setFlagsFromString(flag);
runWithCodeCache(AI_MEMORY_READER_BUNDLE, AI_MEMORY_READER_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module }, codeCacheDir(), "reader");
