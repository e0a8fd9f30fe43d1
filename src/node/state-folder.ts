import { readdir, rm, stat } from "node:fs/promises";
import { isAbsentFolder, isDirectory, whatIsAt } from "./absent-folder";
import { confinedFolder, readPlainBytes, readPlainBytesSync, readPlainFile, readPlainFileIfThere } from "./confined-path";
import { codeUnitOrder } from "../core/text/code-unit-order";
import { asciiJson, asciiJsonParts } from "../core/text/ascii-json";
import { utf8Parts } from "./utf8-parts";
import { DIGEST_VERSION, storedDigest } from "../core/digest/session-digest";
import { digestReadingLists, holdsLists, splitDigest, wholeDigest, type DigestLists } from "./digest-lists";
import { dirname, join } from "node:path";
import { PRIVATE_FILE_MODE, processAlive, removeStaleTempsIn, writeFileReplacing } from "./atomic-write";
import { hookContextPath } from "./plugin-paths";
import { pendingCheckpoints, removeMergedCheckpoints } from "./checkpoints";
import type { StoredTranscript, TranscriptStore } from "../core/ports";
import { hash53 } from "../core/transcript/fold";
import { isObject } from "../core/transcript/parse-line";
import type { PackedAt } from "../core/ingest/fold-whole";
import { isOwnPack, isPackName, leavePack, packPid, readPacked } from "./model-pack";
import type { TranscriptFile } from "../core/transcript/transcript-files";
import type { HookContext } from "../core/plan/hook-context";
import { isReadableStateVersion, restoreSyncState, SYNC_STATE_VERSION, usageOnlyOf, type SessionRecord, type SyncState, type UsageOnlyRecord } from "../core/sync/sync-state";
import { checkpointProblem, digestListsProblem, projectRecordProblem, sessionRecordProblem, sharedFactsProblem, summaryProblem, MAX_STATE_DEPTH, nestedDeeperThan } from "../core/sync/stored-shape";
import { dict } from "../core/dict";
import { catalogEntry, type CatalogEntry, type SessionSource } from "../core/usage/session-rows";
import { mapConcurrently } from "../core/concurrently";
import { checkWriteFence } from "./write-fence";

/**
 * The sync's memory between runs, in the plugin's folder, shared by plugin and CLI:
 * `sync-state.json` (projects, facts, summaries), `sessions/*.json` (the session records of one
 * project a file: notes, digests, tags), `lists/*.json` beside them (their digests' lists, which a
 * sync reads when asked for, see `digest-lists`), `transcripts.json` (the files read and their stamps), and
 * one `models/<hash>.json` per transcript (cursor and folded model), so a run loads and writes
 * only what changed. Every write is atomic; an unchanged file is not rewritten. Models that worker
 * threads fold are appended to packs instead (`models/pack-*.jsonl`, see `appendToPack`), found by
 * `models/packs.json` (the packs it names listed beside it, `PACK_NAMES`); a model saved later goes to its own file and its pack entry is dropped, and
 * a pack no entry names any more is removed. A pack that held a model forgotten (an excluded
 * project) or redacted again (other redaction settings) is removed at once, its other models
 * moved to files of their own: no byte of those stays behind in it.
 *
 * A session file is named by its project and the time it was written, and `sync-state.json` lists the ones
 * in use: new files are written first, the list last (one rename), old files removed after, so a
 * process killed at any moment leaves a list whose every file is whole. A sync that touched one
 * session of one project writes that project's file and the small list, not megabytes.
 */
export class StateFolder implements TranscriptStore {
	/** Read once however many ask at once: a second read would replace the map the first one's callers added to. */
	private files: Promise<Map<string, TranscriptFile>> | undefined;
	/** `transcripts.json` as this run read or last wrote it, its entries frozen: unchanged, `flush` does not serialize it again. */
	private filesOnDisk: Map<string, TranscriptFile> | undefined;
	private readonly written = new Map<string, string>();
	/** Model writes under way: a read goes on while the last model is written. */
	private readonly pending = new Set<Promise<void>>();
	/** A model write that failed in the background, until a save or the flush throws it. */
	private failedWrite: Error | undefined;
	/** The latest write under way of each model file. */
	private readonly lastWrite = new Map<string, Promise<void>>();
	/** Checkpoint files (`checkpoints/*.json`, written by the PreCompact hook) merged by `loadState`. */
	private mergedCheckpoints: ReadonlyMap<string, string> = new Map();
	/** The session files on disk as this run knows them, with the records each holds. */
	private readonly sessionFiles = new Map<string, { records: Map<string, SessionRecord> }>();
	/** The names `sync-state.json` lists, as read or last written, in its order. */
	private namesInUse: string[] = [];
	private generation = 0;
	/** Where packed models are, as `models/packs.json` said when this run first looked (one read, however many ask at once). */
	private packs: Promise<PackIndex> | undefined;
	/** This run's changes to it (null: no longer packed), merged into the file as it is at `flush`. */
	private readonly packChanges = new Map<string, PackedAt | null>();
	/** Packs that held a model whose bytes must not stay (forgotten, or redacted again): rewritten without it at `flush`. */
	private readonly packsToRemove = new Set<string>();
	/** See `damaged`. */
	private readonly damagedFiles: { path: string; reason: string }[] = [];
	/** `models/packs.json` was found damaged (said once): `flush` writes it anew, with or without changes. */
	private packIndexDamaged = false;

	constructor(private readonly dir: string) {}

	async known(): Promise<TranscriptFile[]> {
		return [...(await this.fileMap()).values()];
	}

	async load(path: string): Promise<StoredTranscript | undefined> {
		const found = await this.loadWith(await this.packMap(), path);
		if (found || this.packChanges.size > 0) return found;
		// A reader that lives long (the Sessions view) may hold an index older than a sync that packed this model since.
		const fresh = packIndexOf(await readJsonOnly(join(this.modelsDir(), PACK_INDEX)));
		if (!fresh.has(path)) return undefined;
		this.packs = Promise.resolve(fresh);
		return this.loadWith(fresh, path);
	}

