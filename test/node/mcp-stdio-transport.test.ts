import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { PassThrough, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { guardedInput } from "../../src/node/mcp-input";
import { MCP_OPEN_MAX, OrderedStdioTransport, readableError } from "../../src/node/mcp-stdio-transport";

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

describe("OrderedStdioTransport's reading", () => {
	it(`reads no more while ${MCP_OPEN_MAX} requests are open: a client that read no answer had the server take all 1,000, then answers each once read`, async () => {
		const stdin = new PassThrough();
		let held: (() => void)[] | undefined = [];
		let text = "";
		const stdout = new Writable({
			highWaterMark: 1,
			write(chunk: Buffer, _encoding, done) {
				text += chunk.toString("utf8");
				if (held) held.push(done);
				else done();
			},
		});
		let calls = 0;
		const server = new McpServer({ name: "test", version: "1" });
		server.registerTool("t", { inputSchema: {} }, () => ({ content: [{ type: "text", text: String(++calls) }] }));
		const transport: OrderedStdioTransport = new OrderedStdioTransport(
			guardedInput(stdin, (reply) => void transport.send(reply)),
			stdout,
		);
		await server.connect(transport);
		const count = 1000;
		const lines = Array.from({ length: count }, (_, id) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "t", arguments: {} } })}\n`);
		// As a pipe brings them: a chunk at a time.
		for (let i = 0; i < count; i += 10) {
			stdin.write(lines.slice(i, i + 10).join(""));
			await new Promise((resolve) => setImmediate(resolve));
		}
		await new Promise((resolve) => setTimeout(resolve, 300));
		// One chunk of stdin may be read past the limit: it is split into lines as one.
		expect(calls).toBeLessThanOrEqual(MCP_OPEN_MAX + 10);
		// What is not read stays in the pipe, not in the server.
		expect(stdin.readableLength + stdin.writableLength).toBeGreaterThan(lines[0]!.length * (count - MCP_OPEN_MAX - 20));
		const waiting = held ?? [];
		held = undefined;
		for (const done of waiting) done();
		const answered = () => text.split("\n").filter((l) => l !== "");
		await expect.poll(() => answered().length, { timeout: 10_000, interval: 20 }).toBe(count);
		expect(new Set(answered().map((l) => (JSON.parse(l) as { id: number }).id)).size).toBe(count);
		await server.close();
	});
	it("counts a cancelled request, which gets no answer, as open no more: 31 of them left the server reading one request at a time", async () => {
		const stdin = new PassThrough();
		const stdout = slowStdout();
		const server = new McpServer({ name: "test", version: "1" });
		let held = 0;
		let release = () => {};
		const gate = new Promise<void>((resolve) => (release = resolve));
		server.registerTool("slow", { inputSchema: {} }, async () => {
			await new Promise((resolve) => setTimeout(resolve, 5));
			return { content: [] };
		});
		server.registerTool("held", { inputSchema: {} }, async () => {
			held++;
			await gate;
			return { content: [] };
		});
		await server.connect(new OrderedStdioTransport(stdin, stdout.stream));
		const call = (id: number, name: string) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
		for (let id = 1; id <= 100; id++) {
			stdin.write(`${call(id, "slow")}\n${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } })}\n`);
			await new Promise((resolve) => setImmediate(resolve));
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
		stdin.write(Array.from({ length: MCP_OPEN_MAX }, (_, i) => `${call(1000 + i, "held")}\n`).join(""));
		await expect.poll(() => held, { timeout: 5_000, interval: 20 }).toBe(MCP_OPEN_MAX);
		release();
		await expect.poll(() => stdout.lines().length, { timeout: 5_000, interval: 20 }).toBeGreaterThanOrEqual(MCP_OPEN_MAX);
		await server.close();
	});
});

describe("OrderedStdioTransport's cancellations", () => {
	it("passes on no cancellation of a request not open: one sent just before its request cancelled it, and it got no answer", async () => {
		const stdin = new PassThrough();
		const stdout = slowStdout();
		const server = new McpServer({ name: "test", version: "1" });
		await server.connect(new OrderedStdioTransport(stdin, stdout.stream));
		const cancel = (requestId: unknown) => JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId } });
		stdin.write([cancel(500), JSON.stringify({ jsonrpc: "2.0", id: 500, method: "ping" }), cancel(499), JSON.stringify({ jsonrpc: "2.0", id: 501, method: "ping" }), ""].join("\n"));
		await expect.poll(() => stdout.lines().map((l) => (JSON.parse(l) as { id: number }).id), { timeout: 5_000, interval: 20 }).toEqual([500, 501]);
		await server.close();
	});
});

describe("OrderedStdioTransport's end", () => {
	it("closes and lets stdin go when stdout fails (the client went away): the error was unhandled, a stack trace on stderr", async () => {
		const stdin = new PassThrough();
		const stdout = new Writable({
			write(_chunk, _encoding, done) {
				done(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
			},
		});
		const server = new McpServer({ name: "test", version: "1" });
		let closed = false;
		server.server.onclose = () => (closed = true);
		await server.connect(new OrderedStdioTransport(guardedInput(stdin, () => undefined), stdout));
		stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })}\n`);
		await expect.poll(() => closed, { timeout: 5_000, interval: 20 }).toBe(true);
		// Destroyed, not paused: a paused stdin kept the process running.
		await expect.poll(() => stdin.destroyed, { timeout: 5_000, interval: 20 }).toBe(true);
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
