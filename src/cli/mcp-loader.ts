import { codeCacheDir, runWithCodeCache } from "../node/code-cache";

/** The MCP server bundle (`src/cli/mcp-entry.ts`, built) and its content hash, put here by the build. */
declare const AI_MEMORY_MCP_BUNDLE: string;
declare const AI_MEMORY_MCP_BUNDLE_HASH: string;

/** `dist/mcp.cjs`: the MCP server bundle run with V8's code cache (see `node/code-cache`); an agent starts it with each session. */
runWithCodeCache(AI_MEMORY_MCP_BUNDLE, AI_MEMORY_MCP_BUNDLE_HASH, { filename: __filename, dirname: __dirname, require, module }, codeCacheDir(), "mcp");
