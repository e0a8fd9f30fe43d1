/**
 * Notes and folders the user renamed or moved in Obsidian, kept until a sync takes them, so that
 * a moved session note, index, packet or fact keeps its identity (never "deleted by you").
 */
export class RenameLog {
	private moves: { from: string; to: string }[] = [];
	/** A change is waiting to be told to `onChange`. */
	private pending = false;
	/** What running syncs took, by sync, until each is done. */
	private readonly held: (readonly { from: string; to: string }[])[] = [];
	/** The plugin was unloaded: nothing more is told. */
	private closed = false;

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

	/**
	 * The renames so far, in order; the log is empty after. They are still told to `onChange` until
	 * the sync that took them says `done` (or puts them back): told as gone at once, a sync waiting
	 * for the CLI's lock when Obsidian quit lost them for good, and the renamed note's session was
	 * taken for one whose note the person deleted.
	 */
	take(): { from: string; to: string }[] {
		const taken = this.moves;
		this.moves = [];
		if (taken.length > 0) this.held.push(taken);
		return taken;
	}

	/** The sync that took `moves` applied them. */
	done(moves: readonly { from: string; to: string }[]): void {
		if (this.release(moves)) this.changed();
	}

	/** A sync that took them failed: they wait for the next one, before any made since. */
	putBack(moves: readonly { from: string; to: string }[]): void {
		this.release(moves);
		if (moves.length === 0) return;
		this.moves = [...moves, ...this.moves];
		this.changed();
	}

	/** Tells `onChange` now of a change not told yet. */
	flush(): void {
		if (!this.pending || this.closed) return;
		this.pending = false;
		this.onChange?.([...this.held.flat(), ...this.moves]);
	}

	/** The plugin is unloaded: told once more (with those a running sync holds), then never again. */
	close(): void {
		if (this.held.length > 0) this.pending = true;
		this.flush();
		this.closed = true;
	}

	private release(moves: readonly { from: string; to: string }[]): boolean {
		const i = this.held.indexOf(moves);
		if (i >= 0) this.held.splice(i, 1);
		return i >= 0;
	}

	private changed(): void {
		if (!this.onChange || this.pending || this.closed) return;
		this.pending = true;
		window.setTimeout(() => this.flush(), 0);
	}
}

function ownKey(from: string, to: string): string {
	return `${from}\u0000${to}`;
}