	private async loadWith(packs: PackIndex, path: string): Promise<StoredTranscript | undefined> {
		const at = packs.get(path);
		if (at) {
			// A pack whose bytes are damaged (zeroed by a crash, cut) is as one gone: the transcript is read again.
			// Parsed inside the handler of its own: thrown from `then`'s first handler, the error skipped the second
			// and failed this session's read at every sync, naming its transcript.
			const packed = await readPacked(this.modelsDir(), at).then(parsedOrUndefined, () => undefined);
			if (isStoredTranscript(packed) && packed.file.path === path) return packed;
			// A pack gone (removed by a run that saved this model to a file of its own since): that file, then.
		}
		const file = this.modelPath(path);
		await this.lastWrite.get(file);
		const data = await this.readJson(file);
		return isStoredTranscript(data) && data.file.path === path ? data : undefined;
	}

	async save(entry: StoredTranscript, json?: string, readAnew = false): Promise<void> {
		(await this.fileMap()).set(entry.file.path, entry.file);
		const packed = (await this.packMap()).get(entry.file.path);
		if (packed) {
			// Its bytes in the pack are an earlier form of this model, harmless, unless they were redacted otherwise or read from what the file no longer holds.
			if (packed.redaction !== entry.redaction || readAnew) this.packsToRemove.add(packed.pack);
			await this.setPacked(entry.file.path, null);
		}
		// Serialized now (the model folds further later); written in the background, a few at a time.
		const path = this.modelPath(entry.file.path);
		const text = json ?? JSON.stringify(entry);
		this.throwFailedWrite();
		while (this.pending.size >= MAX_PENDING_WRITES) await Promise.race(this.pending);
		this.throwFailedWrite();
		// A model is saved only when its transcript changed: no need to compare with the file first.
		// Two saves of one model are written in order: the later one wins on disk too.
		const before = this.lastWrite.get(path);
		// A failure is kept, not left to reject with no one awaiting (Node ends the process with a stack then): the next save or the flush throws it.
		const write: Promise<void> = (before ? before.then(() => writeStateFile(path, text)) : writeStateFile(path, text))
			.catch((error: unknown) => {
				this.failedWrite ??= error instanceof Error ? error : new Error(String(error));
			})
			.finally(() => {
				this.pending.delete(write);
				if (this.lastWrite.get(path) === write) this.lastWrite.delete(path);
			});
		this.pending.add(write);
		this.lastWrite.set(path, write);
	}

	/** The first model write that failed since, thrown once: the state is not flushed over a model that is not on disk. */
	private throwFailedWrite(): void {
		const error = this.failedWrite;
		if (error === undefined) return;
		this.failedWrite = undefined;
		throw error;
	}

	packFolder(): string {
		return this.modelsDir();
	}

	async saved(file: TranscriptFile, at?: PackedAt): Promise<void> {
		(await this.fileMap()).set(file.path, file);
		if (at) await this.setPacked(file.path, at);
	}

	async forget(path: string): Promise<void> {
		(await this.fileMap()).delete(path);
		const packed = (await this.packMap()).get(path);
		if (packed) {
			this.packsToRemove.add(packed.pack);
			await this.setPacked(path, null);
		}
		const model = this.modelPath(path);
		await this.lastWrite.get(model);
		checkWriteFence();
		await rm(model, { force: true });
	}

	/** `hooks/<hash>.json`: what a project's hooks print, rewritten only when it changed; null removes it. */
	async writeHookContext(projectPath: string, context: HookContext | null): Promise<void> {
		const path = hookContextPath(this.dir, projectPath);
		if (context !== null) return this.writeJson(path, context);
		this.written.delete(path);
		checkWriteFence();
		await rm(path, { force: true });
	}

	/**
	 * The state, with the checkpoints hooks recorded since the last sync merged in. None yet is a
	 * first sync; one that is there but cannot be read stops the sync (`DamagedStateError`): taken
	 * as none, it dropped every session's record, so the next change rewrote each project's index
	 * and context with that session alone, and forgot the facts proposed and shared.
	 * @param listsWhenAsked the digests' lists are read when first asked for (`digest-lists`): only
	 * for a sync under the lock, which no other process removes them under.
	 */
	async loadState(listsWhenAsked = false): Promise<SyncState> {
		// Read again at each run: another process (the CLI beside the plugin) may have packed models since.
		if (this.packChanges.size === 0) this.packs = undefined;
		const raw = await this.readStateJson(join(this.dir, STATE_FILE));
		if (raw !== undefined) checkVersion(join(this.dir, STATE_FILE), raw);
		if (raw !== undefined) checkStateRecords(join(this.dir, STATE_FILE), raw);
		const state = restoreSyncState(await this.readSessionFiles(raw, listsWhenAsked));
		const { checkpoints, files } = await pendingCheckpoints(this.dir);
		Object.assign(state.checkpoints, checkpoints);
		this.mergedCheckpoints = files;
		return state;
	}

