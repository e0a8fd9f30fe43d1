import { DIGEST_VERSION } from "../digest/session-digest";
import { sessionsBasePath } from "../notes/base-file";
import { generatedProperty } from "../notes/note-regions";
import { renderConversation } from "../notes/render-session-note";
import { followRenames, unpinAbsent } from "../plan/follow-renames";
import { notesGone } from "../plan/notes-gone";
import { followMovedTranscripts, movedTranscripts, type TranscriptMove } from "../plan/moved-transcripts";
import type { HookContext } from "../plan/hook-context";
import { INBOX } from "../plan/plan-proposals";
import type { SharedFolder } from "../plan/plan-memory";
import { copyState, enabledProjects, foldersToIdentify, migrateToIdentities, scopeSessions, settingsKey, summaryTitles, type Identities, type SessionScope } from "../plan/plan-scope";
import { otherVaultsNotes, planSync, projectFileKey, redactableFolders, sessionTagBasis, type ExistingTexts, type SessionTagBasis } from "../plan/plan-sync";
import { followRedactedRenames, redactedRenames } from "../plan/redacted-names";
import { memoryPathOf, packetPathOf, indexPathOf } from "../plan/project-paths";
import type { PlannedMove, SyncPlan } from "../plan/sync-plan";
import type { MemoryFolder, NoteStore, ProjectFiles, ProjectResolver, RepositoryFingerprint } from "../ports";
import { recordedFingerprint } from "../projects/replaced-repository";
import { contextFilesOf, otherContextFiles, type ProjectSettings, type Settings } from "../settings";
import { BEGIN_MARKER } from "../text/marked-block";
import { hash53 } from "../transcript/fold";
import { AGENT_NAMES, agentOf } from "../transcript/agents";
import { folderPassedOver } from "../transcript/session-folder";
import { isEmptySession } from "../transcript/session-queries";
import { parentIdOf } from "../transcript/link-subagents";
import { applyPlan, type SyncReport } from "./apply-plan";
import { takesOccupied, twinsAFolder, unrecordedNotes, type UnrecordedNotes } from "./unrecorded-notes";
import { prepareSession, type PreparedSession } from "../ingest/prepare-session";
import { redactionKey, redactionSpec, redactorFor, type RedactionSpec } from "../ingest/redaction-policy";
import type { SyncState } from "./sync-state";
import type { IndexedTranscript, RefreshResult, TranscriptIndex } from "../ingest/transcript-index";
import type { ConversationText } from "../notes/conversation-text";
import { mapConcurrently } from "../concurrently";
import { isFileSyncCopy } from "../text/file-sync-copy";

export type { SyncReport };

export interface SyncOptions {
	/** Re-render every note, recreating deleted ones. */
	rebuild?: boolean;
	/** Called as notes are written: done of total. */
	onProgress?: (done: number, total: number) => void;
	/** Only this project (its path): its sessions' notes, its facts and its CLAUDE.md. */
	project?: string;
	/** Notes and folders the user renamed or moved in the vault since the last sync (the plugin hears them). */
	renames?: readonly PlannedMove[];
	/** The transcripts that changed, as a watcher names them: only they are read, unless one is new. */
	paths?: readonly string[];
	/** Plan only: nothing is moved or written (the plan lists the moves a sync would make). */
	dryRun?: boolean;
}

export interface SyncDeps {
	index: TranscriptIndex;
	settings: Settings;
	/** Brought to the state after the sync in place; the caller stores it afterwards. */
	state: SyncState;
	notes: NoteStore;
	projects: ProjectFiles;
	/** The vault's folder on disk: paths written into CLAUDE.md are made absolute with it. */
	vaultPath?: string;
	/** Stores what the hooks of a project print (see `HookContext`). */
	hookContext?: (projectPath: string, context: HookContext | null) => Promise<void>;
	/** A project's Claude Code memory folder; undefined when Claude Code's memory is off for it. */
	claudeMemory?: (projectPath: string) => MemoryFolder | undefined;
	/** Finds a folder's repository on this machine; without it, every folder is its own project. */
	resolve?: ProjectResolver;
	/** A repository's fingerprint: without it, a repository replaced by another at its path is not told from it. */
	fingerprint?: RepositoryFingerprint;
	/** The clock (ms since 1970): a session dated more than a day after it is left out of the context block. */
	now?: () => number;
}

