import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { guardedInput, MCP_LINE_MAX, type RpcErrorReply } from "../../src/node/mcp-input";

/** What the guard passes on and what it answers, for the bytes given in `chunks`. */
async function guard(chunks: (string | Buffer)[]): Promise<{ passed: string; replies: RpcErrorReply[] }> {
	const input = new PassThrough();
	const replies: RpcErrorReply[] = [];
	const out = guardedInput(input, (reply) => replies.push(reply));
	let passed = "";
	out.on("data", (b: Buffer) => (passed += b.toString("utf8")));
	const ended = new Promise((done) => out.on("end", done));
	for (const chunk of chunks) input.write(chunk);
	input.end();
	await ended;
	return { passed, replies };
}

describe("guardedInput", () => {
	it("passes a JSON-RPC message on as it came, split or not", async () => {
		const message = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
		expect(await guard([message.slice(0, 10), `${message.slice(10)}\n`, '{"jsonrpc":"2.0","method":"notifications/initialized"}\r\n'])).toEqual({ passed: `${message}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`, replies: [] });
	});

	it("answers what the transport would drop: not JSON, a batch, a bad id, no jsonrpc", async () => {
		const { passed, replies } = await guard(['not json\n[{"jsonrpc":"2.0","id":3,"method":"ping"}]\n{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n{"id":9,"method":"ping"}\n']);
		expect(passed).toBe("");
		expect(replies.map((r) => [r.id, r.error.code])).toEqual([
			[null, -32700],
			[null, -32600],
			[null, -32600],
			[9, -32600],
		]);
	});

	it("skips a byte order mark before a message, and answers a broken line with the id its ends show", async () => {
		const ping = '{"jsonrpc":"2.0","id":"first","method":"ping"}';
		const broken = ['{"jsonrpc":"2.0","id":4,"method":"ping",}', '{"jsonrpc":"2.0","id":"cut","method":"tools/call","params":{"na', "{'jsonrpc':'2.0','method':'ping','id':12}", '{"method":"ping","id"6}'];
		const { passed, replies } = await guard([Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${ping}\n${broken.join("\n")}\n`)])]);
		expect(passed).toBe(`${ping}\n`);
		// The last two show no id where a message keeps one (first after plain members, or last): null.
		expect(replies.map((r) => [r.id, r.error.code])).toEqual([
			[4, -32700],
			["cut", -32700],
			[null, -32700],
			[null, -32700],
		]);
	});

	it("answers a message the SDK's schema refuses, with its id when it has one: the SDK dropped each without a word", async () => {
		const lines = [
			{ jsonrpc: "2.0", id: 2, method: "tools/call", params: "str" },
			{ jsonrpc: "2.0", id: 3, method: "tools/list", params: null },
			{ jsonrpc: "2.0", id: 19.5, method: "ping" },
			{ jsonrpc: "2.0", id: 1e300, method: "ping" },
			{ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x", _meta: { progressToken: { a: 1 } } } },
			{ jsonrpc: "2.0", id: 6, method: 5 },
			{ jsonrpc: "2.0", id: 7 },
			{ jsonrpc: "2.0", id: null, method: "ping" },
			{ jsonrpc: "2.0", id: 9, method: "ping", result: {} },
			{ jsonrpc: "2.0", id: 10, method: "ping", extra: 1 },
		];
		const ok = '{"jsonrpc":"2.0","id":8,"method":"ping"}';
		const { passed, replies } = await guard([`${lines.map((l) => JSON.stringify(l)).join("\n")}\n${ok}\n`]);
		expect(passed).toBe(`${ok}\n`);
		expect(replies.map((r) => [r.id, r.error.code])).toEqual([2, 3, 19.5, 1e300, 5, 6, 7, null, 9, 10].map((id) => [id, -32600]));
		expect(replies.map((r) => r.error.message)).toEqual([
			'"params" is not an object',
			'"params" is not an object',
			"the id 19.5 is not taken: give a string or a whole number",
			"the id 1e+300 is not taken: give a string or a whole number",
			"a member of the params of the wrong type (such as a progress token that is no string or number)",
			"the method is not a string",
			"no method: neither a request nor an answer",
			"an id of null is not taken: give a string or a whole number",
			"both a request (a method) and an answer (a result or an error)",
			'"extra" is no member of a JSON-RPC message',
		]);
	});

	it("drops a line longer than the limit as it comes, answers it, and goes on with the next", async () => {
		const big = Buffer.alloc(MCP_LINE_MAX + 10, 0x61);
		const next = '{"jsonrpc":"2.0","id":2,"method":"ping"}';
		const { passed, replies } = await guard([big.subarray(0, 1024 * 1024), big.subarray(1024 * 1024), `\n${next}\n`]);
		expect(passed).toBe(`${next}\n`);
		expect(replies).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32600, message: "a request longer than 4 MiB is not read" } }]);
	});

	it("answers a line too long to read with its own id, found at its start or its end: a client waits for its id, and one answered with none waited for good", async () => {
		const filler = "a".repeat(MCP_LINE_MAX);
		const atEnd = `{"method":"tools/call","params":{"name":"get_session","arguments":{"query":"${filler}","id":"not-this"}},"jsonrpc":"2.0","id":326}`;
		const atStart = `{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"arguments":{"query":"${filler}"}}}`;
		const nested = `{"jsonrpc":"2.0","method":"x","params":{"q":"${filler}","id":5}}`;
		const cut = (text: string) => [text.slice(0, 3), text.slice(3, 1000), text.slice(1000, text.length - 2), text.slice(text.length - 2)];
		const { replies } = await guard([...cut(atEnd), "\n", ...cut(atStart), "\r\n", ...cut(nested), "\n", ...cut(atEnd.replace("326", "327"))]);
		expect(replies.map((r) => r.id)).toEqual([326, "req-7", null, 327]);
	});
});
