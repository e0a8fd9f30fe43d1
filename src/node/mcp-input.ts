import { PassThrough, type Readable } from "node:stream";

/** The longest request line passed on: a tool's arguments are a query and a few options. */
export const MCP_LINE_MAX = 4 * 1024 * 1024;

/** A JSON-RPC error reply, written by the guard itself (the SDK never sees what it answers). */
export interface RpcErrorReply {
	jsonrpc: "2.0";
	id: string | number | null;
	error: { code: number; message: string };
}

/**
 * The agent's requests as the SDK's stdio transport reads them, each line checked first. What the
 * transport cannot take is answered here with a JSON-RPC error instead of nothing: a line longer
 * than `MCP_LINE_MAX` (the SDK's buffer limit closed the transport, and the server ended without a
 * word), a line that is not JSON, a batch, or an id that is neither a string, a number nor null (the
 * SDK dropped them silently, and a client waited for ever). Valid lines pass on unchanged.
 */
export function guardedInput(input: Readable, reply: (message: RpcErrorReply) => void): Readable {
	const out = new PassThrough();
	let pending: Buffer[] = [];
	let pendingBytes = 0;
	let skipping = false;
	const line = (bytes: Buffer) => {
		const text = bytes.toString("utf8").replace(/\r$/, "");
		if (text.trim() === "") return;
		const problem = checkLine(text);
		if (problem) reply(problem);
		else out.write(`${text}\n`);
	};
	input.on("data", (chunk: Buffer | string) => {
		let bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
		for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a)) {
			if (skipping) skipping = false;
			else line(Buffer.concat([...pending, bytes.subarray(0, newline)]));
			pending = [];
			pendingBytes = 0;
			bytes = bytes.subarray(newline + 1);
		}
		if (skipping || bytes.length === 0) return;
		pending.push(bytes);
		pendingBytes += bytes.length;
		if (pendingBytes > MCP_LINE_MAX) {
			// Dropped as it comes, to its end: never held whole.
			pending = [];
			pendingBytes = 0;
			skipping = true;
			reply(errorReply(null, -32600, `a request longer than ${MCP_LINE_MAX / 1024 / 1024} MiB is not read`));
		}
	});
	input.on("end", () => {
		if (!skipping && pendingBytes > 0) line(Buffer.concat(pending));
		out.end();
	});
	input.on("error", (error) => out.destroy(error));
	return out;
}

/** Why a line is no single JSON-RPC message the transport takes, as the reply; undefined when it is one. */
function checkLine(text: string): RpcErrorReply | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		return errorReply(null, -32700, "not JSON");
	}
	if (Array.isArray(value)) return errorReply(null, -32600, "batches are not supported: send one request a line");
	if (typeof value !== "object" || value === null) return errorReply(null, -32600, "not a JSON-RPC message (an object)");
	const message = value as Record<string, unknown>;
	const id = message.id;
	const validId = id === undefined || id === null || typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
	if (!validId) return errorReply(null, -32600, "an id is a string, a number or null");
	if (message.jsonrpc !== "2.0") return errorReply(id ?? null, -32600, 'not a JSON-RPC 2.0 message ("jsonrpc": "2.0" is missing)');
	return undefined;
}

function errorReply(id: string | number | null, code: number, message: string): RpcErrorReply {
	return { jsonrpc: "2.0", id, error: { code, message } };
}