	/** Writes the state and the list of transcripts read, if they changed, after every model. */
	async flush(state: SyncState): Promise<void> {
		await Promise.all(this.pending);
		this.throwFailedWrite();
		const names = await this.writeSessionFiles(state.sessions, state.version === SYNC_STATE_VERSION);
		this.namesInUse = names;
		// A newer release's keys last, where they cannot stand for one this release writes.
		await this.writeJson(join(this.dir, STATE_FILE), { ...state, sessions: undefined, carried: undefined, [SESSION_FILES]: names, ...state.carried });
		// Only now that the list names the new files may the others go (those of a run killed before its list, too).
		const inUse = new Set(names);
		for (const name of this.sessionFiles.keys()) if (!inUse.has(name)) this.sessionFiles.delete(name);
		const present = await readdir(join(this.dir, SESSIONS_DIR)).catch(() => [] as string[]);
		// Another sync's files, if this one lost the lock while stopped: its list names them.
		checkWriteFence();
		for (const name of present) if (isSessionFileName(name) && !inUse.has(name)) await rm(join(this.dir, SESSIONS_DIR, name), { force: true }).catch(() => undefined);
		for (const folder of [CATALOG_DIR, LISTS_DIR]) {
			const present = await readdir(join(this.dir, folder)).catch(() => [] as string[]);
			for (const name of present) if (isSessionFileName(name) && !inUse.has(name)) await rm(join(this.dir, folder, name), { force: true }).catch(() => undefined);
		}
		// Before the list of transcripts: a model it lists is where the index says (or read again).
		await this.writePacks();
		// Unchanged (no entry added, replaced or removed): 1,216 entries were half a megabyte of JSON made and compared at every sync.
		const map = await this.fileMap();
		if (!sameEntries(this.filesOnDisk, map)) {
			await this.writeJson(join(this.dir, TRANSCRIPTS_FILE), [...map.values()].sort((a, b) => codeUnitOrder(a.path, b.path)));
			this.filesOnDisk = frozenCopy(map);
		}
		// Merged checkpoints live in the state now.
		await removeMergedCheckpoints(this.mergedCheckpoints);
		this.mergedCheckpoints = new Map();
	}

	/**
	 * Every session's catalog entry (its row in the Sessions view), by transcript path, from
	 * the files the state lists; a file written before catalogs existed is read whole instead. With
	 * them, the usage no session holds, from the state itself (none in a state an older release
	 * wrote). Reads only.
	 */
	async loadCatalog(): Promise<{ sessions: Record<string, CatalogEntry | SessionSource>; usageOnly: Record<string, UsageOnlyRecord> }> {
		const raw = await readJsonOnly(join(this.dir, STATE_FILE));
		const fields = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
		const names = fields[SESSION_FILES];
		const usageOnly = usageOnlyOf(fields.usageOnly);
		const out: Record<string, CatalogEntry | SessionSource> = {};
		if (!Array.isArray(names)) {
			// A state from before session files: its records are in the state itself.
			const sessions = fields.sessions;
			return { sessions: typeof sessions === "object" && sessions !== null ? (sessions as Record<string, SessionSource>) : out, usageOnly };
		}
		const parts = await Promise.all(names.filter(isSessionFileName).map(async (name) => (await readJsonOnly(join(this.dir, CATALOG_DIR, name))) ?? (await this.wholeRecordsOnly(name))));
		for (const part of parts) if (typeof part === "object" && part !== null) Object.assign(out, part);
		return { sessions: out, usageOnly };
	}

	/** The state as stored, with the session files it lists read into `sessions` (an older state holds them itself). */
	private async readSessionFiles(raw: unknown, listsWhenAsked: boolean): Promise<unknown> {
		if (typeof raw !== "object" || raw === null) return raw;
		const { [SESSION_FILES]: names, ...rest } = raw as Record<string, unknown>;
		if (!Array.isArray(names)) return raw;
		// No prototype: a damaged file's `__proto__` key is a record to refuse, not the map's prototype.
		const sessions = dict<SessionRecord>();
		const listed = names.filter(isSessionFileName);
		const parts = await Promise.all(listed.map(async (name) => ({ name, part: await this.readStateJson(join(this.dir, SESSIONS_DIR, name), true) })));
		for (const { name, part } of parts) {
			const records = new Map<string, SessionRecord>();
			checkSessionRecords(join(this.dir, SESSIONS_DIR, name), part!);
			await this.joinLists(name, part!, listsWhenAsked);
			for (const [path, record] of Object.entries(part as Record<string, SessionRecord>)) {
				// Frozen: the sync replaces a record it changes, and `writeSessionFiles` knows a file is unchanged by its records.
				records.set(path, Object.freeze(record));
				sessions[path] = record;
			}
			this.sessionFiles.set(name, { records });
		}
		this.namesInUse = listed;
		return { ...rest, sessions };
	}

	/**
	 * Gives each record of a session file whose digest is only its head (`digest-lists`) its lists,
	 * from the lists file of the same name: read now, or when first asked for.
	 */
	private async joinLists(name: string, part: Record<string, unknown>, whenAsked: boolean): Promise<void> {
		const heads = headRecords(part);
		if (heads.length === 0) return;
		const path = join(this.dir, LISTS_DIR, name);
		if (!whenAsked) {
			const lists = await this.readStateJson(path, true);
			for (const [key, record] of heads) record.digest = wholeDigest(record.digest, listsIn(lists!, key, path));
			return;
		}
		let lists: Record<string, unknown> | undefined;
		// Read blocking, by the getter that first asks: a few milliseconds, for one project's file.
		const read = () => (lists ??= parsedStateJson(path, () => readPlainBytesSync(path)));
		for (const [key, record] of heads) record.digest = digestReadingLists(record.digest, () => listsIn(read(), key, path));
	}

	/** A session file's records with their digests whole, read as a reader of another's state does (undefined when they cannot be). */
	private async wholeRecordsOnly(name: string): Promise<unknown> {
		const part = await readJsonOnly(join(this.dir, SESSIONS_DIR, name));
		if (typeof part !== "object" || part === null) return undefined;
		return this.joinLists(name, part as Record<string, unknown>, false).then(() => part, () => undefined);
	}

