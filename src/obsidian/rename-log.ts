/**
 * Notes and folders the user renamed or moved in Obsidian, kept until a sync takes them, so that
 * a moved session note, index, packet or fact keeps its identity (never "deleted by you").
 */
export class RenameLog {
	private moves: { from: string; to: string }[] = [];
	/** A change is waiting to be told to `onChange`. */
	private pending = false;

	/**
	 * @param onChange given the renames waiting after a burst of changes (the plugin keeps them on
	 * disk: Obsidian may quit before a sync). A folder's rename is one event per note in it, one
	 * after another: told at each, the whole list was written again each time (3,000 notes held
	 * Obsidian 2 s), so it is told once, when the burst is over, or at `flush`.
	 */
	constructor(private readonly onChange?: (moves: readonly { from: string; to: string }[]) => void) {}
	/** Moves the sync makes itself, announced before: their rename events are not the user's. */
	private readonly own = new Set<string>();

	add(from: string, to: string): void {
		if (from === to) return;
		// Logged as the user's, a move of the sync's own (the notes folder setting changed) pinned the index where it went then.
		if (this.own.delete(ownKey(from, to))) return;
		this.moves.push({ from, to });
		this.changed();
	}

	/** The sync is about to move a note itself: its rename event is not logged. */
	expect(from: string, to: string): void {
		this.own.add(ownKey(from, to));
	}

	/** The move did not happen (it failed): an event of that pair later is the user's again. */
	unexpect(from: string, to: string): void {
		this.own.delete(ownKey(from, to));
	}

	/** The renames so far, in order; the log is empty after. */
	take(): { from: string; to: string }[] {
		const taken = this.moves;
		this.moves = [];
		if (taken.length > 0) this.changed();
		return taken;
	}

	/** A sync that took them failed: they wait for the next one, before any made since. */
	putBack(moves: readonly { from: string; to: string }[]): void {
		if (moves.length === 0) return;
		this.moves = [...moves, ...this.moves];
		this.changed();
	}

	/** Tells `onChange` now of a change not told yet (the plugin is unloaded). */
	flush(): void {
		if (!this.pending) return;
		this.pending = false;
		this.onChange?.(this.moves);
	}

	private changed(): void {
		if (!this.onChange || this.pending) return;
		this.pending = true;
		window.setTimeout(() => this.flush(), 0);
	}
}

function ownKey(from: string, to: string): string {
	return `${from}\u0000${to}`;
}
