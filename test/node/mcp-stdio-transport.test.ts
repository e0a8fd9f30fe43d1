import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { PassThrough, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { OrderedStdioTransport, readableError } from "../../src/node/mcp-stdio-transport";

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
	process.off("warning", onWarning);
	warnings.length = 0;
});

/** A client's end of stdout that reads a little at a time: every answer backs up. */
function slowStdout(): { stream: Writable; lines: () => string[]; mostDrainListeners: () => number } {
	let text = "";
	let most = 0;
	const stream = new Writable({
		highWaterMark: 64,
		write(chunk: Buffer, _encoding, done) {
			most = Math.max(most, stream.listenerCount("drain"));
			text += chunk.toString("utf8");
			setTimeout(done, 0);
		},
	});
	return { stream, lines: () => text.split("\n").filter((l) => l !== ""), mostDrainListeners: () => most };
}

describe("OrderedStdioTransport", () => {
	it("answers 400 requests into a stdout slow to drain, each once and in order, with no MaxListenersExceededWarning", async () => {
		process.on("warning", onWarning);
		const stdin = new PassThrough();
		const stdout = slowStdout();
		const server = new McpServer({ name: "test", version: "1" });
		await server.connect(new OrderedStdioTransport(stdin, stdout.stream));
		const count = 400;
		stdin.write(Array.from({ length: count }, (_, id) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`).join(""));
		await expect.poll(() => stdout.lines().length, { timeout: 10_000, interval: 20 }).toBe(count);
		expect(stdout.lines().map((l) => (JSON.parse(l) as { id: number }).id)).toEqual(Array.from({ length: count }, (_, id) => id));
		// Warnings are emitted on the next tick: let one pass before looking.
		await new Promise((resolve) => setImmediate(resolve));
		expect(warnings.map((w) => w.name)).not.toContain("MaxListenersExceededWarning");
		expect(stdout.mostDrainListeners()).toBeLessThanOrEqual(1);
		await server.close();
	});
});

describe("readableError", () => {
	it("answers params the SDK's schema refuses as invalid params in words, not zod's issue list under internal error", async () => {
		const stdin = new PassThrough();
		const stdout = slowStdout();
		const server = new McpServer({ name: "test", version: "1" });
		server.registerTool("t", { inputSchema: {} }, () => ({ content: [] }));
		await server.connect(new OrderedStdioTransport(stdin, stdout.stream));
		stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: "str" } })}\n`);
		await expect.poll(() => stdout.lines().length, { timeout: 5_000, interval: 20 }).toBe(1);
		expect(JSON.parse(stdout.lines()[0]!)).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params: params.arguments: Invalid input: expected record, received string" } });
		await server.close();
	});

	it("leaves every other answer as it is", () => {
		const other = { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "[not json" } } as const;
		expect(readableError(other)).toBe(other);
		const result = { jsonrpc: "2.0", id: 3, result: {} } as const;
		expect(readableError(result)).toBe(result);
	});
});
