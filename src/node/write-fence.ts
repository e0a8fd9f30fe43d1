import type { NoteStore } from "../core/ports";

/**
 * What a sync checks before each write it commits (a rename over a file, a file removed): that it
 * still holds the lock. A sync stopped while holding it (SIGSTOP, a suspended laptop, a debugger)
 * past the lock's stale time finds, once resumed, another sync holding it: without the check it
 * went on writing beside that one (attack round 47b: session files of the other's state removed,
 * every later sync stopped on "the state lists it, and it is gone").
 *
 * Kept here for as long as the sync runs, not in an async context: `AsyncLocalStorage` on Node 24
 * (the Electron of Obsidian 1.13) keeps its frame in a V8 slot that Chromium's task attribution
 * writes too, and reading it crashed the renderer (s2b-dev/smart-second-brain#492). A process runs
 * one sync at a time (the CLI one per run, the plugin one per vault window), so another write of the
 * process is checked only while a sync runs, and refused only once that sync has lost its lock.
 */
let fences: readonly (() => void)[] = [];

/** Runs `run` with `check` called before each write committed meanwhile; `check` throws to stop them. */
export async function withWriteFence<T>(check: () => void, run: () => Promise<T>): Promise<T> {
	fences = [...fences, check];
	try {
		return await run();
	} finally {
		fences = fences.filter((f) => f !== check);
	}
}

/** Throws when a sync running in this process no longer holds its lock; nothing while none runs. */
export function checkWriteFence(): void {
	for (const check of fences) check();
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
