/**
 * A reader that went away before we printed (`ai-memory … | head`, a hook runner that closed its
 * pipe) is no failure of ours: the write is dropped, quietly, and the exit code stays what the
 * work made it (a hook fails open). Any other stream error is still raised.
 *
 * The handler is put on each stream when it is first used: Node makes `process.stdout` and
 * `process.stderr` on first access, and making them at start cost every hook 5 ms, though most
 * print nothing.
 */
export function ignoreClosedOutput(): void {
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

function onlyRealErrors(stream: NodeJS.WriteStream): NodeJS.WriteStream {
	stream.on("error", (error: NodeJS.ErrnoException) => {
		if (error.code !== "EPIPE") throw error;
	});
	return stream;
}
