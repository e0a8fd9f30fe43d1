import type { PassedOverEntry, StoredTranscript, TranscriptSource, TranscriptStore } from "../ports";
import { codeUnitOrder } from "../text/code-unit-order";
import { storedJson, type FoldedWhole } from "./fold-whole";
import type { ConversationText } from "../notes/conversation-text";
import type { PreparedSession } from "./prepare-session";
import { redactMeta, redactModelAgain, redactModelInPlace } from "./redact-model";
import { describeWriteError, isFileSystemError } from "../write-error";
import { setApartSecretNames } from "./secret-names";
import { exclusionKey, redactionKey, redactorFor, isKeptOutOfStore, isSessionKeptOut, type RedactionSpec } from "./redaction-policy";
import { endRead, foldFor, foldRangeFor, readsWhole, sessionFor, sessionStartFor } from "../transcript/fold-for";
import { foldedBefore, stampedFolded } from "../transcript/fold-revision";
import { isBlank, type RawLine } from "../transcript/jsonl-lines";
import { linkSubagents, parentIdOf, type SessionWithAgents, type SubagentMeta, type Warmup } from "../transcript/link-subagents";
import { isWarmupAgent } from "../transcript/session-queries";
import { hash53 } from "../transcript/hash";
import { agentOf } from "../transcript/agents";
import { restoreSession, serializeSession, type SessionModel } from "../transcript/session-model";
import { foldersPassedOver } from "../transcript/session-folder";
import { diffScan, NO_START, sameStamp, sectionFile, sectionPath, withFirstUuid, type FileStamp, type TailCursor, type TranscriptFile } from "../transcript/transcript-files";
import type { DetailLevel } from "../settings";

/** Files in flight: parsing one overlaps reading the next; with worker threads, several parse at once. */
const READ_CONCURRENCY = 8;

export interface IndexedTranscript {
	file: TranscriptFile;
	cursor: TailCursor;
	model: SessionModel;
	meta?: SubagentMeta;
	/** Digest and prompt terms, when a worker thread made them along with the model. */
	prepared?: PreparedSession;
	/** For a file that holds several sessions: their paths, in the file's order (its model is empty). */
	sections?: string[];
	/** The session's conversation section, rendered where it was folded (see `refresh`). */
	conversation?: ConversationText;
	/** Set when `model` is the partial form (`partialModel`): `whole` loads the rest from the store. */
	partial?: true;
	/** Set when the file was read anew from its start this time: it was rewritten or truncated, not grown. */
	readAnew?: true;
	/** Lines of this read that could not be read (not JSON, NUL bytes, too long), when there were any: the sync names them. */
	unreadLines?: number;
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
	/** What the scan found and did not read, and why (see `TranscriptSource.passedOver`). */
	passedOver?: readonly PassedOverEntry[];
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
	/** Files read since the last `foldCopies` that start with another uuid than before (new ones, rewritten ones): only they can make or change a group of copies. */
	private readonly startedAnew = new Set<string>();
	private knownLoaded = false;
	/** The redaction the models held in memory were made under (see `redactHeldAgain`). */
	private heldUnder: RedactionSpec | undefined;

	/**
	 * @param redaction the redaction settings, applied to every model after each read (only to what
	 * is new), so nothing downstream (notes, state) sees a secret.
	 * @param keptOut whether a session that ran in a folder belongs to an excluded project, so nothing
	 * of it is stored (the Node side also follows the folder's links: see `node/kept-out.ts`).
	 */
	constructor(
		private readonly source: TranscriptSource,
		private readonly store?: TranscriptStore,
		private readonly redaction?: () => RedactionSpec,
		private readonly keptOut: (spec: RedactionSpec | undefined, cwd: string | undefined) => boolean = isKeptOutOfStore,
	) {}

	/** The entry of a file, loaded from the store when needed (its model may be partial: see `whole`). */
	async get(path: string): Promise<IndexedTranscript | undefined> {
		const cached = this.entries.get(path);
		if (cached || !this.store || !this.stored.has(path)) return cached;
		return this.load(path);
	}

	/** Whether the entry in memory holds only the partial form of its model. */
	isPartial(path: string): boolean {
		return this.entries.get(path)?.partial === true;
	}

	/** Entries whose model is partial get their whole model from the store (a digest or a conversation made here again needs it). */
	async whole(paths: Iterable<string>): Promise<void> {
		for (const path of paths) if (this.isPartial(path)) await this.load(path);
	}

