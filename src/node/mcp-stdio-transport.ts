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
		const sent = this.backlog.then(() => super.send(message));
		this.backlog = sent.catch(() => undefined);
		return sent;
	}
}
