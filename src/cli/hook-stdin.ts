import { fstatSync, readSync } from "node:fs";
import { clearTimeout, setTimeout } from "node:timers";

/**
 * What Claude Code wrote on a hook's stdin, up to its end, `maxBytes` (past which it is no JSON
 * the hook reads) or `timeoutMs` (a writer that never closes it: a terminal, a stuck parent), so a
 * hook never waits for good. Claude Code hands hooks a socket; read with `readSync` once the socket
 * is non-blocking, not as Node's `process.stdin` stream, whose `net` and stream code cost every
 * hook about 8 ms (of the 65 ms `node -e 0` takes; measured, 40 alternating rounds).
 */
export function readStdin(timeoutMs: number, maxBytes: number): Promise<string> {
	let stats;
	try {
		stats = fstatSync(0);
	} catch {
		return Promise.resolve("");
	}
	// A terminal is never closed by its writer; `/dev/null` says nothing; `/dev/zero` never ends.
	if (stats.isCharacterDevice()) return Promise.resolve("");
	// A file never blocks; a socket or a FIFO, once made non-blocking, is read the same way.
	if (stats.isFile() || ((stats.isSocket() || stats.isFIFO()) && nonBlocking())) return polled(timeoutMs, maxBytes);
	return streamed(timeoutMs, maxBytes);
}

/** Kept, so the handle that made stdin non-blocking is never collected (closing it would close fd 0). */
const handles: unknown[] = [];

/**
 * Makes fd 0 non-blocking as Node's own stdin does (libuv's `uv_pipe_open`), through the handle
 * behind `net.Socket` without `net`. Node's internal binding: where it is gone or refuses, the
 * stream is read instead; never on Windows, where a pipe is no file descriptor that polls.
 */
function nonBlocking(): boolean {
	if (process.platform === "win32") return false;
	try {
		const { Pipe, constants } = (process as unknown as { binding(name: "pipe_wrap"): { Pipe: new (type: number) => { open(fd: number): void }; constants: { SOCKET: number } } }).binding("pipe_wrap");
		const pipe = new Pipe(constants.SOCKET);
		pipe.open(0);
		handles.push(pipe);
		return true;
	} catch {
		return false;
	}
}

/** Stdin that never blocks, read as it comes: the next try 1 ms after an empty read, then 2, 4 … up to 20 ms. */
function polled(timeoutMs: number, maxBytes: number): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let bytes = 0;
		let wait = 1;
		const deadline = Date.now() + timeoutMs;
		const finish = () => resolve(Buffer.concat(chunks).toString("utf8"));
		const step = () => {
			for (;;) {
				const chunk = Buffer.allocUnsafe(64 * 1024);
				let n: number;
				try {
					n = readSync(0, chunk, 0, chunk.length, null);
				} catch (error) {
					const code = (error as NodeJS.ErrnoException).code;
					if ((code === "EAGAIN" || code === "EWOULDBLOCK") && Date.now() < deadline) {
						setTimeout(step, Math.min(wait, deadline - Date.now()));
						wait = Math.min(wait * 2, 20);
						return;
					}
					return finish();
				}
				if (n === 0) return finish();
				chunks.push(chunk.subarray(0, n));
				wait = 1;
				if ((bytes += n) > maxBytes) return finish();
			}
		};
		step();
	});
}

/** Node's stream, where stdin cannot be made non-blocking here. */
function streamed(timeoutMs: number, maxBytes: number): Promise<string> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		const finish = () => {
			clearTimeout(timer);
			process.stdin.removeAllListeners("data");
			process.stdin.pause();
			resolve(Buffer.concat(chunks).toString("utf8"));
		};
		const timer = setTimeout(finish, timeoutMs);
		let bytes = 0;
		process.stdin.on("data", (chunk: Buffer) => {
			chunks.push(chunk);
			bytes += chunk.length;
			if (bytes > maxBytes) finish();
		});
		process.stdin.once("end", finish);
		process.stdin.once("error", finish);
	});
}