	/**
	 * Writes each project's session records to a new file, unless
	 * that file holds these very records already; returns the names of the files in use.
	 * @param apart whether the digests' lists go to a file of their own (`digest-lists`): not in a
	 * version 1 state, which a release that does not know that file may read.
	 */
	private async writeSessionFiles(sessions: Record<string, SessionRecord>, apart: boolean): Promise<string[]> {
		const unchanged = this.unchangedSessionFiles(sessions);
		if (unchanged) return unchanged;
		const byProject = new Map<string, Map<string, SessionRecord>>();
		for (const [path, record] of Object.entries(sessions)) {
			const key = record.projectKey ?? record.project;
			const records = byProject.get(key) ?? new Map<string, SessionRecord>();
			records.set(path, record);
			byProject.set(key, records);
		}
		// A project of many sessions in several files, each session in the same one while their
		// number stays in the same range: a turn added to one session writes that file again, not
		// every record of the project (a project of 2,000 sessions was 5 MB of JSON a sync).
		for (const [key, records] of [...byProject]) {
			const chunks = chunksFor(records.size);
			if (chunks === 1) continue;
			byProject.delete(key);
			for (const [path, record] of records) {
				const chunk = `${key}\u0000${hash53(path) % chunks}/${chunks}`;
				const part = byProject.get(chunk) ?? new Map<string, SessionRecord>();
				part.set(path, record);
				byProject.set(chunk, part);
			}
		}
		// The files there are, by the project they are of (their name's part before `-`): looked up per
		// project, not searched whole for each (3,000 projects made a sync with nothing to do spend half its time there).
		const filesOf = new Map<string, [string, { records: Map<string, SessionRecord> }][]>();
		for (const entry of this.sessionFiles) {
			const project = entry[0].slice(0, entry[0].indexOf("-"));
			const files = filesOf.get(project);
			if (files) files.push(entry);
			else filesOf.set(project, [entry]);
		}
		// Several projects' files at once: each waits on the thread pool, and one after another 10,000
		// projects' 30,000 files were most of a first sync (12 s of 33, this thread idle). The list
		// that names them is written after them all, so the order they land in does not matter.
		const projects = [...byProject].sort(([a], [b]) => codeUnitOrder(a, b));
		return mapConcurrently(projects, SESSION_FILE_WRITES, ([key, records]) => this.writeSessionFile(key, records, filesOf, apart));
	}

	/**
	 * The session files in use, when they hold these very records, no more and no fewer (a sync that
	 * changed no record): grouped and hashed by project for nothing, a thousand records were a few
	 * milliseconds of every such sync. Undefined otherwise.
	 */
	private unchangedSessionFiles(sessions: Record<string, SessionRecord>): string[] | undefined {
		let held = 0;
		for (const { records } of this.sessionFiles.values()) {
			for (const [path, record] of records) if (sessions[path] !== record) return undefined;
			held += records.size;
		}
		let count = 0;
		for (const path in sessions) if (Object.hasOwn(sessions, path)) count++;
		return count === held && this.namesInUse.length === this.sessionFiles.size ? this.namesInUse : undefined;
	}

	/** One project's session files, unless a file holds these very records already; the name of the file in use. */
	private async writeSessionFile(key: string, records: Map<string, SessionRecord>, filesOf: Map<string, [string, { records: Map<string, SessionRecord> }][]>, apart: boolean): Promise<string> {
		const project = hash53(key).toString(36);
		const same = filesOf.get(project)?.find(([, file]) => sameRecords(file.records, records));
		if (same) return same[0];
		// A new name each time (never one in use), so the list in use is never written over.
		let name: string;
		do name = `${project}-${Date.now().toString(36)}${(++this.generation).toString(36)}.json`;
		while (this.sessionFiles.has(name));
		const files: [folder: string, text: Buffer][] = [];
		const json = (entries: Iterable<readonly [string, unknown]>) => utf8Parts(asciiJsonParts(entries));
		if (apart) {
			const split = [...records].map(([path, r]) => ({ path, r, ...splitDigest(r.digest) }));
			files.push([LISTS_DIR, json(split.map(({ path, lists }) => [path, lists]))]);
			files.push([SESSIONS_DIR, json(split.map(({ path, r, head }) => [path, { ...r, digest: head }]))]);
		} else files.push([SESSIONS_DIR, json([...records].map(([path, r]) => [path, { ...r, digest: storedDigest(r.digest) }]))]);
		// The Sessions view's cut of the same records, under the same name.
		files.push([CATALOG_DIR, json([...records].map(([path, r]) => [path, catalogEntry(r)]))]);
		await mapConcurrently(files, files.length, ([folder, text]) => writeStateFile(join(this.dir, folder, name), text));
		for (const record of records.values()) Object.freeze(record);
		this.sessionFiles.set(name, { records });
		return name;
	}

	private fileMap(): Promise<Map<string, TranscriptFile>> {
		const path = join(this.dir, TRANSCRIPTS_FILE);
		this.files ??= this.readJsonKept(path).then((read) => {
			// There yet no list: damaged (cut, emptied, bytes of another kind) or no file to read (a FIFO). The sync does without it, and says so.
			const problem = read.problem ?? (read.value !== undefined && !Array.isArray(read.value) ? "damaged" : undefined);
			if (problem !== undefined) this.damagedFiles.push({ path, reason: `the list of transcripts read was ${problem}: every transcript was read again, and the file written anew` });
			const list = read.value;
			const map = new Map(Array.isArray(list) ? (list as TranscriptFile[]).filter((f) => typeof f?.path === "string").map((f) => [f.path, f]) : []);
			// What the file holds, when it holds just these entries (none dropped as damaged, none a duplicate).
			if (problem === undefined && read.text !== undefined && Array.isArray(list) && map.size === list.length) this.filesOnDisk = frozenCopy(map);
			return map;
		});
		return this.files;
	}

	/** The state's files found damaged and done without, and what that cost, each told once (see `TranscriptStore.damaged`). */
	damaged(): readonly { path: string; reason: string }[] {
		return this.damagedFiles.splice(0);
	}

	private modelsDir(): string {
		return join(this.dir, "models");
	}

	private modelPath(path: string): string {
		return join(this.modelsDir(), `${hash53(path).toString(36)}.json`);
	}

