import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * The SDK's stdio transport, sending one answer at a time: its `send` waits for stdout's `drain`
 * with a listener of its own each, so 400 answers backed up on a client slow to read put 400
 * listeners on stdout, and Node printed `MaxListenersExceededWarning` on stderr. In turn, at most
 * one waits; the answers leave in the order they were given, each once.
 */
export class OrderedStdioTransport extends StdioServerTransport {
	private backlog: Promise<void> = Promise.resolve();

	override send(message: JSONRPCMessage): Promise<void> {
		const sent = this.backlog.then(() => super.send(readableError(message)));
		this.backlog = sent.catch(() => undefined);
		return sent;
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
