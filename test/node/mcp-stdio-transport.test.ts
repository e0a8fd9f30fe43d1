import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { PassThrough, Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { OrderedStdioTransport } from "../../src/node/mcp-stdio-transport";

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
