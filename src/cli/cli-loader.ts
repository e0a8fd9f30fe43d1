import { setFlagsFromString } from "node:v8";
import { CLI_V8_FLAGS, runWithCodeCache } from "../node/code-cache";

/** The CLI bundle (`src/cli/main.ts`, built) and its content hash, put here by the build. */
declare const AI_MEMORY_CLI_BUNDLE: string;
declare const AI_MEMORY_CLI_BUNDLE_HASH: string;

/**
 * `dist/cli.cjs`: sets the run's V8 flags, then runs the CLI bundle with V8's code cache (see
 * `node/code-cache`). One file, so the plugin can carry it as text and write it beside itself.
 */
for (const flag of CLI_V8_FLAGS) setFlagsFromString(flag);
runWithCodeCache(AI_MEMORY_CLI_BUNDLE, AI_MEMORY_CLI_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module });
