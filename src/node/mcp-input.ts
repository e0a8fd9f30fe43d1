import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
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
 * word; answered once it ends, with its id when its ends show it), a line that is not JSON (its id too), a batch,
 * or a message the SDK's own schema refuses (an id that is an object, null or 19.5, params that are
 * a string, no method: the SDK dropped them silently, and a client waited for ever). Valid lines pass on unchanged.
 */
export function guardedInput(input: Readable, reply: (message: RpcErrorReply) => void): Readable {
	const out = new PassThrough();
	let pending: Buffer[] = [];
	let pendingBytes = 0;
	/** The line being dropped: its first and last bytes, where its id is. */
	let skipped: { head: Buffer; tail: Buffer } | undefined;
	const line = (bytes: Buffer) => {
		// A byte order mark before a message is no part of it (RFC 8259 lets a reader skip one): .NET's
		// stdin writer starts the stream with one, and the client's initialize was refused as no JSON.
		const text = bytes.toString("utf8").replace(/\r$/, "").replace(/^\uFEFF/, "");
		if (text.trim() === "") return;
		const problem = checkLine(text);
		if (problem) reply(problem);
		else out.write(`${text}\n`);
	};
	// Answered once the line has ended, with its id when its ends show it: a client waits for its own id, and an answer with none left it waiting for good.
	const refuse = ({ head, tail }: { head: Buffer; tail: Buffer }) => reply(errorReply(idAtEnds(head.toString("utf8"), tail.toString("utf8")), -32600, `a request longer than ${MCP_LINE_MAX / 1024 / 1024} MiB is not read`));
	input.on("data", (chunk: Buffer | string) => {
		let bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
		for (let newline = bytes.indexOf(0x0a); newline >= 0; newline = bytes.indexOf(0x0a)) {
			if (skipped) refuse({ head: skipped.head, tail: lastBytes([skipped.tail, bytes.subarray(0, newline)]) });
			else line(Buffer.concat([...pending, bytes.subarray(0, newline)]));
			skipped = undefined;
			pending = [];
			pendingBytes = 0;
			bytes = bytes.subarray(newline + 1);
		}
		if (bytes.length === 0) return;
		if (skipped) {
			skipped.tail = lastBytes([skipped.tail, bytes]);
			return;
		}
		pending.push(bytes);
		pendingBytes += bytes.length;
		if (pendingBytes > MCP_LINE_MAX) {
			// Dropped as it comes, to its end: never held whole.
			skipped = { head: firstBytes(pending), tail: lastBytes(pending) };
			pending = [];
			pendingBytes = 0;
		}
	});
	input.on("end", () => {
		if (skipped) refuse(skipped);
		else if (pendingBytes > 0) line(Buffer.concat(pending));
		out.end();
	});
	input.on("error", (error) => out.destroy(error));
	// Paused by its reader (too many requests open), nothing more is read: lines would only pile up here.
	out.on("pause", () => input.pause());
	out.on("resume", () => input.resume());
	// Its reader done with it (the transport closed), what it reads from is done with too.
	out.on("close", () => input.destroy());
	return out;
}

/** How much of a dropped line's start and end is kept to find its id in. */
const ID_EDGE_BYTES = 1024;

function firstBytes(parts: readonly Buffer[]): Buffer {
	const taken: Buffer[] = [];
	for (let i = 0, n = 0; i < parts.length && n < ID_EDGE_BYTES; n += parts[i]!.length, i++) taken.push(parts[i]!);
	return Buffer.concat(taken).subarray(0, ID_EDGE_BYTES);
}

function lastBytes(parts: readonly Buffer[]): Buffer {
	const taken: Buffer[] = [];
	for (let i = parts.length - 1, n = 0; i >= 0 && n < ID_EDGE_BYTES; n += parts[i]!.length, i--) taken.unshift(parts[i]!);
	const joined = Buffer.concat(taken);
	return joined.subarray(Math.max(0, joined.length - ID_EDGE_BYTES));
}

const JSON_ID = String.raw`(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null)`;
/** The message's own id at its start, after plain string members only (`{"jsonrpc":"2.0","id":7,…`). */
const ID_AT_START = new RegExp(String.raw`^\s*\{(?:\s*"\w+"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*${JSON_ID}`);
/** Its own id as its last member (`…},"id":7}`, as the SDK's client writes it): only a top-level member ends the line with one brace. */
const ID_AT_END = new RegExp(String.raw`,\s*"id"\s*:\s*${JSON_ID}\s*\}\s*$`);

/** The id a line too long or too broken to read gives at its start or its end; null when neither shows one. */
function idAtEnds(head: string, tail: string): string | number | null {
	const found = ID_AT_START.exec(head) ?? ID_AT_END.exec(tail);
	if (!found) return null;
	try {
		const id = JSON.parse(found[1]!) as unknown;
		return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
	} catch {
		return null;
	}
}

/** Why a line is no single JSON-RPC message the transport takes, as the reply; undefined when it is one. */
function checkLine(text: string): RpcErrorReply | undefined {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		// With the id its ends show (a trailing comma, a line cut short): a client waits for its own id, and one with none left it waiting for good.
		return errorReply(idAtEnds(text.slice(0, ID_EDGE_BYTES), text.slice(-ID_EDGE_BYTES)), -32700, "not JSON");
	}
	if (Array.isArray(value)) return errorReply(null, -32600, "batches are not supported: send one request a line");
	if (typeof value !== "object" || value === null) return errorReply(null, -32600, "not a JSON-RPC message (an object)");
	const message = value as Record<string, unknown>;
	const id = message.id;
	// Echoed as it came when it can be (19.5 is what that client waits for), else null.
	const replyId = typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
	if (id !== undefined && id !== null && replyId === null) return errorReply(null, -32600, "an id is a string or a whole number");
	if (message.jsonrpc !== "2.0") return errorReply(replyId, -32600, 'not a JSON-RPC 2.0 message ("jsonrpc": "2.0" is missing)');
	// What the SDK's transport reads it with: a message this refuses, it dropped without a word.
	if (!JSONRPCMessageSchema.safeParse(value).success) return errorReply(replyId, -32600, shapeProblem(message));
	return undefined;
}

const MESSAGE_MEMBERS = new Set(["jsonrpc", "id", "method", "params", "result", "error"]);

/** What is wrong with a JSON-RPC object the SDK's schema refuses, in words. */
function shapeProblem(message: Record<string, unknown>): string {
	const { id, method, params } = message;
	if (id === null) return "an id of null is not taken: give a string or a whole number";
	if (typeof id === "number" && !Number.isSafeInteger(id)) return `the id ${id} is not taken: give a string or a whole number`;
	if (method !== undefined && typeof method !== "string") return "the method is not a string";
	if (method === undefined && !("result" in message) && !("error" in message)) return "no method: neither a request nor an answer";
	if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) return '"params" is not an object';
	const unknown = Object.keys(message).find((key) => !MESSAGE_MEMBERS.has(key));
	if (unknown !== undefined) return `${JSON.stringify(unknown)} is no member of a JSON-RPC message`;
	if (method !== undefined) return "result" in message || "error" in message ? "both a request (a method) and an answer (a result or an error)" : "a member of the params of the wrong type (such as a progress token that is no string or number)";
	return "not a JSON-RPC answer the server takes";
}

function errorReply(id: string | number | null, code: number, message: string): RpcErrorReply {
	return { jsonrpc: "2.0", id, error: { code, message } };
}
