import { fstatSync, writeSync } from "node:fs";
import { setImmediate } from "node:timers";

/**
 * A reader that went away before we printed (`ai-memory … | head`, a hook runner that closed its
 * pipe) is no failure of ours: the write is dropped, quietly, and the exit code stays what the
 * work made it (a hook fails open). Any other write error (a full disk under `> file`, `>
 * /dev/full`) is said in a line on stderr and ends the command with 1, not raised: raised, Node
 * printed the bundle's minified source line (tens of KB) and a stack. A hook (`failOpen`) drops it
 * too, and still exits 0: Claude Code then goes on without its output.
 *
 * The handler is put on each stream when it is first used: Node makes `process.stdout` and
 * `process.stderr` on first access, and making them at start cost every hook 5 ms, though most
 * print nothing.
 */
export function ignoreClosedOutput(failOpen = false): void {
	made.length = 0;
	dropAll = failOpen;
	for (const name of ["stdout", "stderr"] as const) {
		const own = Object.getOwnPropertyDescriptor(process, name);
		const make = own?.get?.bind(process) as (() => NodeJS.WriteStream) | undefined;
		if (own?.configurable !== true || make === undefined) {
			onlyRealErrors(process[name]);
			continue;
		}
		let stream: NodeJS.WriteStream | undefined;
		Object.defineProperty(process, name, {
			configurable: true,
			enumerable: own.enumerable,
			get: () => (stream ??= onlyRealErrors(make())),
		});
	}
}

/** The output streams made so far (see `ignoreClosedOutput`): those `exitWhenFlushed` waits for. */
const made: NodeJS.WriteStream[] = [];
let dropAll = false;

/**
 * Ends the process with `code` once what it printed has left (a pipe is written asynchronously on
 * macOS), without the teardown of a natural end: Node then frees the heap page by page, which was
 * 40 ms of a sync with nothing to do (a tenth of it), and more after a large one. For a command
 * whose work is done: nothing it started is waited for.
 */
export function exitWhenFlushed(code: number): void {
	const pending = made.filter((stream) => stream.writableLength > 0 && !stream.destroyed);
	let left = pending.length;
	// A write that failed (see `onlyRealErrors`) makes a command that did its work end with 1 all the
	// same; its error is emitted after the write's callback, so the exit waits a turn for it.
	const exit = () => setImmediate(() => process.exit(code === 0 ? (process.exitCode ?? 0) : code));
	// Nothing printed, nothing to fail: no turn of the event loop either, where V8 ran the garbage
	// collection it had put off (a hook that prints nothing: 2.5 ms of its 80, for a heap about to go).
	if (made.length === 0) process.exit(code === 0 ? (process.exitCode ?? 0) : code);
	if (left === 0) exit();
	// The callback of an empty write comes after the writes before it; with an error too (a closed pipe).
	for (const stream of pending) stream.write("", () => --left === 0 && exit());
}

function onlyRealErrors(stream: NodeJS.WriteStream): NodeJS.WriteStream {
	made.push(stream);
	stream.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code === "EPIPE" || dropAll) return;
		process.exitCode = 1;
		if (stream !== process.stderr) process.stderr.write(`ai-memory: what it printed could not be written (${error.code ?? error.message})\n`);
	});
	return stream;
}

/**
 * Whether stderr is a terminal, without making `process.stderr` (5 ms, see above): a pipe, a socket
 * or a file is not, by one `fstat`; a character device may be (`/dev/null` is one too), asked of `tty`.
 */
export function stderrIsTerminal(): boolean {
	let isDevice = false;
	try {
		isDevice = fstatSync(2).isCharacterDevice();
	} catch {
		return false;
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (a `require`: the bundles run as scripts, see `node/code-cache`)
	return isDevice && (require("node:tty") as typeof import("node:tty")).isatty(2);
}

/**
 * Prints `text` on stdout at once, by the file, without making `process.stdout` (4 ms of every
 * sync, see `ignoreClosedOutput`) and with nothing left to wait for at the exit. As the stream
 * would: a reader gone (EPIPE; or no stdout at all, EBADF) drops it quietly, another failure is
 * said on stderr and ends the command with 1. A stdout that would block (a non-blocking pipe
 * that is full) gets the rest through the stream, which waits.
 */
export function printOut(text: string): void {
	const bytes = Buffer.from(text, "utf8");
	let at = 0;
	try {
		while (at < bytes.length) at += writeSync(1, bytes, at);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "EAGAIN") process.stdout.write(bytes.subarray(at));
		else if (code !== "EPIPE" && code !== "EBADF" && !dropAll) {
			process.exitCode = 1;
			process.stderr.write(`ai-memory: what it printed could not be written (${code ?? String(error)})\n`);
		}
	}
}
