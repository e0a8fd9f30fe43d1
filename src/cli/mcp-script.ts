import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fail } from "./cli-common";

/**
 * The MCP server script beside this CLI: `mcp.cjs` beside `cli.cjs`, `ai-memory-mcp.cjs` beside the
 * plugin's `ai-memory.cjs`. Undefined when there is none (a CLI run from its sources).
 */
export function mcpScriptPath(cli: string = resolve(__filename)): string | undefined {
	const name = basename(cli, ".cjs");
	for (const candidate of [join(dirname(cli), "mcp.cjs"), join(dirname(cli), `${name}-mcp.cjs`)]) if (candidate !== cli && existsSync(candidate)) return candidate;
	return undefined;
}

/** `ai-memory mcp` from the whole CLI: runs the server script beside it in this process (it reads the same arguments). */
export function runMcpScript(): number {
	const script = mcpScriptPath();
	if (script === undefined) return fail(`the MCP server script is not beside ${resolve(__filename)} (build it with \`npm run build:cli\`: dist/mcp.cjs)`);
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the server is a script of its own, loaded only for this command
	require(script);
	return 0;
}