	/**
	 * Removes the packs a killed or failed run left: made by a process that is gone, and named by no
	 * entry of `packs.json` (nor by `packs.names.json` while it holds, see `PACK_NAMES`). They only
	 * take room: on a full disk each failed sync left its packs, and the next could never fit again. An index that cannot be read (damaged, no plain file)
	 * keeps them all: it may name them. Called by a sync under the lock, before it reads the state.
	 */
	async removeLeftPacks(): Promise<void> {
		const dir = this.modelsDir();
		const names = await readdir(dir).catch(() => [] as string[]);
		const gone = names.filter((name) => isPackName(name) && !isOwnPack(name) && !processAlive(packPid(name)));
		if (gone.length === 0) return;
		const listed = await listedPackNames(dir);
		const left = gone.filter((name) => !listed.has(name));
		if (left.length === 0) return;
		// The index's stamp before its text is read: the list made from that text below holds for that file only.
		const read = await stat(join(dir, PACK_INDEX)).catch(() => undefined);
		const text = await readPlainFileIfThere(join(dir, PACK_INDEX)).catch(() => undefined);
		if (text === undefined) return;
		let named: Set<string>;
		try {
			named = new Set(packIndexOf(text === null ? {} : (JSON.parse(text) as unknown)).entries().map(([, at]) => at.pack));
		} catch {
			return;
		}
		checkWriteFence();
		for (const name of left) if (!named.has(name)) await rm(join(dir, name), { force: true }).catch(() => undefined);
		// A state whose index no sync of this release wrote (packs are written by first reads only) gets its list now.
		if (read !== undefined && text !== null) await listPackNames(dir, named, read);
	}

	private packMap(): Promise<PackIndex> {
		const path = join(this.modelsDir(), PACK_INDEX);
		this.packs ??= readJsonFile(path).then((read) => {
			// There yet no index: the models it named are as gone, their transcripts read again. Said (it was done without a word) when first
			// read, as a changed transcript's model is loaded, and the index written anew at `flush`.
			const problem = read.problem ?? (read.value !== undefined && !isObject(read.value) ? "damaged" : undefined);
			if (problem !== undefined && !this.packIndexDamaged) this.damagedFiles.push({ path, reason: `the index of packed models was ${problem}: the models it named were done without (a transcript of theirs is read again from its start), and the index written anew` });
			this.packIndexDamaged ||= problem !== undefined;
			return packIndexOf(read.value);
		});
		return this.packs;
	}

	private async setPacked(path: string, at: PackedAt | null): Promise<void> {
		this.packChanges.set(path, at);
		const packs = await this.packMap();
		if (at) packs.set(path, at);
		else packs.delete(path);
	}

	/**
	 * This run's pack changes, merged into `packs.json` as it is on disk (so a process holding an
	 * older view changes only its own entries), then packs no entry names are removed (not this
	 * process's own: they may still be appended to).
	 */
	private async writePacks(): Promise<void> {
		if (this.packChanges.size === 0 && !this.packIndexDamaged) return;
		const index = join(this.modelsDir(), PACK_INDEX);
		const merged = packIndexOf(await readJsonOnly(index));
		for (const [path, at] of this.packChanges) {
			if (at) merged.set(path, at);
			else merged.delete(path);
		}
		// The other models of a pack to remove get files of their own first (a kill before the index is written loses nothing).
		for (const [path, at] of merged.entries()) {
			if (!this.packsToRemove.has(at.pack)) continue;
			await writeStateFile(this.modelPath(path), await readPacked(this.modelsDir(), at));
			merged.delete(path);
		}
		await writeStateFile(index, asciiJson(Object.fromEntries(merged.entries().sort(([a], [b]) => codeUnitOrder(a, b)))));
		this.packChanges.clear();
		this.packIndexDamaged = false;
		this.packs = Promise.resolve(merged);
		const named = new Set(merged.entries().map(([, at]) => at.pack));
		await listPackNames(this.modelsDir(), named);
		checkWriteFence();
		for (const name of await readdir(this.modelsDir()).catch(() => [] as string[])) {
			if (!isPackName(name) || named.has(name) || (isOwnPack(name) && !this.packsToRemove.has(name))) continue;
			leavePack(name);
			await rm(join(this.modelsDir(), name), { force: true }).catch(() => undefined);
		}
		this.packsToRemove.clear();
	}

	/**
	 * A file of the sync state as JSON, undefined when it is not there (and not `listed` by the
	 * state); anything else that keeps it from being read throws `DamagedStateError`.
	 */
	private async readStateJson(path: string, listed = false): Promise<Record<string, unknown> | undefined> {
		let bytes: Buffer;
		try {
			bytes = await readPlainBytes(path);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "ENOENT" && !listed) return undefined;
			throw unreadState(path, error);
		}
		const text = bytes.toString("utf8");
		const value = parsedStateJson(path, () => text);
		// A file the state lists is never written again (a change gets a new name): its text is not kept to compare with.
		if (!listed) this.written.set(path, text);
		return value;
	}

	private async readJson(path: string): Promise<unknown> {
		// Missing or damaged state only costs a re-read of the transcripts.
		return (await this.readJsonKept(path)).value;
	}

	/** `readJsonFile`, its text kept (see `written`). */
	private async readJsonKept(path: string): Promise<JsonRead> {
		const read = await readJsonFile(path);
		if (read.text !== undefined) this.written.set(path, read.text);
		return read;
	}

	private async writeJson(path: string, value: object): Promise<void> {
		await this.writeText(path, asciiJson(value));
	}

	private async writeText(path: string, text: string): Promise<void> {
		const cached = this.written.get(path);
		if (cached === text) return;
		// What this run read or wrote is what the file holds (writers take the sync lock): only a
		// file not seen yet is read to tell (sync-state.json is megabytes, read again for nothing).
		const known = cached ?? (await readPlainFile(path).catch(() => undefined));
		if (known === text) {
			this.written.set(path, text);
			return;
		}
		await writeStateFile(path, text);
		this.written.set(path, text);
	}
}

