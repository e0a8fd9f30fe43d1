import { fail, vaultFolders, type VaultOptions } from "./cli-common";
import { loadSettings } from "./settings-file";
import { workingFolder } from "../node/working-folder";

/**
 * `ai-memory mcp --vault DIR`: the recall tools as a stdio MCP server, run by an agent. Its stdout
 * is the protocol's; a reason it cannot start goes to stderr (the agent shows the server failed).
 */
export async function runMcpServer(options: VaultOptions): Promise<number> {
	const where = await vaultFolders(options);
	if ("error" in where) return fail(where.error);
	// Loaded here only: the SDK is most of this command's code.
	const { serveRecall } = await import("../node/mcp-server");
	await serveRecall({ vault: where.vault, configDir: options.configDir, cwd: workingFolder(), loadSettings: (path, host) => loadSettings(path, [], host, "the recall tools answer once it is") });
	return 0;
}
