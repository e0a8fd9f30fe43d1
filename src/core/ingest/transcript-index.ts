import type { StoredTranscript, TranscriptSource, TranscriptStore } from "../ports";
import { codeUnitOrder } from "../text/code-unit-order";
import { storedJson, type FoldedWhole } from "./fold-whole";
import type { PreparedSession } from "./prepare-session";
import { redactMeta, redactModelAgain, redactModelInPlace } from "./redact-model";
import { describeWriteError, isFileSystemError } from "../write-error";
import { exclusionKey, redactionKey, redactorFor, isKeptOutOfStore, type RedactionSpec } from "./redaction-policy";
import { foldFor, readsWhole, sessionFor } from "../transcript/fold-for";
import { linkSubagents, type SessionWithAgents, type SubagentMeta } from "../transcript/link-subagents";
import { restoreSession, serializeSession, type SessionModel } from "../transcript/session-model";
import { diffScan, type FileStamp, type TailCursor, type TranscriptFile } from "../transcript/transcript-files";

/** Files in flight: parsing one overlaps reading the next; with worker threads, several parse at once. */
const READ_CONCURRENCY = 8;

export interface IndexedTranscript {
	file: TranscriptFile;
	cursor: TailCursor;
	model: SessionModel;
	meta?: SubagentMeta;
	/** Digest and prompt terms, when a worker thread made them along with the model. */
	prepared?: PreparedSession;
}

export interface RefreshResult {
	/** Files read this time (new or grown or replaced). */
	updated: IndexedTranscript[];
	/** Paths that disappeared upstream. Their models stay: a purged transcript keeps its note. */
	removed: string[];
	unchanged: number;
	bytesRead: number;
	/** Files that could not be read this time (permissions, vanished mid-read): path and reason. */
	failed: { path: string; reason: string }[];
}

/**
 * One folded session model per transcript file, brought up to date by reading only appended
 * bytes. With a store, models survive between runs and are loaded only when their file changed
 * or a caller asks for them.
 */
export class TranscriptIndex {
	private readonly entries = new Map<string, IndexedTranscript>();
	private readonly files = new Map<string, TranscriptFile>();
	/** Per project, the parents the last scan's sub-agent files name (undefined: a legacy `agent-*.jsonl`). */
	private subagentParents = new Map<string, Set<string | undefined>>();
	/** Files the store has a model for; others need no look there. */
	private readonly stored = new Set<string>();
	private knownLoaded = false;

	/**
	 * @param redaction the redaction settings, applied to every model after each read (only to what
	 * is new), so nothing downstream (notes, state) sees a secret.
	 */
	constructor(
		private readonly source: TranscriptSource,
		private readonly store?: TranscriptStore,
		private readonly redaction?: () => RedactionSpec,
	) {}

	/** The entry of a file, loaded from the store when needed. */
	async get(path: string): Promise<IndexedTranscript | undefined> {
		const cached = this.entries.get(path);
		if (cached || !this.store || !this.stored.has(path)) return cached;
		const stored = await this.store.load(path);
		if (!stored) return undefined;
		const entry = { file: stored.file, cursor: stored.cursor, model: restoreSession(stored.model), meta: stored.meta };
		this.entries.set(path, entry);
		// Redacted under other settings (a pattern added, redaction turned on): redacted again, and stored so.
		const spec = this.redaction?.();
		if (spec && stored.redaction !== redactionKey(spec, entry.model.cwd)) {
			const redact = redactorFor(spec, entry.model.cwd);
			redactModelAgain(entry.model, redact);
			entry.meta = redactMeta(entry.meta, redact);
			await this.store.save(toStored(entry, spec));
		}
		return entry;
	}

	/** Entries held in memory (all of them when no store is used). */
	loaded(): IndexedTranscript[] {
		return [...this.entries.values()];
	}

	/** Drops files from the index and the store, their stamps too: a later refresh reads them as new. */
	async forget(paths: readonly string[]): Promise<void> {
		await this.loadKnown();
		for (const path of paths) {
			this.entries.delete(path);
			this.files.delete(path);
			this.stored.delete(path);
			await this.store?.forget?.(path);
		}
	}

