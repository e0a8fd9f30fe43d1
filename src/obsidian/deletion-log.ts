/**
 * Notes and folders deleted in the vault, kept until a sync takes them, so that the sync looks at
 * their sessions then: a session note deleted is "deleted by you", and its neighbours and its
 * project's index link past it at once, not when a transcript of its project next changes. Only a
 * hint: what is on disk decides, so the sync's own deletions and a note made again do no harm. Not
 * kept across a restart (the next sync in which the project changes notices the note as before).
 */
export class DeletionLog {
	private paths: string[] = [];
	/** A burst is waiting to be told to `onBurst`. */
	private pending = false;
	private closed = false;

	/**
	 * @param onBurst called once after a burst of deletions (a folder's deletion may be one event per
	 * note in it, then the folder's).
	 */
	constructor(private readonly onBurst?: () => void) {}

	/** A deleted file or folder; only one that may be or hold a session note (a `.md` file, a folder) is kept. */
	add(path: string, folder: boolean): void {
		if (!folder && !path.toLowerCase().endsWith(".md")) return;
		this.paths.push(path);
		if (!this.onBurst || this.pending || this.closed) return;
		this.pending = true;
		window.setTimeout(() => {
			this.pending = false;
			if (!this.closed) this.onBurst?.();
		}, 0);
	}

	/** The deletions so far, in order; the log is empty after. */
	take(): string[] {
		const taken = this.paths;
		this.paths = [];
		return taken;
	}

	/** A sync that took them failed: they wait for the next one. */
	putBack(paths: readonly string[]): void {
		this.paths = [...paths, ...this.paths];
	}

	/** The plugin is unloaded: nothing more is told. */
	close(): void {
		this.closed = true;
	}
}
