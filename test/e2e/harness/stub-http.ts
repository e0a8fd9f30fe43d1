import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";

/** What every model API stub of the harness shares: its body decoding, and listening on a free local port. */

/** A request body as its `content-encoding` says (gzip, deflate, br); the bytes as they came when it lies. */
export function decodeBody(buf: Buffer, encoding: string | undefined): Buffer {
	try {
		if (encoding === "gzip") return gunzipSync(buf);
		if (encoding === "deflate") return inflateSync(buf);
		if (encoding === "br") return brotliDecompressSync(buf);
	} catch {
		// not what it said: keep the bytes
	}
	return buf;
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