	/** Every transcript file known, read or not. */
	knownFiles(): TranscriptFile[] {
		return [...this.files.values()];
	}

	/** @param onRead called for each file as soon as it is read, while others are still being read. */
	async refresh(onRead?: (entry: IndexedTranscript) => void): Promise<RefreshResult> {
		await this.loadKnown();
		const scanned = await this.source.scan();
		this.subagentParents = new Map();
		for (const f of scanned) {
			if (f.kind !== "subagent") continue;
			const parents = this.subagentParents.get(f.projectDir) ?? new Set();
			parents.add(f.parentSessionId);
			this.subagentParents.set(f.projectDir, parents);
		}
		const stamps = new Map<string, FileStamp>(this.files);
		const diff = diffScan(stamps, scanned);
		for (const file of diff.unchanged) if (!this.files.has(file.path)) this.files.set(file.path, file);
		// Kept out of the store under other exclusions (one was lifted, say): read again.
		const exclusions = exclusionKey(this.redaction?.());
		const again = diff.unchanged.filter((f) => { const known = this.files.get(f.path)?.keptOut; return known !== undefined && known !== exclusions; });
		const unchanged = diff.unchanged.length - again.length;
		return this.readAll([...diff.added, ...diff.changed, ...again], { removed: diff.removed, unchanged }, onRead);
	}

	/** Whether the file is known (read before, in this run or an earlier one). */
	async knows(path: string): Promise<boolean> {
		await this.loadKnown();
		return this.files.has(path);
	}

	/** Re-reads known files a watcher named, without scanning the whole tree. */
	async refreshPaths(paths: readonly string[], onRead?: (entry: IndexedTranscript) => void): Promise<RefreshResult> {
		await this.loadKnown();
		const changed: TranscriptFile[] = [];
		const removed: string[] = [];
		let unchanged = 0;
		for (const path of paths) {
			const known = this.files.get(path);
			if (!known) continue;
			const now = await this.source.stat(known);
			if (!now) removed.push(path);
			else if (now.size === known.size && now.mtimeMs === known.mtimeMs && now.ino === known.ino) unchanged++;
			else changed.push(now);
		}
		return this.readAll(changed, { removed, unchanged }, onRead);
	}

	/**
	 * Whether a session may have sub-agent transcripts, going by the last scan: one in its
	 * `subagents/` folder, or any legacy `agent-*.jsonl` in its project (those name their parent
	 * only inside).
	 */
	mayHaveSubagents(session: TranscriptFile): boolean {
		const parents = this.subagentParents.get(session.projectDir);
		return parents !== undefined && (parents.has(undefined) || parents.has(session.fileId));
	}

	/** Sessions with their sub-agents attached, for the given session files (all known ones by default). */
	async sessions(paths?: readonly string[]): Promise<SessionWithAgents[]> {
		const wanted = paths ? new Set(paths) : undefined;
		const sessionFiles = this.knownFiles().filter((f) => f.kind === "session" && (!wanted || wanted.has(f.path)));
		const projects = new Set(sessionFiles.map((f) => f.projectDir));
		const sessions = [];
		for (const file of sessionFiles) {
			const entry = await this.get(file.path);
			if (entry) sessions.push(entry);
		}
		const agents = [];
		for (const file of this.knownFiles()) {
			if (file.kind !== "subagent" || !projects.has(file.projectDir)) continue;
			if (wanted && file.parentSessionId !== undefined && !sessionFiles.some((s) => s.fileId === file.parentSessionId && s.projectDir === file.projectDir)) continue;
			const entry = await this.get(file.path);
			if (entry) agents.push(entry);
		}
		return linkSubagents(sessions, agents).sessions;
	}

	private async loadKnown(): Promise<void> {
		if (this.knownLoaded) return;
		this.knownLoaded = true;
		if (!this.store) return;
		for (const file of await this.store.known()) {
			this.files.set(file.path, file);
			this.stored.add(file.path);
		}
	}

