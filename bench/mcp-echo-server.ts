import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

/** The baseline of the MCP benchmark: the smallest SDK server over stdio, one tool that echoes its argument. */
z.config({ jitless: true });
const server = new McpServer({ name: "echo", version: "1" }, { jsonSchemaValidator: { getValidator: () => () => ({ valid: false, data: undefined, errorMessage: "none" }) } });
server.registerTool("echo", { description: "echo", inputSchema: { query: z.string() } }, ({ query }) => ({ content: [{ type: "text", text: query }] }));
void server.connect(new StdioServerTransport());