/**
 * Beside `packs.json`: the packs it names, and the stamp of the index they were taken from. A sync
 * starts by removing the packs killed runs left (`removeLeftPacks`), and every pack a first sync
 * made is of a process gone: this list tells the named ones without the index, a quarter of a
 * megabyte of JSON for the bench tree. Trusted only to keep a pack, and only while the index is the
 * very file it was made from (each write is a new file: another inode); a pack it does not name
 * goes only when the index does not name it either.
 */
const PACK_NAMES = "packs.names.json";

const indexStamp = (s: { ino: number; size: number; mtimeMs: number }) => `${s.ino}:${s.size}:${s.mtimeMs}`;

/** The packs `packs.names.json` names, when it was made from the index there now; none otherwise. */
async function listedPackNames(models: string): Promise<ReadonlySet<string>> {
	try {
		const [index, text] = await Promise.all([stat(join(models, PACK_INDEX)), readPlainFile(join(models, PACK_NAMES))]);
		const list = JSON.parse(text) as { index?: unknown; names?: unknown };
		return list.index === indexStamp(index) && Array.isArray(list.names) ? new Set(list.names.filter(isPackName)) : new Set();
	} catch {
		return new Set();
	}
}

/**
 * Writes `packs.names.json`: the packs the index named when it had stamp `index` (by default, as it
 * is now: one just written); a failure only costs the next sync a read of the index.
 */
async function listPackNames(models: string, named: ReadonlySet<string>, read?: { ino: number; size: number; mtimeMs: number }): Promise<void> {
	try {
		const index = read ?? (await stat(join(models, PACK_INDEX)));
		await writeStateFile(join(models, PACK_NAMES), JSON.stringify({ index: indexStamp(index), names: [...named].sort(codeUnitOrder) }));
	} catch {
		// Only speed.
	}
}

const MAX_PENDING_WRITES = 8;
/** In `models/`: where each packed model is, by transcript path. */
const PACK_INDEX = "packs.json";

/**
 * `packs.json` as read, with this run's changes: an entry is checked when first asked for (a sync
 * asks for a few of a thousand: checking each at once was 4 ms of one appended turn), and one
 * that is not a pack location is as none (its transcript is read again).
 */
class PackIndex {
	/** Entries checked or changed: null is none. */
	private readonly known = new Map<string, PackedAt | null>();

	constructor(private readonly raw: Record<string, unknown>) {}

	get(path: string): PackedAt | undefined {
		let at = this.known.get(path);
		if (at === undefined) {
			at = Object.hasOwn(this.raw, path) ? packedAtOf(this.raw[path]) : null;
			this.known.set(path, at);
		}
		return at ?? undefined;
	}

	has(path: string): boolean {
		return this.get(path) !== undefined;
	}

	set(path: string, at: PackedAt): void {
		this.known.set(path, at);
	}

	delete(path: string): void {
		this.known.set(path, null);
	}

	/** Every entry there is, in no order. */
	entries(): [string, PackedAt][] {
		const out: [string, PackedAt][] = [];
		for (const path of new Set([...Object.keys(this.raw), ...this.known.keys()])) {
			const at = this.get(path);
			if (at) out.push([path, at]);
		}
		return out;
	}
}

function packIndexOf(raw: unknown): PackIndex {
	return new PackIndex(typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {});
}

/** An entry of `packs.json` as a pack location, its fields only; null when it is not one. */
function packedAtOf(value: unknown): PackedAt | null {
	const a = value as Partial<PackedAt> | null;
	if (typeof a !== "object" || a === null || !isPackName(a.pack) || !Number.isSafeInteger(a.offset) || !Number.isSafeInteger(a.length)) return null;
	return typeof a.redaction === "string" ? { pack: a.pack, offset: a.offset!, length: a.length!, redaction: a.redaction } : { pack: a.pack, offset: a.offset!, length: a.length! };
}
const STATE_FILE = "sync-state.json";
const TRANSCRIPTS_FILE = "transcripts.json";
const SESSIONS_DIR = "sessions";
const CATALOG_DIR = "catalog";
const LISTS_DIR = "lists";
/** The state's folders: each written in, so none may be a link that leads out of the plugin's folder. */
const STATE_FOLDERS = ["", SESSIONS_DIR, CATALOG_DIR, LISTS_DIR, "models", "hooks", "checkpoints"];

/** What killed runs left half-written in the state's folders goes (their temporary files are never renamed into place). */
export async function removeStateLeftovers(stateDir: string): Promise<void> {
	for (const folder of STATE_FOLDERS) await removeStaleTempsIn(join(stateDir, folder));
}

/**
 * Checks, before a sync or a hook writes, that the state folder and each of its folders stay inside
 * the plugin's folder once links are followed (a `state` link to `~` would have the state, the lock
 * and stale-file clean-ups there), and that each one there is a folder: a file in its place (a bad
 * copy, a sync tool's conflict) ended every sync with Node's `EEXIST: file already exists, mkdir …`;
 * and that no folder stands where one of its files goes. The plugin's folder itself may be a link
 * (a developer's checkout).
 */
export async function confineStateFolder(stateDir: string): Promise<void> {
	const plugin = dirname(stateDir);
	if (!(await stat(plugin).then(() => true, () => false))) return;
	for (const folder of STATE_FOLDERS) {
		const path = join(stateDir, folder);
		await confinedFolder(plugin, path, `The state folder ${path}`);
		if (!(await isAbsentFolder(path)) && !(await isDirectory(path))) {
			throw new DamagedStateError(`The state folder ${path} is ${await whatIsAt(path)}, not a folder, so nothing was written: move it away, and the next sync makes the folder again (what it held is read again from the transcripts; for \`sessions\`, the sync then says how to start over)`);
		}
	}
	await refuseFoldersForFiles(stateDir);
}

/** The state's files of fixed names, and the folder whose every `.json` is one (`hooks/`): checked before a sync writes anything. */
const STATE_FILES = [STATE_FILE, TRANSCRIPTS_FILE, join("models", PACK_INDEX)];

/**
 * Checks, before a sync writes, that no folder stands where a state file goes: the sync wrote its
 * notes, then failed to save the state with Node's `EISDIR: illegal operation on a directory,
 * rename …`, and did so again at every sync.
 */