/** A plan and what it was made from, before anything is written. */
export interface PlannedSync {
	plan: SyncPlan;
	transcriptsRead: number;
	/** Transcripts that could not be read, with why. */
	failed: string[];
	/** What the read did not take in, with why: entries where transcripts are that are not read (a link, a FIFO), transcripts of which no line could be read. */
	readNotices: string[];
	/** Notes moved before the plan was made (a migration), and problems moving them. */
	moved: PlannedMove[];
	moveErrors: string[];
}

/**
 * One sync: reads what changed in the transcripts (ingest), works out every write (plan) and
 * carries them out (apply). Writes only files whose bytes change.
 */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncReport> {
	const planned = await planFromSources(deps, options);
	const { report, state } = await applyPlan(planned.plan, { notes: deps.notes, projects: deps.projects, claudeMemory: deps.claudeMemory, hookContext: deps.hookContext, onProgress: options.onProgress }, planned.transcriptsRead);
	report.errors.unshift(...planned.failed, ...planned.moveErrors);
	report.notices.push(...planned.readNotices);
	report.notesMoved.push(...planned.moved.map((m) => `${m.from} → ${m.to}`));
	if (planned.plan.forget) await deps.index.forget(planned.plan.forget);
	for (const key of Object.keys(deps.state)) delete (deps.state as unknown as Record<string, unknown>)[key];
	Object.assign(deps.state, state);
	return report;
}

/**
 * Sessions whose notes were written under another redaction than today's (a pattern added, rules
 * a newer release knows): their notes, names, titles and lists are made again, as a full sync
 * would, or the secret stayed until the session changed. A project recorded without one (an
 * older release) is taken as written under today's.
 */
export function underOtherRedaction(state: SyncState, spec: RedactionSpec): string[] {
	return Object.entries(state.sessions)
		.filter(([, r]) => {
			const was = r.projectKey === undefined ? undefined : state.projects[r.projectKey]?.notesRedaction;
			return was !== undefined && was !== redactionKey(spec, r.projectPath);
		})
		.map(([path]) => path);
}

/** Records on each project of `state` (in place) the redaction its sessions' notes are written under now. */
export function recordNotesRedaction(state: SyncState, spec: RedactionSpec): void {
	for (const r of Object.values(state.sessions)) {
		const project = r.projectKey === undefined ? undefined : state.projects[r.projectKey];
		const key = redactionKey(spec, r.projectPath);
		if (r.projectKey !== undefined && project && project.notesRedaction !== key) state.projects[r.projectKey] = { ...project, notesRedaction: key };
	}
}

