import { main } from "./mcp-main";

/**
 * `dist/mcp.cjs`: the MCP server alone (`node mcp.cjs mcp --vault …`, what `mcp install` writes):
 * the SDK is as big as the rest of the CLI, and every other command would pay for reading it.
 */
main(process.argv.slice(process.argv[2] === "mcp" ? 3 : 2));