async function refuseFoldersForFiles(stateDir: string): Promise<void> {
	const hooks = await readdir(join(stateDir, "hooks"), { withFileTypes: true }).catch(() => []);
	const paths = [...STATE_FILES.map((name) => join(stateDir, name)), ...hooks.filter((entry) => entry.name.endsWith(".json") && entry.isDirectory()).map((entry) => join(stateDir, "hooks", entry.name))];
	for (const path of paths) if (await isDirectory(path)) throw folderForFile(path);
}

function folderForFile(path: string): DamagedStateError {
	return new DamagedStateError(`The state file ${path} is a folder, not a file, so nothing was synced: move it away, and the next sync writes the file again`);
}

/** Writes a state file whole; a folder in its place (one `refuseFoldersForFiles` does not know of) is said in a sentence, not as `EISDIR`. */
async function writeStateFile(path: string, text: string | Uint8Array): Promise<void> {
	try {
		await writeFileReplacing(path, text, PRIVATE_FILE_MODE);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EISDIR" && (await isDirectory(path))) throw folderForFile(path);
		throw error;
	}
}

/** The sync state is there but cannot be read: the sync stops rather than start afresh over it (see `loadState`). */
export class DamagedStateError extends Error {}

function damagedState(path: string, why: string): DamagedStateError {
	return new DamagedStateError(
		`The sync state ${path} cannot be read (${why}); nothing was synced. It holds what the sync remembers between runs (each session's note and digest, the projects' folders, the facts shared and proposed): put back a good copy, or move the state folder away to start over (the notes stay where they are; the next sync makes every session's record again, and proposes facts afresh)`,
	);
}

/** A state of a release newer than this one is not ours to rewrite; one of no version we know is damaged. */
function checkVersion(path: string, raw: Record<string, unknown>): void {
	const version = raw.version;
	if (typeof version === "number" && version > SYNC_STATE_VERSION) throw new DamagedStateError(`The sync state ${path} was written by a newer release (state version ${version}, this one knows ${SYNC_STATE_VERSION}); nothing was synced: update AI Conversation Memory here too`);
	if (!isReadableStateVersion(version)) throw damagedState(path, `its version is ${JSON.stringify(version)}`);
}

/** Every session record of a session file is of the shape the sync uses (see `stored-shape`). */
function checkSessionRecords(path: string, records: Record<string, unknown>): void {
	for (const [key, record] of Object.entries(records)) {
		const problem = sessionRecordProblem(record);
		if (problem !== undefined) throw damagedState(path, `its record of ${key.slice(0, 200)} ${problem}`);
		// Taken as an older release's (digested again), a newer release's digest was made in this one's
		// form and its note rewritten so; the newer release then did the same back, at every sync of either.
		const version = (record as { digest: { version?: unknown } }).digest.version;
		if (typeof version === "number" && version > DIGEST_VERSION) throw new DamagedStateError(`The sync state ${path} holds sessions a newer release digested (digest version ${version}, this one knows ${DIGEST_VERSION}); nothing was synced: update AI Conversation Memory here too`);
	}
}

/** The same of `sync-state.json`: its projects, summaries, checkpoints and shared facts, and the sessions an older state holds itself. */
function checkStateRecords(path: string, raw: Record<string, unknown>): void {
	const each: [field: string, what: string, problem: (value: unknown) => string | undefined][] = [
		["projects", "project", projectRecordProblem],
		["summaries", "summary", summaryProblem],
		["checkpoints", "checkpoint of", checkpointProblem],
		["memory", "shared facts of", sharedFactsProblem],
	];
	for (const [field, what, problem] of each) {
		const records = raw[field];
		if (records === undefined) continue;
		if (typeof records !== "object" || records === null || Array.isArray(records)) throw damagedState(path, `its \`${field}\` is not an object`);
		for (const [key, record] of Object.entries(records)) {
			const why = problem(record);
			if (why !== undefined) throw damagedState(path, `its ${what} ${key.slice(0, 200)} ${why}`);
		}
	}
	const sessions = raw.sessions;
	if (!Array.isArray(raw[SESSION_FILES]) && typeof sessions === "object" && sessions !== null) checkSessionRecords(path, sessions as Record<string, unknown>);
}

/** A state file the state lists that cannot be read. */
function unreadState(path: string, error: unknown): DamagedStateError {
	const code = (error as NodeJS.ErrnoException).code;
	return damagedState(path, code === "ENOENT" ? "the state lists it, and it is gone" : error instanceof Error ? error.message : String(error));
}

/** A state file's JSON object, from its bytes or text as `read` gives them; `DamagedStateError` when there is none. */
function parsedStateJson(path: string, read: () => Buffer | string): Record<string, unknown> {
	let text: string;
	try {
		text = read().toString();
	} catch (error) {
		throw unreadState(path, error);
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		throw damagedState(path, "it is not JSON");
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) throw damagedState(path, "it is not a JSON object");
	if (nestedDeeperThan(value, MAX_STATE_DEPTH)) throw damagedState(path, `it is nested more than ${MAX_STATE_DEPTH} deep, as no state is`);
	return value as Record<string, unknown>;
}

/** One record's digest lists in a lists file's value; undefined when they are not there. */
function listsOf(file: unknown, key: string): DigestLists | undefined {
	const lists = typeof file === "object" && file !== null && Object.hasOwn(file, key) ? (file as Record<string, unknown>)[key] : undefined;
	return typeof lists === "object" && lists !== null && !Array.isArray(lists) ? (lists as DigestLists) : undefined;
}

/** The same, `DamagedStateError` when they are not there, or not of their shape. */
function listsIn(file: Record<string, unknown>, key: string, path: string): DigestLists {
	const lists = listsOf(file, key);
	if (!lists) throw damagedState(path, `it holds no digest lists for ${key}`);
	const problem = digestListsProblem(lists);
	if (problem !== undefined) throw damagedState(path, `its digest lists for ${key} ${problem}`);
	return lists;
}

