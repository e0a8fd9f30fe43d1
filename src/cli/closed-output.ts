/**
 * A reader that went away before we printed (`ai-memory … | head`, a hook runner that closed its
 * pipe) is no failure of ours: the write is dropped, quietly, and the exit code stays what the
 * work made it (a hook fails open). Any other stream error is still raised.
 */
export function ignoreClosedOutput(): void {
	for (const stream of [process.stdout, process.stderr]) {
		stream.on("error", (error: NodeJS.ErrnoException) => {
			if (error.code !== "EPIPE") throw error;
		});
	}
}
