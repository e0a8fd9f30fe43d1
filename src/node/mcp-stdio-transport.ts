import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";
import type { RpcErrorReply } from "./mcp-input";

/**
 * Requests read and not yet answered (their answer not yet taken by stdout), plus other messages
 * waiting to be sent, at most: past it, stdin is not read until some leave. A client that sent
 * 20,000 requests and read no answer had the server hold them all, 1 GB; reading as it went, the
 * server still ran them all at once, 500 MB.
 */
export const MCP_OPEN_MAX = 32;

/**
 * The SDK's stdio transport, sending one answer at a time: its `send` waits for stdout's `drain`
 * with a listener of its own each, so 400 answers backed up on a client slow to read put 400
 * listeners on stdout, and Node printed `MaxListenersExceededWarning` on stderr. In turn, at most
 * one waits; the answers leave in the order they were given, each once. Reading pauses while
 * `MCP_OPEN_MAX` are open (pausing `input` pauses what it reads from: see `guardedInput`).
 */
export class OrderedStdioTransport extends StdioServerTransport {
	private backlog: Promise<void> = Promise.resolve();
	/** Requests read and not answered, by id (`JSON.stringify`: 1 and "1" are two). */
	private readonly open = new Map<string, number>();
	private sending = 0;
	private paused = false;
	private closed = false;

	constructor(
		private readonly input: Readable,
		output: Writable,
	) {
		super(input, output);
		// The client gone (EPIPE) or its end broken: nothing can be answered any more, so the server stops
		// reading and ends, quietly (unhandled, the error ended it with a stack trace on stderr).
		output.on("error", () => void this.close());
	}

	override async start(): Promise<void> {
		// The protocol sets its handler before it starts the transport: each message is counted on its way to it.
		const handle = this.onmessage;
		this.onmessage = (message: JSONRPCMessage) => {
			if (this.received(message)) handle?.(message);
		};
		await super.start();
	}

	override send(message: JSONRPCMessage | RpcErrorReply): Promise<void> {
		this.sending++;
		this.throttle();
		const sent = this.backlog.then(() => super.send(readableError(message as JSONRPCMessage)));
		this.backlog = sent
			.catch(() => undefined)
			.then(() => {
				this.sending--;
				if (("result" in message || "error" in message) && message.id !== null && message.id !== undefined) this.settle(JSON.stringify(message.id));
				this.throttle();
			});
		return sent;
	}

	/** Closed, it reads nothing more: its input is destroyed (only paused, stdin kept a server whose client had gone running for good). */
	override async close(): Promise<void> {
		this.closed = true;
		await super.close();
		this.input.destroy();
	}

	/**
	 * Counts a message on its way to the protocol, told apart as the protocol tells them (an answer
	 * first): only what it runs as a request gets an answer to wait for. False for a cancellation of
	 * no open request, which is not passed on: the protocol handles a notice a turn later, so one sent
	 * just before its request cancelled that request, which then got no answer at all.
	 */
	private received(message: JSONRPCMessage): boolean {
		if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) return true;
		let passOn = true;
		if (isJSONRPCRequest(message)) {
			const key = JSON.stringify(message.id);
			this.open.set(key, (this.open.get(key) ?? 0) + 1);
		} else if (isJSONRPCNotification(message) && message.method === "notifications/cancelled") {
			// A cancelled request gets no answer: it is open no more.
			passOn = this.settle(JSON.stringify((message.params as { requestId?: unknown } | undefined)?.requestId ?? null));
		}
		this.throttle();
		return passOn;
	}

	/** One request with this id answered or cancelled; false when none was open. */
	private settle(key: string): boolean {
		const count = this.open.get(key);
		if (count === undefined) return false;
		if (count > 1) this.open.set(key, count - 1);
		else this.open.delete(key);
		return true;
	}

	private throttle(): void {
		if (this.closed) return;
		let load = this.sending;
		for (const count of this.open.values()) load += count;
		if (!this.paused && load >= MCP_OPEN_MAX) {
			this.paused = true;
			this.input.pause();
		} else if (this.paused && load < MCP_OPEN_MAX) {
			this.paused = false;
			this.input.resume();
		}
	}
}

/**
 * A request whose params the SDK's schema refuses (`arguments: "str"`, `name: 5`) is answered by
 * the SDK as an internal error (-32603) whose message is zod's issue list as indented JSON; it is
 * sent as what it is, invalid params (-32602), with each issue in words.
 */
export function readableError(message: JSONRPCMessage): JSONRPCMessage {
	if (!("error" in message) || message.error.code !== -32603) return message;
	const issues = issueList(message.error.message);
	if (!issues) return message;
	const said = issues.map((issue) => `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}`).join("; ");
	return { ...message, error: { code: -32602, message: `Invalid params: ${said}` } };
}

function issueList(text: string): { path: (string | number)[]; message: string }[] | undefined {
	if (!text.startsWith("[")) return undefined;
	try {
		const value = JSON.parse(text) as unknown;
		const isIssue = (i: unknown) => typeof i === "object" && i !== null && typeof (i as { message?: unknown }).message === "string" && Array.isArray((i as { path?: unknown }).path);
		return Array.isArray(value) && value.length > 0 && value.every(isIssue) ? (value as { path: (string | number)[]; message: string }[]) : undefined;
	} catch {
		return undefined;
	}
}
