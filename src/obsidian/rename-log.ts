/**
 * Notes and folders the user renamed or moved in Obsidian, kept until a sync takes them, so that
 * a moved session note, index, packet or fact keeps its identity (never "deleted by you").
 */
export class RenameLog {
	private moves: { from: string; to: string }[] = [];

	add(from: string, to: string): void {
		if (from !== to) this.moves.push({ from, to });
	}

	/** The renames so far, in order; the log is empty after. */
	take(): { from: string; to: string }[] {
		const taken = this.moves;
		this.moves = [];
		return taken;
	}

	/** A sync that took them failed: they wait for the next one, before any made since. */
	putBack(moves: readonly { from: string; to: string }[]): void {
		this.moves = [...moves, ...this.moves];
	}
}