/** Reads the transcripts and every text the plan needs, and plans the sync; writes nothing. */
export async function planFromSources(deps: SyncDeps, options: SyncOptions = {}): Promise<PlannedSync> {
	const { index, settings } = deps;
	const start = copyState(deps.state);
	const folders = { notes: settings.notesFolder, memory: settings.memoryFolder };
	const heard = options.renames ?? [];
	// `followRenames` changes the records in place: a copy of each, to tell what it pinned (none without renames: 100,000 projects copied at each sync).
	const pinned = heard.length === 0 ? undefined : Object.fromEntries(Object.entries(start.projects).map(([key, project]) => [key, { ...project }]));
	const relinked = followRenames(start, heard, folders);
	if (pinned !== undefined) await unpinAbsent(start, pinned, deps.notes);
	for (const path of await notesGone(start, deps.notes, settings)) relinked.add(path);
	const { read, prepared, conversations, tagBases } = await ingest(index, start, settings, options.paths);
	// Transcripts whose folder moved keep their sessions' records, so their notes (see `movedTranscripts`).
	const transcriptMoves = read.removed.length === 0 ? [] : movedTranscripts(start, read.updated.map((e) => e.file), read.removed, new Map(index.knownFiles().map((f) => [f.path, f])));
	// Said only of those with a note to keep: one moved before its first prompt has none.
	const movesSaid = transcriptMoves.filter((m) => start.sessions[m.from] !== undefined);
	followMovedTranscripts(start, transcriptMoves);
	// The old place's model goes now: kept, it would be a session of its own (its sub-agents' parent, say).
	if (transcriptMoves.length > 0) await index.forget(transcriptMoves.map((m) => m.from));

	// Sessions read by a sync of one project but of another project wait for the next sync.
	// Sessions whose stored digest an older release made are digested again from their models.
	const stale = Object.entries(start.sessions).filter(([, r]) => r.digest.version !== DIGEST_VERSION).map(([p]) => p);
	stale.push(...underOtherRedaction(start, redactionSpec(settings)));
	// No session recorded: a first sync, or `sync-state.json` lost while the list of transcripts read
	// stayed. Every transcript known is planned, not only those read now: the index and context were
	// rebuilt from the one session that changed.
	const firstSync = Object.keys(start.sessions).length === 0;
	const paths = options.rebuild || firstSync ? index.knownFiles().filter((f) => f.kind !== "sessions").map((f) => f.path) : [...new Set([...touchedSessionPaths(read, index), ...start.pending, ...stale])];
	let candidates = await index.sessions(paths);
	// A session digested where it was folded and titled by a summary read since, or linked to a
	// sub-agent after all, is digested again here: from its whole model.
	const titleOf = summaryTitles(start);
	const digestAgain = candidates.filter((s) => index.isPartial(s.file.path) && (s.subagents.length > 0 || s.warmups !== undefined || titleOf(s.model) !== prepared.get(s.file.path)?.summaryTitle));
	if (digestAgain.length > 0) {
		await index.whole(digestAgain.map((s) => s.file.path));
		candidates = await index.sessions(paths);
	}
	// Warmups of sessions never written: their tokens count, apart from any session.
	const warmups = await index.warmupsWithoutSession(paths);
	const identities = await resolveAll(deps, start, foldersToIdentify(start, candidates, settings, options.project === undefined ? [] : [options.project], warmups));
	const folderOf = new Map(index.knownFiles().map((f) => [f.path, f.projectDir]));
	const folderOfPath = (path: string) => folderOf.get(path) ?? path;
	const migration = migrateToIdentities(start, settings, identities, folderOfPath);
	let unrecorded: UnrecordedNotes | undefined;
	const rewritten = new Set(read.updated.filter((e) => e.readAnew).map((e) => e.file.path));
	const scopeOf = () => scopeSessions({ state: start, sessions: candidates, prepared, settings, identities, project: options.project, relinked, rewritten, folderOf: folderOfPath, migration, warmups, orphans: unrecorded?.orphans, occupied: unrecorded?.occupied, folders: unrecorded?.folders });
	let scope = scopeOf();
	// Sessions never recorded whose note is there all the same (a sync killed after writing it, before
	// storing its state) take it; new notes, indexes and packets go beside the files no record names.
	unrecorded = await unrecordedNotes(deps.notes, settings.notesFolder, scope, start, options.dryRun);
	if (unrecorded.orphans.size > 0 || takesOccupied(scope, settings.notesFolder, unrecorded.occupied) || twinsAFolder(scope, start, unrecorded.folders)) scope = scopeOf();
	// Notes move first (links to them follow), so that everything after is planned against the moved vault.
	const moved: PlannedMove[] = [];
	const moveErrors: string[] = [];
	if (scope.moves.length > 0 && !options.dryRun) {
		try {
			moved.push(...(await deps.notes.move(scope.moves)));
		} catch (error) {
			moveErrors.push(`Notes could not be moved to their project's new folder: ${error instanceof Error ? error.message : String(error)}`);
		}
		scope = { ...scope, moves: [] };
	}
	let existing = await readExisting(deps, scope, identities, options);
	// Notes the user moved while the plugin was not looking, found by their session id: followed
	// there. Their neighbours are rendered then (links to them changed), and may have moved too
	// (a project folder renamed): looked for again, in the same listing of the vault. A note not
	// found anywhere (of a session rendered, or of another in its project) was deleted by the user
	// and stays so; its neighbours are rendered too, to link past it, and their notes may be gone or
	// moved as well: each round looks at the ones it added.
	const vault: VaultSessionNotes = {};
	for (let round = 0; round < 8; round++) {
		const { moves: found, lost } = await movedNotes(deps, scope, existing.notes, options, vault);
		// Gone: a rendered session's note not read, or a note of its project found nowhere in the vault (a session that did not grow).
		const missingHere = scope.render.filter((p) => { const record = scope.state.sessions[p]; return record?.written && existing.notes.get(record.notePath) == null && !existing.unreadableNotes?.has(record.notePath); });
		const gone = found.length > 0 || options.rebuild ? [] : [...new Set([...lost, ...missingHere])].filter((p) => !relinked.has(p) && !scope.state.sessions[p]?.deleted);
		if (found.length === 0 && gone.length === 0) break;
		for (const path of [...followRenames(start, found, folders), ...gone]) relinked.add(path);
		scope = { ...scopeOf(), moves: scope.moves };
		existing = await readExisting(deps, scope, identities, options);
	}
	// Proposals and facts' vault files named after what today's redaction catches (named while it was
	// off, or before a pattern) take the names their redacted text gives, links to them following;
	// the notes that link to a proposal are rendered again with its new name.
	const renames = redactedRenames(scope.state, redactableFolders(scope.state, settings, identities, existing));
	// A dry run renames nothing: it lists the renames among the plan's moves.
	if (options.dryRun && renames.length > 0) scope = { ...scope, moves: [...scope.moves, ...renames.map(({ from, to }) => ({ from, to }))] };
	else {
		if (renames.length > 0) {
			try {
				const made = new Set((await deps.notes.move(renames)).map((m) => `${m.from}\0${m.to}`));
				const done = renames.filter((r) => made.has(`${r.from}\0${r.to}`));
				moved.push(...done.map(({ from, to }) => ({ from, to })));
				scope = { ...scope, render: [...new Set([...scope.render, ...followRedactedRenames(scope.state, done)])] };
			} catch (error) {
				moveErrors.push(`Memory files could not be renamed to their redacted names: ${error instanceof Error ? error.message : String(error)}`);
			}
			existing = await readExisting(deps, scope, identities, options);
		}
	}
	// A note rendered with no digest or conversation made ahead is made from the whole model.
	await index.whole(scope.render.filter((p) => !scope.ready.has(p) || (settings.detail !== "digest" && !conversations.has(p))));
	const sessions = await index.sessions(scope.render);
	const plan = planSync({ scope, sessions, existing, settings, identities, rebuild: options.rebuild, conversations, tagBases, vaultPath: deps.vaultPath, known: index.knownFiles(), now: deps.now?.() });
	recordNotesRedaction(plan.state, redactionSpec(settings));
	return { plan, transcriptsRead: read.updated.length, failed: [...read.failed.map((f) => `${f.path}: ${f.reason}`), ...(scope.failed ?? [])], readNotices: [...(read.passedOver ?? []).filter((f) => f.standsFor === undefined || start.sessions[f.standsFor] === undefined).map((f) => `${f.path}: ${f.reason}`), ...nothingReadable(read.updated), ...partlyReadable(read.updated), ...nothingKnown(read.updated), ...movedNotice(movesSaid)], moved, moveErrors };
}

