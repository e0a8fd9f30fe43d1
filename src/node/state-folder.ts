import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileReplacing } from "./atomic-write";
import { hookContextPath } from "./plugin-paths";
import { pendingCheckpoints, removeMergedCheckpoints } from "./checkpoints";
import type { StoredTranscript, TranscriptStore } from "../core/ports";
import { hash53 } from "../core/transcript/fold";
import type { TranscriptFile } from "../core/transcript/transcript-files";
import type { HookContext } from "../core/plan/hook-context";
import { restoreSyncState, type SyncState } from "../core/sync/sync-state";

/**
 * The sync's memory between runs, in the plugin's folder, shared by plugin and CLI:
 * `sync-state.json` (notes, digests, tags), `transcripts.json` (the files read and their stamps),
 * and one `models/<hash>.json` per transcript (cursor and folded model), so a run loads and
 * writes only what changed. Every write is atomic; an unchanged file is not rewritten.
 */
export class StateFolder implements TranscriptStore {
	private files: Map<string, TranscriptFile> | undefined;
	private readonly written = new Map<string, string>();
	/** Model writes under way: a read goes on while the last model is written. */
	private readonly pending = new Set<Promise<void>>();
	/** The latest write under way of each model file. */
	private readonly lastWrite = new Map<string, Promise<void>>();
	/** Checkpoint files (`checkpoints/*.json`, written by the PreCompact hook) merged by `loadState`. */
	private mergedCheckpoints: ReadonlyMap<string, string> = new Map();

	constructor(private readonly dir: string) {}

	async known(): Promise<TranscriptFile[]> {
		return [...(await this.fileMap()).values()];
	}

	async load(path: string): Promise<StoredTranscript | undefined> {
		const data = await this.readJson(this.modelPath(path));
		return isStoredTranscript(data) && data.file.path === path ? data : undefined;
	}

	async save(entry: StoredTranscript, json?: string): Promise<void> {
		(await this.fileMap()).set(entry.file.path, entry.file);
		// Serialized now (the model folds further later); written in the background, a few at a time.
		const path = this.modelPath(entry.file.path);
		const text = json ?? JSON.stringify(entry);
		while (this.pending.size >= MAX_PENDING_WRITES) await Promise.race(this.pending);
		// A model is saved only when its transcript changed: no need to compare with the file first.
		// Two saves of one model are written in order: the later one wins on disk too.
		const before = this.lastWrite.get(path);
		const write: Promise<void> = (before ? before.then(() => writeFileReplacing(path, text)) : writeFileReplacing(path, text)).finally(() => {
			this.pending.delete(write);
			if (this.lastWrite.get(path) === write) this.lastWrite.delete(path);
		});
		this.pending.add(write);
		this.lastWrite.set(path, write);
	}

	savePath(path: string): string {
		return this.modelPath(path);
	}

	async saved(file: TranscriptFile): Promise<void> {
		(await this.fileMap()).set(file.path, file);
	}

	/** `hooks/<hash>.json`: what a project's hooks print, rewritten only when it changed. */
	async writeHookContext(projectPath: string, context: HookContext): Promise<void> {
		await this.writeJson(hookContextPath(this.dir, projectPath), context);
	}

	/** The state, with the checkpoints hooks recorded since the last sync merged in. */
	async loadState(): Promise<SyncState> {
		const state = restoreSyncState(await this.readJson(join(this.dir, "sync-state.json")));
		const { checkpoints, files } = await pendingCheckpoints(this.dir);
		Object.assign(state.checkpoints, checkpoints);
		this.mergedCheckpoints = files;
		return state;
	}

	/** Writes the state and the list of transcripts read, if they changed, after every model. */
	async flush(state: SyncState): Promise<void> {
		await Promise.all(this.pending);
		await this.writeJson(join(this.dir, "sync-state.json"), state);
		const files = [...(await this.fileMap()).values()].sort((a, b) => a.path.localeCompare(b.path));
		await this.writeJson(join(this.dir, "transcripts.json"), files);
		// Merged checkpoints live in the state now.
		await removeMergedCheckpoints(this.mergedCheckpoints);
		this.mergedCheckpoints = new Map();
	}

	private async fileMap(): Promise<Map<string, TranscriptFile>> {
		if (!this.files) {
			const list = await this.readJson(join(this.dir, "transcripts.json"));
			this.files = new Map(Array.isArray(list) ? (list as TranscriptFile[]).filter((f) => typeof f?.path === "string").map((f) => [f.path, f]) : []);
		}
		return this.files;
	}

	private modelPath(path: string): string {
		return join(this.dir, "models", `${hash53(path).toString(36)}.json`);
	}

	private async readJson(path: string): Promise<unknown> {
		try {
			// Decoded in one pass (with an encoding, Node decodes and joins it chunk by chunk).
			const text = (await readFile(path)).toString("utf8");
			this.written.set(path, text);
			return JSON.parse(text) as unknown;
		} catch {
			// Missing or damaged state only costs a re-read of the transcripts.
			return undefined;
		}
	}

	private async writeJson(path: string, value: unknown): Promise<void> {
		await this.writeText(path, JSON.stringify(value));
	}

	private async writeText(path: string, text: string): Promise<void> {
		const cached = this.written.get(path);
		if (cached === text) return;
		// What this run read or wrote is what the file holds (writers take the sync lock): only a
		// file not seen yet is read to tell (sync-state.json is megabytes, read again for nothing).
		const known = cached ?? (await readFile(path, "utf8").catch(() => undefined));
		if (known === text) {
			this.written.set(path, text);
			return;
		}
		await writeFileReplacing(path, text);
		this.written.set(path, text);
	}
}

const MAX_PENDING_WRITES = 8;

function isStoredTranscript(value: unknown): value is StoredTranscript {
	if (typeof value !== "object" || value === null) return false;
	const v = value as Partial<StoredTranscript>;
	return typeof v.file?.path === "string" && typeof v.cursor?.offset === "number" && typeof v.model === "object" && v.model !== null;
}