	private async readAll(files: TranscriptFile[], rest: { removed: string[]; unchanged: number }, onRead?: (entry: IndexedTranscript) => void): Promise<RefreshResult> {
		const result: RefreshResult = { updated: [], removed: rest.removed, unchanged: rest.unchanged, bytesRead: 0, failed: [] };
		// Biggest first, so parallel readers finish together rather than one waiting on a long file.
		const queue = [...files].sort((a, b) => b.size - a.size);
		// A few files in flight, so parsing one overlaps reading the next.
		const worker = async () => {
			for (let file = queue.shift(); file; file = queue.shift()) {
				try {
					const { entry, bytesRead } = await this.readFile(file);
					result.updated.push(entry);
					onRead?.(entry);
					result.bytesRead += bytesRead;
				} catch (error) {
					// Its stamp is not kept: the next sync reads it again.
					result.failed.push({ path: file.path, reason: isFileSystemError(error) ? `not read into the state: ${describeWriteError(error)}; the next sync reads it again` : error instanceof Error ? error.message : String(error) });
				}
			}
		};
		await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
		result.updated.sort((a, b) => codeUnitOrder(a.file.path, b.file.path));
		return result;
	}

	private async readFile(file: TranscriptFile): Promise<{ entry: IndexedTranscript; bytesRead: number }> {
		const known = await this.get(file.path);
		const spec = this.redaction?.();
		let model: SessionModel;
		let read: { cursor: TailCursor; bytesRead: number };
		let modelJson: string | undefined;
		let prepared: PreparedSession | undefined;
		let saved: FoldedWhole["saved"];
		// A file whose lines change what earlier ones meant is folded anew (see `readsWhole`).
		const anew = known !== undefined && readsWhole(file);
		if ((!known || anew) && this.source.foldWhole) {
			// A new file: folded, redacted, digested (and stored) on another thread, in parallel with others.
			const folded = await this.source.foldWhole(file, spec, this.store?.saved ? this.store.savePath?.(file.path) : undefined);
			prepared = folded.prepared;
			saved = folded.saved;
			// Stored by the worker, or here from its plain form (before the model takes it over).
			if (!saved && this.store) modelJson = JSON.stringify(folded.model);
			model = restoreSession(folded.model);
			read = folded;
		} else {
			let folding = known && !anew ? known.model : sessionFor(file);
			const fold = foldFor(file);
			read = await this.source.readAppended(
				file.path,
				anew ? undefined : known?.cursor,
				(lines) => fold(folding, lines),
				// Truncated or replaced: what was folded no longer describes the file.
				() => {
					folding = sessionFor(file);
				},
			);
			model = folding;
			if (spec) redactModelInPlace(model, redactorFor(spec, model.cwd));
		}
		const metaRead = file.metaPath && !saved ? await this.source.readMeta(file.metaPath) : undefined;
		const meta = saved ? saved.meta : metaRead ? (spec ? redactMeta(metaRead, redactorFor(spec, model.cwd)) : metaRead) : known?.meta;
		const entry: IndexedTranscript = { file, cursor: read.cursor, model, meta, prepared };
		this.entries.set(file.path, entry);
		this.files.set(file.path, file);
		// An excluded project's sessions are folded for this run only: their models are never stored,
		// only the file's stamp (so it is not read again until it changes).
		if (this.store && isKeptOutOfStore(spec, model.cwd)) {
			const stamp = { ...file, keptOut: exclusionKey(spec) };
			this.files.set(file.path, stamp);
			await this.store.saved?.(stamp);
		}
		else if (this.store) {
			if (saved && this.store.saved) await this.store.saved(file);
			else await this.store.save(toStored(entry, spec), modelJson === undefined ? undefined : storedJson(file, entry.cursor, modelJson, meta, redactionKey(spec, model.cwd)));
			this.stored.add(file.path);
		}
		return { entry, bytesRead: read.bytesRead };
	}
}

function toStored(entry: IndexedTranscript, spec: RedactionSpec | undefined): StoredTranscript {
	return { file: entry.file, cursor: entry.cursor, model: serializeSession(entry.model), meta: entry.meta, redaction: redactionKey(spec, entry.model.cwd) };
}