function movedNotice(all: readonly TranscriptMove[]): string[] {
	const moves = all.filter((m) => !m.subagent);
	if (moves.length === 0) return [];
	const [first] = moves;
	return [`${moves.length === 1 ? "A transcript was" : `${moves.length} transcripts were`} found in a new place (${first!.from} is now ${first!.to}${moves.length > 1 ? ", and others" : ""}): their notes are kept and brought up to date, none is written again`];
}

/**
 * Transcripts read this time of which no line could be read (UTF-16 text, a binary file under a
 * transcript's name): they make no note, and without a word the user would not know why.
 */
function nothingReadable(entries: readonly IndexedTranscript[]): string[] {
	return entries.flatMap(({ file, model }) => {
		const first = model.malformedLines[0];
		if (model.counts.records > 0 || !first) return [];
		return [`${file.path}: ${model.counts.malformed === 1 ? "its one line could not" : `none of its ${model.counts.malformed} lines could`} be read, so it has no note (line ${first.line}: ${first.reason}${/^(invalid JSON|NUL bytes in line)$/.test(first.reason) ? "; is it UTF-8?" : ""})`];
	});
}

/**
 * Transcripts of which some lines read this time could not be read (a line cut in two, bytes of
 * another encoding, a crash's zero bytes): their notes hold the rest, and without a word the user
 * would take a note missing a prompt for the whole session. Each such line is named once, by the read that met it.
 */
function partlyReadable(entries: readonly IndexedTranscript[]): string[] {
	return entries.flatMap(({ file, model, unreadLines }) => {
		if (unreadLines === undefined || model.counts.records === 0) return [];
		// The first of this read's lines, where the list (which keeps the first few) still has it.
		const first = model.malformedLines[model.counts.malformed - unreadLines];
		const where = first ? ` (line ${first.line}: ${first.reason})` : "";
		return [`${file.path}: ${unreadLines === 1 ? "a line" : `${unreadLines} lines`} could not be read${where}; its note holds the rest`];
	});
}

/**
 * Another agent's transcripts read this time of which every record is of a kind its reader does not
 * know (a newer client's format): they make no note, and the sync said every note was current.
 * (Claude Code's transcripts hold files of bookkeeping records alone, its warmups' among them.)
 */