/** The records of a session file whose digest is only its head: their lists are in the lists file. */
function headRecords(part: Record<string, unknown>): [string, { digest: Record<string, unknown> }][] {
	return Object.entries(part).filter((entry): entry is [string, { digest: Record<string, unknown> }] => {
		const digest = (entry[1] as { digest?: unknown } | null)?.digest;
		return typeof entry[1] === "object" && typeof digest === "object" && digest !== null && !holdsLists(digest);
	});
}

/** The value of a JSON text, or undefined when it is not JSON. */
function parsedOrUndefined(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
}

/** A JSON file's value, or undefined when it is missing or damaged; remembers nothing (a reader of another's state). */
async function readJsonOnly(path: string): Promise<unknown> {
	return (await readJsonFile(path)).value;
}

/** A JSON file read: its text and value; no value when it is missing, or there and `problem` (said in the sync's notices). */
interface JsonRead {
	text?: string;
	value?: unknown;
	problem?: "damaged" | "not a file that could be read";
}

async function readJsonFile(path: string): Promise<JsonRead> {
	let text: string;
	try {
		// Decoded in one pass (with an encoding, Node decodes and joins it chunk by chunk).
		text = (await readPlainBytes(path)).toString("utf8");
	} catch (error) {
		// A FIFO, a folder, a file past the size limit is there, and was done without as silently as none.
		return (error as NodeJS.ErrnoException).code === "ENOENT" ? {} : { problem: "not a file that could be read" };
	}
	try {
		return { text, value: JSON.parse(text) as unknown };
	} catch {
		return { text, problem: "damaged" };
	}
}

/** The key of `sync-state.json` that lists the session files. */
const SESSION_FILES = "sessionFiles";

/** What this folder names a session file: a name from elsewhere never becomes a path. */
function isSessionFileName(name: unknown): name is string {
	return typeof name === "string" && /^[0-9a-z]+-[0-9a-z]+\.json$/.test(name);
}

/** The same paths with the very same record objects (records are frozen once stored: a change makes a new one). */
function sameRecords(a: ReadonlyMap<string, SessionRecord>, b: ReadonlyMap<string, SessionRecord>): boolean {
	if (a.size !== b.size) return false;
	for (const [path, record] of b) if (a.get(path) !== record) return false;
	return true;
}

/** A copy of the map with its entries frozen: an entry changed in place would throw, not go unwritten. */
function frozenCopy(map: ReadonlyMap<string, TranscriptFile>): Map<string, TranscriptFile> {
	for (const file of map.values()) Object.freeze(file);
	return new Map(map);
}

/** Whether `now` holds the very entries of `before`, no more, no fewer. */
function sameEntries(before: ReadonlyMap<string, TranscriptFile> | undefined, now: ReadonlyMap<string, TranscriptFile>): boolean {
	if (before === undefined || before.size !== now.size) return false;
	for (const [path, file] of now) if (before.get(path) !== file) return false;
	return true;
}

function isStoredTranscript(value: unknown): value is StoredTranscript {
	if (typeof value !== "object" || value === null) return false;
	const v = value as Partial<StoredTranscript>;
	return typeof v.file?.path === "string" && typeof v.cursor?.offset === "number" && typeof v.model === "object" && v.model !== null;
}

/**
 * For readers that keep the sessions in memory (the MCP server): `sync-state.json` as stored
 * (the session files it lists in `sessionFiles`; an older state holds `sessions` itself).
 */
export async function readStoredState(dir: string): Promise<{ sessionFiles: string[]; raw: Record<string, unknown> } | undefined> {
	const raw = await readPlainBytes(join(dir, STATE_FILE)).then((b) => parsedOrUndefined(b.toString("utf8")), () => undefined);
	if (typeof raw !== "object" || raw === null) return undefined;
	const names = (raw as Record<string, unknown>)[SESSION_FILES];
	return { sessionFiles: Array.isArray(names) ? names.filter(isSessionFileName) : [], raw: raw as Record<string, unknown> };
}

/**
 * One session file the state lists: its records by transcript path, digests whole (empty when gone
 * or damaged; a record whose lists are, left out), and the file (`sessions/…` or `lists/…`) that
 * could not be read when one could not: its sessions are missing, which a reader must say rather
 * than answer that no session has their ids (a sync stops on such a file).
 */
export async function readSessionFile(dir: string, name: string): Promise<{ records: Record<string, SessionRecord>; unreadable?: string }> {
	if (!isSessionFileName(name)) return { records: {} };
	const part = await readJsonFile(join(dir, SESSIONS_DIR, name));
	if (typeof part.value !== "object" || part.value === null || Array.isArray(part.value)) return { records: {}, unreadable: `${SESSIONS_DIR}/${name}` };
	const records = part.value as Record<string, unknown>;
	const heads = headRecords(records);
	if (heads.length === 0) return { records: records as Record<string, SessionRecord> };
	const lists = await readJsonOnly(join(dir, LISTS_DIR, name));
	let missing = false;
	for (const [key, record] of heads) {
		const found = listsOf(lists, key);
		if (found) record.digest = wholeDigest(record.digest, found);
		else {
			delete records[key];
			missing = true;
		}
	}
	return { records: records as Record<string, SessionRecord>, ...(missing ? { unreadable: `${LISTS_DIR}/${name}` } : {}) };
}

/** A project's session records a file, about (see `writeSessionFiles`). */
const RECORDS_A_FILE = 64;

/** How many files a project of `records` sessions keeps them in: a power of two, so a file holds `RECORDS_A_FILE` or fewer on average. */
function chunksFor(records: number): number {
	let chunks = 1;
	while (records > chunks * RECORDS_A_FILE) chunks *= 2;
	return chunks;
}

/** Projects whose session files are written at once (see `writeSessionFiles`). */
const SESSION_FILE_WRITES = 8;
