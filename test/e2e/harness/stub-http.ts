import type { IncomingHttpHeaders, IncomingMessage, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** What every model API stub of the harness shares: its body decoding, and listening on a free local port. */

/** A request body as its `content-encoding` says (gzip, deflate, br); the bytes as they came when it lies. */
function decodeBody(buf: Buffer, encoding: string | undefined): Buffer {
	try {
		if (encoding === "gzip") return gunzipSync(buf);
		if (encoding === "deflate") return inflateSync(buf);
		if (encoding === "br") return brotliDecompressSync(buf);
	} catch {
		// not what it said: keep the bytes
	}
	return buf;
}

/**
 * A request's body once it has all come, as the stubs record it: decoded, parsed as JSON when it
 * parses (else the text; null when empty), its headers without the ones that carry keys, and its text.
 */
export function readRequest(req: IncomingMessage, secretHeaders: readonly string[], then: (body: unknown, headers: IncomingHttpHeaders, raw: string) => void): void {
	const chunks: Buffer[] = [];
	req.on("data", (c: Buffer) => chunks.push(c));
	req.on("end", () => {
		const raw = decodeBody(Buffer.concat(chunks), req.headers["content-encoding"]?.toLowerCase()).toString("utf8");
		let body: unknown = null;
		if (raw.length > 0) {
			try {
				body = JSON.parse(raw);
			} catch {
				body = raw;
			}
		}
		const headers = { ...req.headers };
		for (const name of secretHeaders) delete headers[name];
		then(body, headers, raw);
	});
}

/** Starts `server` on 127.0.0.1 at a free port; `close` also ends the connections a client keeps open. */
export async function listenLocal(server: Server): Promise<{ url: string; port: number; close: () => Promise<void> }> {
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