function nothingKnown(entries: readonly IndexedTranscript[]): string[] {
	return entries.flatMap(({ file, model }) => {
		const agent = agentOf(file);
		const { records, unknownRecords } = model.counts;
		if (agent === "claude-code" || records === 0 || unknownRecords < records || folderPassedOver(model) || !isEmptySession(model)) return [];
		const first = Object.keys(model.unknownTypes)[0] ?? "";
		return [`${file.path}: ${records === 1 ? "its one record is not" : `none of its ${records} records is`} of a kind the ${AGENT_NAMES[agent]} reader knows (the first: ${JSON.stringify(first)}), so it has no note: is it from a newer ${AGENT_NAMES[agent]}?`];
	});
}

/** Brings the index up to date; digests (and conversations without sub-agents) are made as each file arrives. */
async function ingest(index: TranscriptIndex, state: SyncState, settings: Settings, paths: readonly string[] | undefined): Promise<{ read: RefreshResult; prepared: Map<string, PreparedSession>; conversations: Map<string, ConversationText>; tagBases: Map<string, SessionTagBasis> }> {
	const prepared = new Map<string, PreparedSession>();
	const conversations = new Map<string, ConversationText>();
	const tagBases = new Map<string, SessionTagBasis>();
	// Files a watcher named are read alone; a new one (or a sub-agent's meta file) needs the scan.
	const named = paths !== undefined && paths.length > 0 && (await Promise.all(paths.map((p) => index.knows(p)))).every(Boolean);
	const onRead = (entry: IndexedTranscript) => {
		if (entry.file.kind !== "session") return;
		try {
			const ready = entry.prepared ?? prepareSession(entry.model, undefined, entry.file.projectDir);
			// The part of its tags that needs no other session, while other files are still being read.
			tagBases.set(entry.file.path, sessionTagBasis({ file: entry.file, model: entry.model, subagents: [] }, ready, settings));
			prepared.set(entry.file.path, ready);
		} catch {
			// Its read was good: its digest is made again when the sessions are scoped, which says why it failed.
			return;
		}
		if (entry.conversation !== undefined) conversations.set(entry.file.path, entry.conversation);
		else if (settings.detail !== "digest" && !isEmptySession(entry.model) && !index.mayHaveSubagents(entry.file)) {
			conversations.set(entry.file.path, renderConversation({ file: entry.file, model: entry.model, subagents: [] }, settings.detail));
		}
	};
	// Where a worker folds a session, it renders its conversation too (and sends less of its model back).
	const read = named ? await index.refreshPaths(paths, onRead, settings.detail) : await index.refresh(onRead, settings.detail);
	for (const entry of read.updated) for (const s of entry.model.summaries) if (s.leafUuid && s.text) state.summaries[String(hash53(s.leafUuid))] = s.text;
	return { read, prepared, conversations, tagBases };
}

/** Session files read this time, and the parents of sub-agent files read this time. */
function touchedSessionPaths(read: RefreshResult, index: TranscriptIndex): string[] {
	const paths = new Set<string>();
	const sessions = index.knownFiles().filter((f) => f.kind === "session");
	for (const entry of read.updated) {
		if (entry.file.kind === "session") paths.add(entry.file.path);
		else {
			const parentId = parentIdOf(entry.file, entry.model);
			const parent = sessions.find((s) => s.projectDir === entry.file.projectDir && s.fileId === parentId);
			// A sub-agent without its session is a session of its own (see `TranscriptIndex.sessions`).
			paths.add(parent ? parent.path : entry.file.path);
		}
	}
	return [...paths];
}

/** Each folder's project here; a repository's fingerprint looked up once per root, given the one recorded for its project. */
async function resolveAll(deps: Pick<SyncDeps, "resolve" | "fingerprint">, state: SyncState, folders: readonly string[]): Promise<Identities> {
	const resolved = new Map(folders.map((folder) => [folder, deps.resolve?.(folder)] as const));
	const roots = [...new Set([...resolved.values()].flatMap((r) => (r?.repository ? [r.root] : [])))];
	const fingerprints = new Map<string, string | undefined>();
	// A first sync finds many repositories, each fingerprinted by a git run: a few at once.
	const fingerprint = deps.fingerprint;
	if (fingerprint) {
		const found = await mapConcurrently(roots, FINGERPRINT_CONCURRENCY, (root) => fingerprint(root, recordedFingerprint(state.projects[root])));
		roots.forEach((root, n) => fingerprints.set(root, found[n]));
	}
	return new Map(
		[...resolved].map(([folder, r]) => {
			const found = r?.repository ? fingerprints.get(r.root) : undefined;
			return [folder, r && found !== undefined ? { ...r, fingerprint: found } : r];
		}),
	);
}