	/** The entry as stored, now the one in memory. */
	private async load(path: string): Promise<IndexedTranscript | undefined> {
		if (!this.store) return undefined;
		const stored = await this.store.load(path);
		if (!stored) return undefined;
		let model: SessionModel;
		try {
			model = restoreSession(stored.model);
		} catch {
			// A model of another shape (a hand edit, a damaged pack that still parses) is as none: the file is read again.
			// Thrown, it failed this transcript at every sync ("number 1e+308 is not iterable"), its new turns kept from its note.
			return undefined;
		}
		const entry: IndexedTranscript = { file: stored.file, cursor: stored.cursor, model, meta: stored.meta, ...(stored.sections ? { sections: stored.sections } : {}) };
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

	/**
	 * An index that lives on (the plugin's) holds models redacted under the settings of when they were
	 * read: a pattern added in the settings tab since, or redaction turned on, left them whole, and
	 * even "Rebuild all notes" wrote the word into every note again (a new CLI run loads them from the
	 * store, which redacts them again). Those whose redaction changed are loaded again as a load
	 * does it (redacted and stored so), or redacted in memory when the store has none.
	 */
	private async redactHeldAgain(): Promise<void> {
		const spec = this.redaction?.();
		const before = this.heldUnder;
		this.heldUnder = spec;
		if (!spec || !before) return;
		for (const [path, entry] of [...this.entries]) {
			if (redactionKey(before, entry.model.cwd) === redactionKey(spec, entry.model.cwd)) continue;
			if (this.store && this.stored.has(path)) {
				await this.load(path);
				continue;
			}
			const redact = redactorFor(spec, entry.model.cwd);
			redactModelAgain(entry.model, redact);
			entry.meta = redactMeta(entry.meta, redact);
		}
	}

	/** Entries held in memory (all of them when no store is used). */
	loaded(): IndexedTranscript[] {
		return [...this.entries.values()];
	}

	/** Drops files from the index and the store, their stamps too: a later refresh reads them as new. */
	async forget(paths: readonly string[]): Promise<void> {
		await this.loadKnown();
		// A session of a file of several goes with that file's cursor: a later read finds it again.
		const holders = paths.flatMap((p) => { const within = this.files.get(p)?.within; return within === undefined ? [] : [within]; });
		for (const path of new Set([...paths, ...holders])) {
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

	/**
	 * @param onRead called for each file as soon as it is read, while others are still being read.
	 * @param detail the note detail: a session with no sub-agents folded elsewhere (a worker) comes
	 * with its conversation rendered there, and may come with a partial model (see `whole`).
	 */
	async refresh(onRead?: (entry: IndexedTranscript) => void, detail?: DetailLevel): Promise<RefreshResult> {
		await this.loadKnown();
		await this.redactHeldAgain();
		const found = await this.source.scan(this.files);
		const spec = this.redaction?.();
		const { kept: scanned, passed: secretNamed } = spec ? setApartSecretNames(found, (file) => redactorFor(spec, file.cwd)) : { kept: found, passed: [] };
		this.subagentParents = new Map();
		for (const f of scanned) {
			if (f.kind !== "subagent") continue;
			const parents = this.subagentParents.get(f.projectDir) ?? new Set();
			parents.add(f.parentSessionId);
			this.subagentParents.set(f.projectDir, parents);
		}
		// The sessions of a file of several are not on disk by themselves: the file's stamp is theirs.
		const stamps = new Map<string, FileStamp>([...this.files].filter(([, f]) => f.within === undefined));
		const diff = diffScan(stamps, scanned);
		for (const file of diff.unchanged) {
			const known = this.files.get(file.path);
			if (!known) this.files.set(file.path, file);
			// A session in a database that changed elsewhere: the database's new stamp is remembered with it.
			else if (known.container !== file.container) {
				const moved = { ...known, container: file.container };
				this.files.set(file.path, moved);
				await this.store?.saved?.(moved);
			}
		}
		// Kept out of the store under other exclusions (one was lifted, say): read again.
		const exclusions = exclusionKey(this.redaction?.());
		// And one whose model an older fold made (see `foldRevision`): read again from its start.
		const again = diff.unchanged.filter((f) => {
			const known = this.files.get(f.path);
			if (known?.keptOut !== undefined) return known.keptOut !== exclusions;
			return known !== undefined && this.stored.has(f.path) && foldedBefore(known);
		});
		const unchanged = diff.unchanged.length - again.length;
		// A sub-agent's meta file written after its transcript was read: only the meta is read (see `rereadMeta`).
		const metaOnly = new Set(diff.metaChanged.filter((f) => f.kind === "subagent" && this.files.get(f.path)?.keptOut === undefined));
		const read = await this.readAll([...diff.added, ...diff.changed, ...again, ...diff.metaChanged], { removed: diff.removed, unchanged }, onRead, detail, metaOnly);
		await this.foldCopies(read, onRead, detail);
		return { ...read, passedOver: [...(this.source.passedOver?.() ?? []), ...(this.store?.damaged?.() ?? []), ...secretNamed, ...foldersPassedOver(read.updated)] };
	}

	/** Whether the file is known (read before, in this run or an earlier one). */
	async knows(path: string): Promise<boolean> {
		await this.loadKnown();
		return this.files.has(path);
	}

	/** Re-reads known files a watcher named, without scanning the whole tree. */
	async refreshPaths(paths: readonly string[], onRead?: (entry: IndexedTranscript) => void, detail?: DetailLevel): Promise<RefreshResult> {
		await this.loadKnown();
		await this.redactHeldAgain();
		const changed: TranscriptFile[] = [];
		const removed: string[] = [];
		let unchanged = 0;
		for (const path of paths) {
			const known = this.files.get(path);
			if (!known) continue;
			const now = await this.source.stat(known);
			if (!now) removed.push(path);
			else if (sameStamp(known, now) && !known.settling) unchanged++;
			else changed.push(now);
		}
		const read = await this.readAll(changed, { removed, unchanged }, onRead, detail);
		await this.foldCopies(read, onRead, detail);
		return read;
	}

	/**
	 * An older Claude Code's `--resume` (and a resume that forks anyway) starts the new session's
	 * file with the earlier session's lines, the same uuids, with no mark naming that session: its
	 * note told the earlier session's prompts as its own, counted its tokens again, and the block
	 * told its ask twice. Files of a project that start with the same record (`firstRecordKey`) are told apart here,
	 * after each read, whichever came first or on which thread: the one that ends first holds the
	 * history (a copy ends with turns of its own after it); each later one is folded again with the
	 * uuids of those before it taken as copied (see `foldCopied` in fold.ts), and reported read.
	 * Only where a file read now starts like another: a look per file read, no model loaded else.
	 * One folded so before is left as it is while those before it stay the same, their transcripts
	 * purged or not (their models stay).
	 */
	private async foldCopies(read: RefreshResult, onRead: ((entry: IndexedTranscript) => void) | undefined, detail: DetailLevel | undefined): Promise<void> {
		const wanted = new Set<string>();
		const firsts = new Set<number>();
		// A turn appended to a file of a group changes no group: its models are not loaded for it at every sync.
		const joined = new Set(this.startedAnew);
		this.startedAnew.clear();
		for (const entry of read.updated) {
			if (!joined.has(entry.file.path)) continue;
			const key = copyKey(entry.file);
			if (key === undefined) continue;
			wanted.add(key);
			firsts.add(entry.file.firstUuid!);
		}
		if (wanted.size === 0) return;
		// By two maps, never file by file against each other: a first sync reads thousands.
		const groups = new Map<string, TranscriptFile[]>();
		for (const file of this.files.values()) {
			if (file.firstUuid === undefined || !firsts.has(file.firstUuid)) continue;
			const key = copyKey(file);
			if (key === undefined || !wanted.has(key)) continue;
			const group = groups.get(key);
			if (group) group.push(file);
			else groups.set(key, [file]);
		}
		for (const files of groups.values()) {
			if (files.length < 2) continue;
			const entries: IndexedTranscript[] = [];
			for (const file of files) {
				const entry = await this.get(file.path);
				if (entry) entries.push(entry);
			}
			// One told a copy before stays one (the session it copied may go on after it ends). Of two
			// read first together, the one that goes its own way later holds the history (`ownWayFrom`).
			const own = new Map(entries.map((e) => [e, ownPrompts(e.model)]));
			const ownWay = (x: IndexedTranscript, y: IndexedTranscript) => ownWayFrom(own.get(x)!, y.model.index.seenUuids);
			entries.sort((a, b) => Number(a.model.index.copyOf !== undefined) - Number(b.model.index.copyOf !== undefined) || laterFirst(ownWay(a, b), ownWay(b, a)) || codeUnitOrder(a.model.endedAt ?? "", b.model.endedAt ?? "") || codeUnitOrder(a.file.fileId, b.file.fileId));
			const owners = new Map<number, string>();
			const ids = new Set<string>();
			let before: string | undefined;
			for (const entry of entries) {
				const id = entry.file.fileId;
				// The same session at two paths (its folder moved): the second is neither copied nor a copy.
				if (ids.has(id)) continue;
				ids.add(id);
				// A copy goes on past what it copied (the turn it was resumed for). One that holds nothing
				// the files before it do not is a replica (a script's sessions made from one file, a
				// backup under another name): its own session, as it was before copies were told.
				if (before !== undefined && !holdsMore(entry.model.index.seenUuids, owners)) {
					if (entry.model.index.copyOf !== undefined) await this.foldAsCopy(entry.file.path, { of: undefined, owners: undefined }, read, onRead, detail);
					continue;
				}
				if (entry.model.index.copyOf !== before) await this.foldAsCopy(entry.file.path, { of: before, owners: before === undefined ? undefined : owners }, read, onRead, detail);
				for (const key of entry.model.index.seenUuids) if (!owners.has(key)) owners.set(key, id);
				// The sessions before the next one, in order, as one hash: a list of them, kept on each, grew with the square of a group.
				before = String(hash53(`${before ?? ""}\n${id}`));
			}
		}
	}

	/** Folds a file again from its start with `owners`' uuids as copied (see `foldCopies`), reported read in `read`. Left as it was when its transcript is gone. */
	private async foldAsCopy(path: string, copies: Copies, read: RefreshResult, onRead: ((entry: IndexedTranscript) => void) | undefined, detail: DetailLevel | undefined): Promise<void> {
		const file = this.files.get(path);
		if (!file || (await this.source.stat(file)) === undefined) return;
		const { entries, bytesRead } = await this.readFile(file, detail, copies);
		read.bytesRead += bytesRead;
		for (const entry of entries) {
			const at = read.updated.findIndex((e) => e.file.path === entry.file.path);
			if (at >= 0) read.updated[at] = entry;
			else {
				read.updated.push(entry);
				read.updated.sort((a, b) => codeUnitOrder(a.file.path, b.file.path));
			}
			onRead?.(entry);
		}
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
		// The sub-agents asked for themselves (one may stand alone), and those that may belong to a session asked for.
		const needed = (file: TranscriptFile) => {
			if (!wanted || wanted.has(file.path)) return true;
			if (!projects.has(file.projectDir)) return false;
			return file.parentSessionId === undefined || sessionFiles.some((s) => s.fileId === file.parentSessionId && s.projectDir === file.projectDir);
		};
		const agents = [];
		for (const file of this.knownFiles()) {
			if (file.kind !== "subagent" || !needed(file)) continue;
			const entry = await this.get(file.path);
			if (entry) agents.push(entry);
		}
		const linked = linkSubagents(sessions, agents);
		// A sub-agent whose session is not here at all (its transcript gone, or never read) is a session
		// of its own, so that its work still reaches the vault.
		const present = new Set(this.knownFiles().filter((f) => f.kind === "session").map((f) => `${f.projectDir}\u0000${f.fileId}`));
		const orphans = linked.orphans.filter((o) => (!wanted || wanted.has(o.file.path)) && !present.has(`${o.file.projectDir}\u0000${parentIdOf(o.file, o.model)}`));
		return [...linked.sessions, ...orphans.map((o) => ({ file: o.file, model: o.model, subagents: [] }))];
	}

	/**
	 * The warmup agents among the given files (all known ones by default) whose session's transcript
	 * is not here (opened and left before it was written): no session to join, but real calls, so
	 * their tokens count on their own (`SyncState.usageOnly`). One whose session is here joins it (`sessions`).
	 */
	async warmupsWithoutSession(paths?: readonly string[]): Promise<Warmup[]> {
		await this.loadKnown();
		const files = paths ? [...new Set(paths)].flatMap((p) => this.files.get(p) ?? []) : this.knownFiles();
		if (!files.some((f) => f.kind === "subagent")) return [];
		const present = new Set(this.knownFiles().filter((f) => f.kind === "session").map((f) => `${f.projectDir}\u0000${f.fileId}`));
		const out: Warmup[] = [];
		for (const file of files) {
			if (file.kind !== "subagent") continue;
			const entry = await this.get(file.path);
			if (entry && isWarmupAgent(entry.model) && !present.has(`${file.projectDir}\u0000${parentIdOf(file, entry.model)}`)) out.push({ file: entry.file, model: entry.model });
		}
		return out;
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

	private async readAll(files: TranscriptFile[], rest: { removed: string[]; unchanged: number }, onRead?: (entry: IndexedTranscript) => void, detail?: DetailLevel, metaOnly: ReadonlySet<TranscriptFile> = new Set()): Promise<RefreshResult> {
		const result: RefreshResult = { updated: [], removed: rest.removed, unchanged: rest.unchanged, bytesRead: 0, failed: [] };
		// Biggest first, so parallel readers finish together rather than one waiting on a long file.
		// Files folded on this thread go in a queue of their own, which half the lanes take first:
		// this thread folds them while the others keep the workers fed. In one queue after the first
		// few for the workers, a lane whose worker was done took a file for this thread next, and
		// the workers waited until those were all folded (measured: a tenth of a second of a first sync).
		const sorted = [...files].sort((a, b) => b.size - a.size);
		const here = this.source.foldsHere ? sorted.filter((f) => this.source.foldsHere!(f)) : [];
		const elsewhere = here.length === 0 ? sorted : sorted.filter((f) => !this.source.foldsHere!(f));
		// A few files in flight, so parsing one overlaps reading the next. Taken by position: `shift`
		// moves the whole rest of a long queue each time (tens of thousands of files).
		let nextHere = 0;
		let nextElsewhere = 0;
		const take = (hereFirst: boolean) => (hereFirst && nextHere < here.length) || nextElsewhere >= elsewhere.length ? here[nextHere++] : elsewhere[nextElsewhere++];
		const worker = async (lane: number) => {
			const hereFirst = lane >= READ_CONCURRENCY / 2;
			for (let file = take(hereFirst); file; file = take(hereFirst)) {
				try {
					const meta = metaOnly.has(file) ? await this.rereadMeta(file) : undefined;
					if (meta?.length === 0) result.unchanged++;
					const { entries, bytesRead } = meta ? { entries: meta, bytesRead: 0 } : file.kind === "sessions" ? await this.readSessions(file) : await this.readFile(file, detail);
					for (const entry of entries) {
						result.updated.push(entry);
						onRead?.(entry);
					}
					result.bytesRead += bytesRead;
				} catch (error) {
					// Its stamp is not kept: the next sync reads it again.
					result.failed.push({ path: file.path, reason: isFileSystemError(error) ? `not read into the state: ${describeWriteError(error)}; the next sync reads it again` : error instanceof Error ? error.message : String(error) });
				}
			}
		};
		await Promise.all(Array.from({ length: READ_CONCURRENCY }, (_, lane) => worker(lane)));
		result.updated.sort((a, b) => codeUnitOrder(a.file.path, b.file.path));
		return result;
	}

	/** @param copies set when the file is folded as a copy of others (see `foldCopies`): from its start, on this thread. */
	private async readFile(file: TranscriptFile, detail: DetailLevel | undefined, copies?: Copies): Promise<{ entries: IndexedTranscript[]; bytesRead: number }> {
		// Folded further from its whole model, never from a partial one. Most files are new: no
		// promise is waited for them (two per file were a tenth of a read of many small files).
		if (this.isPartial(file.path)) await this.load(file.path);
		const known = this.entries.get(file.path) ?? (this.store && this.stored.has(file.path) ? await this.load(file.path) : undefined);
		const spec = this.redaction?.();
		let model: SessionModel;
		let read: { cursor: TailCursor; bytesRead: number };
		// The file was read anew from its start (rewritten in place, truncated): the stored form before this one no longer describes it.
		// (One folded again as a copy is reported so too: its note, named after the other session's ask, may take its own title.)
		let readAnew = false;
		let modelJson: string | undefined;
		let prepared: PreparedSession | undefined;
		let saved: FoldedWhole["saved"];
		let conversation: ConversationText | undefined;
		let partial: true | undefined;
		// A file whose lines change what earlier ones meant is folded anew (see `readsWhole`), and one an older fold made.
		const before = this.files.get(file.path);
		const anew = known !== undefined && (copies !== undefined || readsWhole(file) || (before !== undefined && foldedBefore(before)));
		// What the model had counted before this read (the one read on is folded further in place; one
		// folded anew, an opencode session read whole again, meets the same bad lines again).
		const unreadBefore = known ? known.model.counts.malformed : 0;
		if ((!known || anew) && this.source.foldWhole && copies === undefined) {
			// A new file: folded, redacted, digested (and stored) on another thread, in parallel with others.
			// A session's sub-agents are linked here, later: its conversation is rendered here then.
			const conversationAt = file.kind === "session" && !this.mayHaveSubagents(file) ? detail : undefined;
			const folded = await this.source.foldWhole(file, spec, this.store?.saved ? this.store.packFolder?.() : undefined, conversationAt);
			prepared = folded.prepared;
			saved = folded.saved;
			conversation = folded.conversation;
			// Partial only when the whole model is stored, where `whole` finds it.
			partial = folded.partial && saved ? true : undefined;
			// Stored by the worker, or here from its plain form (before the model takes it over).
			if (!saved && this.store) modelJson = JSON.stringify(folded.model);
			model = restoreSession(folded.model);
			read = folded;
		} else {
			const fresh = () => {
				const model = sessionFor(file);
				model.index.copied = copies?.owners;
				return model;
			};
			let folding = known && !anew ? known.model : fresh();
			const fold = foldFor(file);
			read = await this.source.readAppended(
				file.path,
				anew ? undefined : known?.cursor,
				(lines) => fold(folding, lines),
				// Truncated or replaced: what was folded no longer describes the file.
				() => {
					folding = fresh();
					readAnew = true;
				},
				file.size,
				file.agent,
			);
			model = folding;
			if (copies) {
				model.index.copied = undefined;
				model.index.copyOf = copies.of;
			}
			endRead(model);
			if (spec) redactModelInPlace(model, redactorFor(spec, model.cwd));
		}
		// A last line left to settle: the file is read again at the next refresh, changed or not.
		// The scan's stamp is kept as it is when it has no mark to drop (a copy per file, kept).
		const plain = withFirstUuid(stampedFolded(file.settling ? withoutSettling(file) : file), model.index.firstUuid);
		if (readAnew || before?.firstUuid !== plain.firstUuid) this.startedAnew.add(file.path);
		const stamped: TranscriptFile = read.cursor.settling ? { ...plain, settling: true } : plain;
		const metaRead = file.metaPath && !saved ? await this.source.readMeta(file.metaPath) : undefined;
		const meta = saved ? saved.meta : metaRead ? (spec ? redactMeta(metaRead, redactorFor(spec, model.cwd)) : metaRead) : known?.meta;
		const unread = model.counts.malformed - (readAnew ? 0 : unreadBefore);
		const entry: IndexedTranscript = { file: stamped, cursor: read.cursor, model, meta, prepared, ...(conversation === undefined ? {} : { conversation }), ...(partial ? { partial } : {}), ...(readAnew || copies ? { readAnew: true as const } : {}), ...(unread > 0 ? { unreadLines: unread } : {}) };
		this.entries.set(file.path, entry);
		this.files.set(file.path, stamped);
		// An excluded project's sessions are folded for this run only: their models are never stored,
		// only the file's stamp (so it is not read again until it changes).
		if (this.store && isSessionKeptOut(spec, model, this.keptOut)) {
			const stamp = { ...stamped, keptOut: exclusionKey(spec) };
			this.files.set(file.path, stamp);
			await this.store.saved?.(stamp);
		}
		else if (this.store) {
			if (saved && this.store.saved) await this.store.saved(stamped, saved.at);
			else await this.store.save(toStored(entry, spec), modelJson === undefined ? undefined : storedJson(stamped, entry.cursor, modelJson, meta, redactionKey(spec, model.cwd)), readAnew);
			this.stored.add(file.path);
		}
		return { entries: [entry], bytesRead: read.bytesRead };
	}

	/**
	 * A sub-agent whose transcript is as it was read and whose meta file came or changed since: the
	 * meta alone is read, and the entry is reported read (its session's note shows the meta) only
	 * when the meta says something new. A stamp stored before meta files were stamped comes here
	 * once too, and changes nothing. Undefined when there is no entry to update: the file is read.
	 */
	private async rereadMeta(file: TranscriptFile): Promise<IndexedTranscript[] | undefined> {
		if (this.isPartial(file.path)) await this.load(file.path);
		const known = this.entries.get(file.path) ?? (this.store && this.stored.has(file.path) ? await this.load(file.path) : undefined);
		const spec = this.redaction?.();
		// Of an excluded project, nothing is stored: `readFile` knows how.
		if (!known || isSessionKeptOut(spec, known.model, this.keptOut)) return undefined;
		const read = file.metaPath ? await this.source.readMeta(file.metaPath) : undefined;
		// As `readFile` does: a meta file gone (or unreadable) leaves what was read of it.
		const meta = read ? (spec ? redactMeta(read, redactorFor(spec, known.model.cwd)) : read) : known.meta;
		const changed = JSON.stringify(meta) !== JSON.stringify(known.meta);
		// The scan's stamp: the transcript's own is as it was (else it is read whole, not here), and so is the fold that read it.
		const folded = this.files.get(file.path)?.folded;
		const stamp = folded === undefined ? file : { ...file, folded };
		const entry: IndexedTranscript = { ...known, file: stamp, meta };
		this.entries.set(file.path, entry);
		this.files.set(file.path, stamp);
		if (this.store) {
			if (changed || !this.store.saved) await this.store.save(toStored(entry, spec));
			else await this.store.saved(stamp);
			this.stored.add(file.path);
		}
		return changed ? [entry] : [];
	}

	/**
	 * A file that holds several sessions, read on from its cursor like any other: its lines go to
	 * the session they belong to, the last one known going on until a line starts another. Each
	 * session read becomes an entry of its own (`sectionFile`); the file's own entry keeps the
	 * cursor and the list of its sessions. A replaced or truncated file starts over: sessions
	 * found again (by their start) are folded anew, the others keep what was read of them.
	 */
	private async readSessions(scanned: TranscriptFile): Promise<{ entries: IndexedTranscript[]; bytesRead: number }> {
		// Stamped with today's fold (as `readFile` stamps a file): unstamped, the file was taken for one
		// an older fold made at every sync, and its model stored again, nothing changed. One an older
		// fold did make is folded anew from its start, as any other agent's.
		const file = stampedFolded(scanned);
		const before = this.files.get(scanned.path);
		const known = before !== undefined && foldedBefore(before) ? undefined : await this.get(scanned.path);
		const spec = this.redaction?.();
		const startOf = sessionStartFor(file);
		const fold = foldRangeFor(file);
		let sections = [...(known?.sections ?? [])];
		let taken = new Set(sections);
		const last = sections[sections.length - 1];
		let current = last === undefined ? undefined : await this.get(last);
		// By entry, not by path: a session's path is a new string, hashed once more for each.
		const touched = new Set<IndexedTranscript>();
		// Sessions that only got blank lines are stored (where the fold stands changed) but not reported.
		const grew = new Set<IndexedTranscript>();
		// Each session's cursor is the file's, set once the read is done; until then, one for all.
		const unread: TailCursor = { offset: 0, nextLineNo: 1, ino: file.ino, head: "" };
		const start = (key: string) => {
			let unique = key;
			let path = sectionPath(file, key);
			for (let n = 2; taken.has(path); n++) {
				unique = `${key} #${n}`;
				path = sectionPath(file, unique);
			}
			// The session before it is read to its end, for good: only a file's last session goes on, so
			// where its fold stood is kept by no one (41,000 such in a bench of Aider's histories), and
			// stored so (one an earlier read ended is stored again, not reported).
			if (current) {
				endRead(current.model);
				if (current.model.openBlock !== undefined) {
					current.model.openBlock = undefined;
					touched.add(current);
				}
			}
			const section = sectionFile(file, unique, path);
			sections.push(path);
			taken.add(path);
			current = { file: section, cursor: unread, model: sessionFor(section) };
		};
		const foldInto = (lines: RawLine[], from: number, to: number) => {
			if (from === to) return;
			// Lines before the file's first session start are a session of their own (no start); blank ones are nothing.
			const blank = allBlank(lines, from, to);
			if (!current) {
				if (blank) return;
				start(NO_START);
			}
			fold(current!.model, lines, from, to);
			touched.add(current!);
			if (!blank) grew.add(current!);
		};
		const read = await this.source.readAppended(
			file.path,
			known?.cursor,
			(lines) => {
				let from = 0;
				for (let i = 0; i < lines.length; i++) {
					const key = startOf?.(lines[i]!);
					if (key === undefined) continue;
					foldInto(lines, from, i);
					start(key);
					touched.add(current!);
					grew.add(current!);
					from = i;
				}
				foldInto(lines, from, lines.length);
			},
			() => {
				sections = [];
				taken = new Set();
				current = undefined;
				touched.clear();
				grew.clear();
			},
			file.size,
			file.agent,
		);
		const store = this.store;
		const entries = [...touched];
		if (current) endRead(current.model);
		for (const entry of entries) {
			// A session started in this read has the file's stamp already; one that went on gets it.
			if (!sameStamp(entry.file, file) || entry.file.ctimeMs !== file.ctimeMs) entry.file = { ...entry.file, size: file.size, mtimeMs: file.mtimeMs, ino: file.ino, ctimeMs: file.ctimeMs };
			entry.cursor = read.cursor;
			if (spec) redactModelInPlace(entry.model, redactorFor(spec, entry.model.cwd));
			this.entries.set(entry.file.path, entry);
			this.files.set(entry.file.path, entry.file);
		}
		const holder: IndexedTranscript = { file, cursor: read.cursor, model: known?.model ?? sessionFor(file), sections };
		this.entries.set(file.path, holder);
		this.files.set(file.path, file);
		if (store && this.keptOut(spec, file.cwd)) {
			// As for any file of an excluded project: its stamp alone is stored, its sessions are this run's only.
			const stamp = { ...file, keptOut: exclusionKey(spec) };
			this.files.set(file.path, stamp);
			await store.saved?.(stamp);
		} else if (store) {
			for (const entry of [...entries, holder]) {
				await store.save(toStored(entry, spec));
				this.stored.add(entry.file.path);
			}
		}
		return { entries: entries.filter((e) => grew.has(e)), bytesRead: read.bytesRead };
	}
}

/** What `readFile` folds a copy with (see `foldCopies`): the sessions before it (as `SessionIndex.copyOf` keeps them), and their uuids' hashes with the session that holds each. */
interface Copies {
	of: string | undefined;
	owners: ReadonlyMap<number, string> | undefined;
}

/** Whether a session holds a record none of `owners` does. */
function holdsMore(seen: ReadonlySet<number>, owners: ReadonlyMap<number, string>): boolean {
	for (const key of seen) if (!owners.has(key)) return true;
	return false;
}

/** A session's typed prompts, each by its uuid's key with its time. */
function ownPrompts(model: SessionModel): [key: number, time: string][] {
	const prompts: [number, string][] = [];
	for (const event of model.events) if (event.kind === "prompt" && event.uuid !== undefined && event.timestamp !== undefined) prompts.push([hash53(event.uuid), event.timestamp]);
	return prompts;
}

/**
 * When a session goes its own way from another file of its group: the time of its first prompt the
 * other does not hold (undefined: none). A copy's own turns begin when it was resumed; the session
 * it copied may go on in its own file later (a newer client resumes in place) and then end after
 * the copy: by their ends alone, the original was taken for the copy (attack round 43). Between
 * two files, so that a resume of a resume (which holds its source's own turn) sorts after it.
 */
function ownWayFrom(prompts: readonly [number, string][], other: ReadonlySet<number>): string | undefined {
	let earliest: string | undefined;
	for (const [key, time] of prompts) if (!other.has(key) && (earliest === undefined || codeUnitOrder(time, earliest) < 0)) earliest = time;
	return earliest;
}

/** The later of two times first, none (never apart) before any. */
function laterFirst(a: string | undefined, b: string | undefined): number {
	if (a === b) return 0;
	if (a === undefined) return -1;
	if (b === undefined) return 1;
	return codeUnitOrder(b, a);
}

/** The files of one project that may be copies of one another (Claude Code's sessions that start with the same uuid); undefined for others. */
function copyKey(file: TranscriptFile): string | undefined {
	return file.firstUuid === undefined || file.kind !== "session" || agentOf(file) !== "claude-code" ? undefined : `${file.projectDir}\u0000${file.firstUuid}`;
}

function withoutSettling(file: TranscriptFile): TranscriptFile {
	const { settling: _wasSettling, ...plain } = file;
	return plain;
}

/** Whether every line from `from` to `to` is blank (whitespace only; an undecodable one is not), without a trimmed copy of each. */
function allBlank(lines: readonly RawLine[], from: number, to: number): boolean {
	for (let i = from; i < to; i++) {
		const text = lines[i]!.text;
		if (text === null || !isBlank(text)) return false;
	}
	return true;
}

function toStored(entry: IndexedTranscript, spec: RedactionSpec | undefined): StoredTranscript {
	return { file: entry.file, cursor: entry.cursor, model: serializeSession(entry.model), meta: entry.meta, redaction: redactionKey(spec, entry.model.cwd), ...(entry.sections ? { sections: entry.sections } : {}) };
}
