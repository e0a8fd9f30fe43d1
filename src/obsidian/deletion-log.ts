/**
 * Notes and folders deleted in the vault, told as one burst: with live watching on, the plugin asks
 * for a sync then, whose listing of the notes folders finds the session notes gone
 * (`core/plan/notes-gone.ts`), so their neighbours and their project's index link past them at
 * once, not when a transcript of the project next changes. A folder's deletion may be one event per
 * note in it, then the folder's: one sync for all of them.
 */
export class DeletionLog {
	/** A burst is waiting to be told to `onBurst`. */
	private pending = false;
	private closed = false;

	constructor(private readonly onBurst: () => void) {}

	/** A deleted file or folder; only one that may be or hold a session note (a `.md` file, a folder) counts. */
	add(path: string, folder: boolean): void {
		if ((!folder && !path.toLowerCase().endsWith(".md")) || this.pending || this.closed) return;
		this.pending = true;
		window.setTimeout(() => {
			this.pending = false;
			if (!this.closed) this.onBurst();
		}, 0);
	}

	/** The plugin is unloaded: nothing more is told. */
	close(): void {
		this.closed = true;
	}
}