/** Repositories fingerprinted at once (a git run each, the first time). */
const FINGERPRINT_CONCURRENCY = 4;

/** Notes read at once: reading one overlaps the next. */
const READ_CONCURRENCY = 8;

/** What `readExisting` read of one enabled project's files (see there). */
interface ProjectFilesRead {
	claudeMemory?: SharedFolder;
	/** Claude Code's memory folder that could not be read, and why. */
	memoryError?: [string, string];
	files: { key: string; text: string | null; otherVault?: string; sameAs?: string; readOnly?: true }[];
	unreadable: [string, string][];
}

/** Every text the plan is made against: the notes it may write, memory folders, CLAUDE.md files. */
async function readExisting(deps: SyncDeps, scope: SessionScope, identities: Identities, options: SyncOptions): Promise<ExistingTexts> {
	const { settings, notes } = deps;
	const state = scope.state;
	const paths = new Set<string>();
	for (const move of scope.moves) paths.add(move.from);
	for (const path of scope.render) {
		const record = state.sessions[path];
		if (record) paths.add(record.notePath);
	}
	for (const key of scope.indexes) {
		const project = state.projects[key];
		if (project) paths.add(indexPathOf(project, settings.notesFolder));
	}
	for (const { record } of scope.absorbed ?? []) paths.add(record.notePath);
	paths.add(sessionsBasePath(settings.notesFolder));
	const enabled = enabledProjects(settings, identities, scope.only);
	for (const project of enabled) {
		const record = state.projects[settingsKey(project, identities)];
		if (record && project.mode === "lazy") paths.add(packetPathOf(record, settings.notesFolder));
	}
	const texts = new Map<string, string | null>();
	const unreadableNotes = new Map<string, string>();
	await mapConcurrently([...paths], READ_CONCURRENCY, async (path) => {
		try {
			texts.set(path, await notes.read(path));
		} catch (error) {
			unreadableNotes.set(path, `not read, so not written: ${error instanceof Error ? error.message : String(error)}`);
		}
	});

	const memory = new Map<string, { facts: Map<string, string>; inbox: Map<string, string>; absent?: boolean }>();
	const unreadableMemory = new Map<string, string>();
	const keys = [...new Set([...scope.live.map((s) => state.sessions[s.file.path]?.projectKey), ...enabled.map((p) => settingsKey(p, identities))])];
	// Several projects' folders at once (each read waits on the disk: 10,000 projects read one after
	// another were 14 s of a first sync), put in the maps in the projects' order.
	const readMemory = async (key: string | undefined): Promise<{ key: string; read?: { facts: Map<string, string>; inbox: Map<string, string>; absent?: boolean }; error?: string } | undefined> => {
		const project = key === undefined ? undefined : state.projects[key];
		if (!key || !project) return undefined;
		const folder = memoryPathOf(project, settings.memoryFolder);
		// A folder that cannot be read whole (a link out of the vault, a FIFO named like a fact) is
		// not merged this time: a fact missing from the read would look deleted, on both sides.
		try {
			const facts = await readFolder(notes, folder);
			// Not there at all is not "every fact deleted" (see `planProjectMemory`).
			const absent = facts.size === 0 && notes.isFolder !== undefined && !(await notes.isFolder(folder));
			// Nothing under a folder not there (a hundred thousand enabled projects with no facts yet).
			return { key, read: { facts, inbox: absent ? new Map<string, string>() : await readFolder(notes, `${folder}/${INBOX}`), ...(absent ? { absent } : {}) } };
		} catch (error) {
			return { key, error: `${folder}: not read, so no fact of it is merged or shared this time: ${error instanceof Error ? error.message : String(error)}` };
		}
	};
	for (const found of await mapConcurrently(keys, READ_CONCURRENCY, readMemory)) {
		if (found?.read) memory.set(found.key, found.read);
		else if (found?.error !== undefined) unreadableMemory.set(found.key, found.error);
	}

	const claudeMemory = new Map<string, SharedFolder>();
	const projectFiles = new Map<string, string | null>();
	const unreadable = new Map<string, string>();
	const sameAs = new Map<string, string>();
	const otherVault = new Map<string, string>();
	const readOnly = new Set<string>();
	// Each enabled project's files, several projects at once (each file is a few waits on the disk:
	// a thousand enabled projects read one after another were four seconds of every sync), put in
	// the maps in the projects' order.
	const readProject = async (project: ProjectSettings): Promise<ProjectFilesRead> => {
		const found: ProjectFilesRead = { files: [], unreadable: [] };
		const folder = project.memorySharing ? deps.claudeMemory?.(project.path) : undefined;
		// A folder that cannot be read (a link out of Claude Code's folder) is not shared this time; the others are.
		if (folder) {
			try {
				const files = await folder.list();
				const absent = files.size === 0 && folder.exists !== undefined && !(await folder.exists());
				// Asked only of a folder that is there: a thousand enabled projects with no memory yet walk no real path.
				const real = absent ? undefined : await folder.realPath?.();
				found.claudeMemory = { path: folder.path, files, ...(absent ? { absent } : {}), ...(real === undefined ? {} : { real }) };
			} catch (error) {
				// Said with the project's redaction: the model names these files, and a token in a fact's name (`reference_AKIA….md`, not UTF-8) reached the terminal and the sync log whole (attack round 51a).
				const said = redactorFor(redactionSpec(settings), project.path)(error instanceof Error ? error.message : String(error));
				found.memoryError = [folder.path, `not read, so no fact is shared with it: ${said}`];
			}
		}
		// Each file the block goes into; one that is a link to another of them (`CLAUDE.md → AGENTS.md`) is that one.
		const real = new Map<string, string>();
		const targets = contextFilesOf(project);
		for (const name of [...targets, ...otherContextFiles(project)]) {
			const key = projectFileKey(project.path, name);
			const target = targets.includes(name);
			try {
				const text = await deps.projects.read(project.path, name);
				// A file the block no longer goes to is kept only when a block stayed in it (see `planSync`).
				if (!target && !(text?.includes(BEGIN_MARKER) ?? false)) continue;
				// Kept as soon as read, as the maps kept it: a check after it that throws leaves the text known.
				const file: ProjectFilesRead["files"][number] = { key, text };
				found.files.push(file);
				const owner = target ? otherVaultsNotes(text, deps.vaultPath) : undefined;
				// The vault reached by another path (a link to it, its real folder) is this vault: its block was refused as another's.
				if (owner !== undefined && (await deps.projects.folderExists?.(owner)) && !(deps.vaultPath !== undefined && (await deps.projects.within?.(owner, deps.vaultPath)))) file.otherVault = owner;
				const path = await deps.projects.realPath?.(project.path, name);
				if (path !== undefined && real.has(path)) file.sameAs = real.get(path)!;
				else if (path !== undefined) real.set(path, name);
				if (target && text !== null && (await deps.projects.readOnly?.(project.path, name))) file.readOnly = true;
			} catch (error) {
				if (target) found.unreadable.push([key, error instanceof Error ? error.message : String(error)]);
			}
		}
		return found;
	};
	const reads = await mapConcurrently(enabled, READ_CONCURRENCY, readProject);
	reads.forEach((found, n) => {
		if (found.claudeMemory) claudeMemory.set(enabled[n]!.path, found.claudeMemory);
		if (found.memoryError) unreadableNotes.set(...found.memoryError);
		for (const file of found.files) {
			projectFiles.set(file.key, file.text);
			if (file.otherVault !== undefined) otherVault.set(file.key, file.otherVault);
			if (file.sameAs !== undefined) sameAs.set(file.key, file.sameAs);
			if (file.readOnly) readOnly.add(file.key);
		}
		for (const [key, reason] of found.unreadable) unreadable.set(key, reason);
	});
	return { notes: texts, memory, claudeMemory, projectFiles, unreadable, unreadableNotes, sameAs, unreadableMemory, otherVault, readOnly };
}

