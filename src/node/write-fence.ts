import { AsyncLocalStorage } from "node:async_hooks";
import type { NoteStore } from "../core/ports";

/**
 * What a sync checks before each write it commits (a rename over a file, a file removed): that it
 * still holds the lock. A sync stopped while holding it (SIGSTOP, a suspended laptop, a debugger)
 * past the lock's stale time finds, once resumed, another sync holding it: without the check it
 * went on writing beside that one (attack round 47b: session files of the other's state removed,
 * every later sync stopped on "the state lists it, and it is gone"). Carried by the async context,
 * so it holds for every write the sync makes however deep, and for no one else's in the process
 * (the plugin's settings, a hook's checkpoint).
 */
const fence = new AsyncLocalStorage<() => void>();

/** Runs `run` with `check` called before each write it commits; `check` throws to stop them. */
export function withWriteFence<T>(check: () => void, run: () => Promise<T>): Promise<T> {
	return fence.run(check, run);
}

/** Throws when the sync this runs in no longer holds its lock; nothing outside a fenced run. */
export function checkWriteFence(): void {
	fence.getStore()?.();
}

/** Runs `run` unchecked: what gives another program's bytes back (see `yieldTo`) is never held back. */
export function outsideWriteFence<T>(run: () => T): T {
	return fence.exit(run);
}

/**
 * The note store, its writes checked first: the plugin's goes through Obsidian's API, not through
 * the writes above.
 */
export function fencedNotes(notes: NoteStore): NoteStore {
	const fenced: NoteStore = {
		read: (path) => notes.read(path),
		write: async (path, text, expected) => {
			checkWriteFence();
			return notes.write(path, text, expected);
		},
		list: (folder) => notes.list(folder),
		remove: async (path, expected) => {
			checkWriteFence();
			return notes.remove(path, expected);
		},
		move: async (moves) => {
			checkWriteFence();
			return notes.move(moves);
		},
	};
	const create = notes.create?.bind(notes);
	if (create)
		fenced.create = async (path, parts) => {
			checkWriteFence();
			return create(path, parts);
		};
	const listTree = notes.listTree?.bind(notes);
	if (listTree) fenced.listTree = listTree;
	const isFolder = notes.isFolder?.bind(notes);
	if (isFolder) fenced.isFolder = isFolder;
	return fenced;
}