/** The `.md` files directly in a vault folder, by name. */
async function readFolder(notes: NoteStore, folder: string): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const path of await notes.list(folder)) {
		const name = path.slice(folder.length + 1);
		if (!/\.md$/i.test(name)) continue;
		const text = await notes.read(path);
		if (text !== null) files.set(name, text);
	}
	return files;
}

/** The vault's notes and the session notes among them by `session_id`, listed once per sync (see `movedNotes`). */
interface VaultSessionNotes {
	listed?: { paths: readonly string[]; byId: Map<string, string> };
}

/**
 * Session notes that are not where the state says, found by the `session_id` in their properties
 * (the user moved them while Obsidian was closed). The vault is listed only when one is missing,
 * once. A note found under its own name in another folder, its old folder gone from the vault,
 * is its folder's move (a project folder renamed): the folder is followed, with the index, the
 * packet and every note in it.
 */
async function movedNotes(deps: SyncDeps, scope: SessionScope, texts: ReadonlyMap<string, string | null>, options: SyncOptions, vault: VaultSessionNotes): Promise<{ moves: PlannedMove[]; lost: string[] }> {
	// A rebuild follows moved notes too: it writes again the notes the person deleted, and one moved
	// while no sync looked was taken for deleted, written again beside theirs (attack round 48b: two
	// notes for one session, the moved one with the person's words never updated again).
	if (!deps.notes.listTree) return { moves: [], lost: [] };
	const moved = new Set(scope.moves.map((m) => m.to));
	// The notes rendered, and the other notes of their projects (the index and the neighbours link
	// them: one renamed in its folder left those links on its old name), each told missing by its
	// folder's listing when it was not read.
	const rendered = new Set(scope.render);
	const projects = new Set(scope.render.flatMap((p) => scope.state.sessions[p]?.projectKey ?? []));
	const listings = new Map<string, Promise<Set<string> | undefined>>();
	const isMissing = async (notePath: string): Promise<boolean> => {
		if (texts.has(notePath)) return texts.get(notePath) === null;
		const folder = folderOf(notePath);
		let listing = listings.get(folder);
		if (!listing) listings.set(folder, (listing = deps.notes.list(folder).then((names) => new Set(names), () => undefined)));
		const names = await listing;
		return names !== undefined && !names.has(notePath);
	};
	const missing = new Map<string, { from: string; session: string }>();
	// A note of another session, or one of the user's own, where this session's was (the user renamed
	// its note and gave the name to another): this session's is looked for too, but is not taken for
	// deleted when found nowhere (its note was only taken over). Written there, the turns went into a note
	// that is not the session's, or nowhere at all (its markers gone), while its own note stayed stale.
	const taken = new Map<string, { from: string; session: string }>();
	for (const [path, r] of Object.entries(scope.state.sessions)) {
		if (!r.written || r.deleted || moved.has(r.notePath) || !(rendered.has(path) || (r.projectKey !== undefined && projects.has(r.projectKey)))) continue;
		if (await isMissing(r.notePath)) missing.set(r.digest.sessionId, { from: r.notePath, session: path });
		else if (rendered.has(path) && isTakenBy(texts.get(r.notePath), r.digest.sessionId)) taken.set(r.digest.sessionId, { from: r.notePath, session: path });
	}
	if (missing.size === 0 && taken.size === 0) return { moves: [], lost: [] };
	if (!vault.listed) {
		const paths = await deps.notes.listTree("");
		const byId = new Map<string, string>();
		for (const path of paths) {
			// A file-sync tool's conflict copy of a note carries its session_id too, and sorts before it
			// (" (" before "."): taken, the session's turns went into the copy the user is to reconcile
			// by hand, while its own note (renamed) stayed stale, or a note the user deleted came back as
			// the copy. It is the user's: never a session's note.
			if (isFileSyncCopy(path)) continue;
			const id = generatedProperty(await deps.notes.read(path).catch(() => null), "session_id");
			if (id !== undefined && !byId.has(id)) byId.set(id, path);
		}
		vault.listed = { paths, byId };
	}
	const { paths, byId } = vault.listed;
	const moves = new Map<string, PlannedMove>();
	const lost: string[] = [];
	// Followed only to a place no other session's note is recorded at (two notes whose names were swapped are left: see `planSync`).
	const recorded = new Set(Object.values(scope.state.sessions).map((r) => r.notePath));
	for (const [id, { from }] of taken) {
		const to = byId.get(id);
		if (to !== undefined && to !== from && !recorded.has(to)) moves.set(`${from}\0${to}`, { from, to });
	}
	for (const [id, { from, session }] of missing) {
		const to = byId.get(id);
		if (to === undefined) lost.push(session);
		if (to === undefined || to === from) continue;
		const [fromFolder, toFolder] = [folderOf(from), folderOf(to)];
		const folderMoved = baseNameOf(from) === baseNameOf(to) && fromFolder !== toFolder && fromFolder.includes("/") && !paths.some((p) => p.startsWith(`${fromFolder}/`));
		const move = folderMoved ? { from: fromFolder, to: toFolder } : { from, to };
		moves.set(`${move.from}\0${move.to}`, move);
	}
	return { moves: [...moves.values()], lost };
}

/** Whether the note at a session's recorded place is not its own: another session's, or one with no session of ours (the user's). */
function isTakenBy(text: string | null | undefined, sessionId: string): boolean {
	return text !== null && text !== undefined && generatedProperty(text, "session_id") !== sessionId;
}

const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));
const baseNameOf = (path: string) => path.slice(path.lastIndexOf("/") + 1);

