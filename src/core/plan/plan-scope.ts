import { dict } from "../dict";
import { sessionsBasePath } from "../notes/base-file";
import { baseName, namedAfterTitle, noteStem, quotable, safeFileName, uniquePath } from "../notes/note-name";
import { codeUnitOrder } from "../text/code-unit-order";
import { sameFileKey } from "../text/same-file-key";
import { recordFingerprints, setAsideReplaced } from "../projects/replaced-repository";
import { chooseFolders, comparablePath, isRootedPath, isWithin, projectKeyOf, type ResolvedFolder } from "../projects/project-identity";
import { isExcluded, type ProjectSettings, type Settings } from "../settings";
import type { PreparedSession } from "../ingest/prepare-session";
import { prepareSession, withSubagents } from "../ingest/prepare-session";
import { sessionMark, SYNC_STATE_VERSION, type SessionRecord, type SyncState } from "../sync/sync-state";
import { agentModels, type SessionWithAgents, type Warmup } from "../transcript/link-subagents";
import { usageDays } from "../digest/usage-days";
import { redactionSpec, redactorFor } from "../ingest/redaction-policy";
import type { SessionModel } from "../transcript/session-model";
import type { TranscriptFile } from "../transcript/transcript-files";
import { isEmptySession } from "../transcript/session-queries";
import { indexPathOf, notesPathOf, packetPathOf } from "./project-paths";
import { migrateState } from "./migrate-state";
import { followNoteSettings } from "./follow-note-settings";
import { retitledNotePath } from "./retitled-note";
import type { PlannedMove } from "./sync-plan";

/**
 * The first, pure half of a sync's plan: which project each session belongs to, its record in the
 * next state, and what must be read before the notes, memory and CLAUDE.md files can be planned.
 */

/** What the adapter found on this machine for each folder (undefined: not a folder here). */
export type Identities = ReadonlyMap<string, ResolvedFolder | undefined>;

export interface SessionScope {
	/** The next state (a copy: the input state is left as it was). */
	state: SyncState;
	/** Sessions of this sync with something in them, recorded; in start order (then transcript path). */
	live: SessionWithAgents[];
	/** Digest and terms of each live session. */
	ready: Map<string, PreparedSession>;
	/** Transcript paths of the sessions to render. */
	render: string[];
	/** Identities of the projects whose index notes are rendered. */
	indexes: string[];
	/** Notes moved by a migration, before anything is written. */
	moves: PlannedMove[];
	/** The identity of the one project this sync is for, when it is for one. */
	only?: string;
	/** Projects whose tag prefix changed since their notes were written: the old prefix, by identity (its tags are not the user's). */
	retagged?: ReadonlyMap<string, string>;
	/** Sub-agents that were sessions of their own and are in their session's note now: their records, gone from `state`. */
	absorbed?: Absorbed[];
	/** Sessions left out of this sync, each with why: their digest failed (they wait in `pending`). */
	failed?: string[];
}

/** A sub-agent read before its session's transcript (a session of its own then), now linked to that session. */
export interface Absorbed {
	/** The sub-agent's transcript path. */
	path: string;
	/** Its record as it was: where its own note is, and whether it was written. */
	record: SessionRecord;
	/** The transcript path of the session it belongs to. */
	into: string;
}

/** A state to change without touching the one given: records are replaced, never changed in place. */
export function copyState(state: SyncState): SyncState {
	return {
		...state,
		// Not a spread: of a thousand keys, it built as many hidden classes (7 ms, twice a sync).
		sessions: dict(state.sessions),
		projects: dict(Object.entries(state.projects).map(([k, v]) => [k, { ...v }] as const)),
		summaries: { ...state.summaries },
		checkpoints: dict(state.checkpoints),
		memory: dict(Object.entries(state.memory).map(([k, v]) => [k, dict(v)] as const)),
		proposed: dict(Object.entries(state.proposed).map(([k, v]): [string, string[]] => [k, [...v]])),
		pending: [...state.pending],
		usageOnly: dict(state.usageOnly),
	};
}

/** The folders of sessions and settings that identities are needed for (the adapter resolves them). */
export function foldersToIdentify(state: SyncState, sessions: readonly SessionWithAgents[], settings: Settings, also: readonly string[] = [], warmups: readonly Warmup[] = []): string[] {
	const folders = new Set<string>([...settings.projects.map((p) => p.path), ...also]);
	for (const s of sessions) if (s.model.cwd !== undefined && isRootedPath(s.model.cwd) && !state.sessions[s.file.path]?.projectKey) folders.add(s.model.cwd);
	for (const w of [...warmups, ...sessions.flatMap((s) => s.warmups ?? [])]) if (w.model.cwd !== undefined && isRootedPath(w.model.cwd) && !state.usageOnly[w.file.path]) folders.add(w.model.cwd);
	for (const r of Object.values(state.sessions)) if (!r.projectKey && r.projectPath !== undefined) folders.add(r.projectPath);
	return [...folders];
}

/** The identity of an enabled project, from its configured folder. */
export function settingsKey(project: Pick<ProjectSettings, "path">, identities: Identities): string {
	return projectKeyOf(project.path, identities.get(project.path), [], []);
}

/** The enabled, not excluded projects a sync writes CLAUDE.md and memory for: all, or the one it is for. */
export function enabledProjects(settings: Settings, identities: Identities, only: string | undefined): ProjectSettings[] {
	return settings.projects.filter((p) => p.enabled && !isExcludedProject(p, settings, identities) && (only === undefined || comparablePath(settingsKey(p, identities)) === comparablePath(only)));
}

/** A configured project the exclusions name, by its folder or its identity. */
export function isExcludedProject(project: Pick<ProjectSettings, "path">, settings: Settings, identities: Identities): boolean {
	return isExcluded(project.path, settings.excludedProjects) || isExcluded(settingsKey(project, identities), settings.excludedProjects);
}

/**
 * Records the sessions of this sync (new ones get a project, a folder and a note path, chosen
 * once) and works out which notes to render. A version 1 state is migrated before
 * (`migrateToIdentities`).
 * @param sessions the sessions read this time (and those waiting), with their sub-agents.
 * @param prepared digests made while reading, by transcript path.
 */
export function scopeSessions(input: {
	state: SyncState;
	sessions: readonly SessionWithAgents[];
	prepared: ReadonlyMap<string, PreparedSession>;
	settings: Settings;
	identities: Identities;
	/** Only this project (a folder inside it): its sessions; the others wait in `pending`. */
	project?: string;
	/** Sessions whose notes the user moved or deleted: they and their neighbours are rendered, links changed. */
	relinked?: ReadonlySet<string>;
	/** Transcripts read anew from their start this time (rewritten or truncated, not grown). */
	rewritten?: ReadonlySet<string>;
	/** Notes of no record, by the session id in their properties: a session never recorded takes its note (a sync killed before it stored its state wrote it). */
	orphans?: ReadonlyMap<string, string>;
	/**
	 * Paths (as `sameFileKey` gives them) of files in the notes folder that no record names: the user's, or of no
	 * session known. A new note, index or packet, or a note moved, never takes one: written into,
	 * the user's note would be taken for ours with its markers removed, and the session got no note.
	 */
	occupied?: ReadonlySet<string>;
	/**
	 * Folders right under the notes folder holding such files, by `sameFileKey`, as spelled: a new
	 * project's folder that is one of them but for case takes its spelling (`app` beside the user's
	 * `APP` made two folders that macOS and Windows hold as one; a synced copy of the vault split or clashed).
	 */
	folders?: ReadonlyMap<string, string>;
	/** Transcript folders, for the identity of sessions that recorded no `cwd`. */
	folderOf: (transcriptPath: string) => string;
	/** The state was migrated from version 1 just before, making these moves: every note is rendered again. */
	migration?: PlannedMove[];
	/** Warmups read this time whose session's transcript is not here (`TranscriptIndex.warmupsWithoutSession`). */
	warmups?: readonly Warmup[];
}): SessionScope {
	const { settings, identities } = input;
	const state = copyState(input.state);
	// Before any session takes a key: those of a repository replaced at its path keep theirs apart.
	setAsideReplaced(state, identities.values());
	const { keyOfCwd, repositories, configured } = identityRules(state, settings, identities, input.folderOf);
	const moves = [...(input.migration ?? [])];
	const migrated = input.migration !== undefined;
	const keyOf = new Map(input.sessions.map((s) => [s.file.path, state.sessions[s.file.path]?.projectKey ?? keyOfCwd(s.model.cwd, s.file.path)]));
	const excluded = (s: { file: TranscriptFile; model: SessionModel }) => {
		const key = keyOf.get(s.file.path)!;
		// Any folder it ran in, as the store judges it (`isSessionKeptOut`): a session resumed in an excluded project is kept out whole.
		return isExcluded(key, settings.excludedProjects) || [s.model.cwd, ...s.model.cwds].some((cwd) => cwd !== undefined && isExcluded(cwd, settings.excludedProjects));
	};
	const all = input.sessions.filter((s) => !excluded(s));
	const only = input.project === undefined ? undefined : projectKeyOf(input.project, identities.get(input.project), repositories(), configured);
	const inScope = (s: { file: TranscriptFile; model: SessionModel }) => only === undefined || comparablePath(keyOf.get(s.file.path)!) === comparablePath(only) || (s.model.cwd !== undefined && isWithin(s.model.cwd, input.project!));
	const sessions = all.filter(inScope);
	// One session whose digest throws (a fault hostile text found) is said and waits for the next sync; the others sync.
	const ready = new Map<string, PreparedSession>();
	const failed: string[] = [];
	const titleOf = summaryTitles(state);
	for (const session of sessions) {
		if (isEmptySession(session.model)) continue;
		const path = session.file.path;
		try {
			// Summaries read later in this run may title a session read earlier: digest again then.
			let prepared = input.prepared.get(path);
			const title = titleOf(session.model);
			if (!prepared || prepared.summaryTitle !== title) prepared = prepareSession(session.model, title, session.file.projectDir, agentModels(session));
			else if (session.subagents.length > 0 || session.warmups) prepared = withSubagents(prepared, session.model, agentModels(session));
			ready.set(path, prepared);
		} catch (error) {
			failed.push(`${path}: not summed up, so not synced (${error instanceof Error ? error.message : String(error)}); the next sync tries again`);
		}
	}
	const live = sessions.filter((s) => ready.has(s.file.path));
	// Warmups no session holds count on their own (usage only): those of no session here, and those of a session with nothing in it.
	const warmups = [...(input.warmups ?? []), ...sessions.flatMap((s) => (s.warmups && isEmptySession(s.model) ? s.warmups : []))];
	for (const w of warmups) keyOf.set(w.file.path, state.usageOnly[w.file.path]?.projectKey ?? keyOfCwd(w.model.cwd, w.file.path));
	const allWarmups = warmups.filter((w) => !excluded(w));
	const usageOnly = allWarmups.filter(inScope);
	state.pending = [...all.filter((s) => !sessions.includes(s)), ...allWarmups.filter((w) => !usageOnly.includes(w)), ...sessions.filter((s) => !isEmptySession(s.model) && !ready.has(s.file.path))].map((s) => s.file.path);
	// Read anew while waiting: the sync of its project, which reads it as unchanged, must still know.
	for (const path of state.pending) {
		const record = state.sessions[path];
		if (record && input.rewritten?.has(path)) state.sessions[path] = { ...record, rewritten: true };
	}

	// Enabled projects get theirs too: their packet and memory folder need one before any session.
	const enabled = settings.projects.filter((p) => p.enabled).map((p) => settingsKey(p, identities));
	const newKeys = [...live.map((s) => keyOf.get(s.file.path)!), ...usageOnly.map((w) => keyOf.get(w.file.path)!), ...enabled].filter((k) => !state.projects[k]);
	// The notes folder's Bases file is beside the project folders: a project named as it took its path, and the file could never be written.
	const beside = [...Object.values(state.projects).map((p) => p.folder), baseName(sessionsBasePath(settings.notesFolder))];
	for (const [key, folder] of chooseFolders(beside, newKeys, new Set(enabled))) state.projects[key] = { folder: input.folders?.get(sameFileKey(folder)) ?? folder };
	const relocation = followNoteSettings(state, settings.notesFolder, settings.tagPrefix);
	moves.push(...relocation.moves);
	// A root found to be a repository is recorded so: folders below it, once gone, still belong to it.
	for (const found of identities.values()) if (found?.repository && state.projects[found.root]) state.projects[found.root]!.repository = true;
	recordFingerprints(state, identities.values());

	const taken = new Set([...Object.values(state.sessions).map((r) => sameFileKey(r.notePath)), ...(input.occupied ?? [])]);
	// A new project's index and packet go beside a file already at their place, as a new note does.
	for (const key of new Set(newKeys)) {
		const project = state.projects[key]!;
		const index = indexPathOf(project, settings.notesFolder);
		const packet = packetPathOf(project, settings.notesFolder);
		if (taken.has(sameFileKey(index))) project.indexPath = uniquePath(taken, index.replace(/\.md$/, ""));
		if (taken.has(sameFileKey(packet))) project.packetPath = uniquePath(taken, packet.replace(/\.md$/, ""));
	}
	// Each project's index and packet are taken too: a project folder named `<day> <title>` gave
	// a session of that title the index's path, and the index was never written.
	const reserved = new Set(Object.values(state.projects).flatMap((p) => [indexPathOf(p, settings.notesFolder), packetPathOf(p, settings.notesFolder)].map(sameFileKey)));
	for (const path of reserved) taken.add(path);
	// A sub-agent read before its session's transcript was a session of its own (`TranscriptIndex.sessions`).
	// Linked now, it is in its session's note, as a fresh sync has it: its record goes (its note's path stays taken).
	const absorbed: Absorbed[] = [];
	for (const session of live) {
		for (const agent of session.subagents) {
			const record = state.sessions[agent.file.path];
			if (!record) continue;
			absorbed.push({ path: agent.file.path, record, into: session.file.path });
			delete state.sessions[agent.file.path];
		}
	}
	const newcomers = new Set<string>();
	const renamedHere = new Set<string>();
	// Note paths in start order (then transcript path), whatever order the files were read in:
	// of two sessions with one title the earlier gets the plain name, on every machine.
	const byStart = [...live].sort((a, b) => codeUnitOrder(ready.get(a.file.path)!.digest.startedAt ?? "", ready.get(b.file.path)!.digest.startedAt ?? "") || codeUnitOrder(a.file.path, b.file.path));
	const spec = redactionSpec(settings);
	const writtenBefore = markedWritten(state);
	for (const session of byStart) {
		const path = session.file.path;
		const existing = state.sessions[path];
		if (!existing) newcomers.add(path);
		const key = keyOf.get(path)!;
		const project = state.projects[key]!;
		const prepared = ready.get(path)!;
		const digest = prepared.digest;
		const orphan = existing ? undefined : input.orphans?.get(digest.sessionId);
		if (orphan !== undefined) taken.add(sameFileKey(orphan));
		let notePath = existing?.notePath ?? orphan ?? uniquePath(taken, `${notesPathOf(project, settings.notesFolder)}/${noteStem(digest.startedAt, digest.title)}`);
		// A note named while redaction was off (or before a pattern was added) keeps a secret in its
		// name, and the name reaches CLAUDE.md and every link to it: the note is renamed.
		// A note already on such a path (written before this was checked) moves off it too.
		// So does one whose transcript was rewritten without a word of its old title (`retitledNotePath`),
		// and one named after its title before names were made quotable (`unquotableNotePath`).
		const clean = existing
			? (redactedNotePath(existing.notePath, redactorFor(spec, session.model.cwd), taken) ?? offReserved(existing.notePath, reserved, taken) ?? unquotableNotePath(existing, taken) ?? (input.rewritten?.has(path) || existing.rewritten ? retitledNotePath(existing, digest, session.model, titleOf(session.model), taken) : undefined))
			: undefined;
		if (clean !== undefined) {
			moves.push({ from: notePath, to: clean });
			notePath = clean;
			renamedHere.add(path);
		}
		const record: SessionRecord = { ...existing, rewritten: undefined, projectKey: key, project: project.folder, projectPath: digest.projectPath, notePath, digest, tags: existing?.tags ?? [], keywords: prepared.terms.map((t) => t.term) };
		// Its note was written before its project was excluded: taken as written, so that its absence
		// is the user's deletion (and the note, found where it is, is written as any other).
		if (!existing && writtenBefore.usedUp(digest)) record.written = true;
		state.sessions[path] = record;
	}
	writtenBefore.done();

	// A session holding a warmup has its tokens in its usage now; one that holds none keeps them apart.
	for (const session of live) for (const w of session.warmups ?? []) delete state.usageOnly[w.file.path];
	for (const w of usageOnly) {
		const usage = usageDays(w.model);
		if (usage.length === 0) delete state.usageOnly[w.file.path];
		else state.usageOnly[w.file.path] = { projectKey: keyOf.get(w.file.path)!, project: state.projects[keyOf.get(w.file.path)!]!.folder, agent: w.model.agent ?? "claude-code", ...(w.model.cwd === undefined ? {} : { projectPath: w.model.cwd }), ...(w.model.startedAt === undefined ? {} : { startedAt: w.model.startedAt }), usage };
	}

	const render = new Set(live.map((s) => s.file.path));
	// After a migration every note is rendered again: links and neighbours changed.
	for (const [path, record] of Object.entries(state.sessions)) if (record.dirty || ((migrated || relocation.relocated.has(path)) && !isExcludedRecord(record, settings))) render.add(path);
	// A new (moved, deleted) session is the neighbour of two others: their previous/next links change.
	const order = projectOrder(state);
	for (const [path, record] of Object.entries(state.sessions)) {
		if (!newcomers.has(path) && !input.relinked?.has(path) && !renamedHere.has(path)) continue;
		render.add(path);
		const list = order.get(record.projectKey!) ?? [];
		const at = list.indexOf(path);
		for (const n of [list[at - 1], list[at + 1]]) if (n) render.add(n);
	}
	// The order the notes were written in: their links name their neighbours there, by title.
	// Made only when a session needs it (a sort of every session: each appended turn paid for it).
	let previousOrder: ProjectOrder | undefined;
	const before = () => (previousOrder ??= projectOrder(input.state));
	// A session retitled (`/rename`, a summary) or started at another time: the notes that link to
	// it, before and after, link to it under its new title or in its new place.
	for (const session of live) {
		const path = session.file.path;
		const was = input.state.sessions[path];
		const record = state.sessions[path];
		if (!was || !record || (was.digest.title === record.digest.title && was.digest.startedAt === record.digest.startedAt)) continue;
		for (const n of [...neighbours(before(), was.projectKey, path), ...neighbours(order, record.projectKey, path)]) if (state.sessions[n]) render.add(n);
	}
	// An absorbed sub-agent's neighbours linked to its note: they link past it now.
	for (const { path, record } of absorbed) for (const n of neighbours(before(), record.projectKey, path)) if (state.sessions[n]) render.add(n);
	const indexes = new Set<string>();
	for (const path of render) {
		const key = state.sessions[path]?.projectKey;
		if (key) indexes.add(key);
	}
	if (migrated) for (const key of Object.keys(state.projects)) indexes.add(key);
	// An index the last sync could not write: nothing else brings it back while the project is quiet.
	for (const [key, project] of Object.entries(state.projects)) {
		if (!project.indexStale || (only !== undefined && comparablePath(key) !== comparablePath(only))) continue;
		indexes.add(key);
		delete project.indexStale;
	}
	for (const key of relocation.retagged.keys()) indexes.add(key);
	// Its project's index listed it.
	for (const { record } of absorbed) if (record.projectKey) indexes.add(record.projectKey);
	// In start order: what depends on the order (which of two sessions proposes a fact both state) never depends on the order files were read in.
	return { state, live: byStart, ready, render: [...render].sort(), indexes: [...indexes].sort(), moves, ...(only === undefined ? {} : { only }), ...(absorbed.length === 0 ? {} : { absorbed }), ...(relocation.retagged.size === 0 ? {} : { retagged: relocation.retagged }), ...(failed.length === 0 ? {} : { failed }) };
}

/** The sessions before and after `path` in its project's order (none when it is not in it). */
function neighbours(order: ProjectOrder, key: string | undefined, path: string): string[] {
	const list = key === undefined ? [] : (order.get(key) ?? []);
	const at = list.indexOf(path);
	return at < 0 ? [] : [list[at - 1], list[at + 1]].filter((n): n is string => n !== undefined);
}

/**
 * Whether a session's note was written before its project was excluded (`SyncState.writtenBeforeExclusion`),
 * each mark used up as it is found and the state's list left with the others by `done` (a set, not
 * the list searched: ten thousand sessions of a project read again after its exclusion are as many looks).
 */
function markedWritten(state: SyncState): { usedUp: (digest: { agent: SessionRecord["digest"]["agent"]; sessionId: string }) => boolean; done: () => void } {
	if (state.writtenBeforeExclusion === undefined) return { usedUp: () => false, done: () => undefined };
	const marks = new Set(state.writtenBeforeExclusion);
	return {
		usedUp: (digest) => marks.delete(sessionMark(digest.agent, digest.sessionId)),
		done: () => {
			state.writtenBeforeExclusion = marks.size > 0 ? [...marks] : undefined;
		},
	};
}

/**
 * Transcripts of projects excluded since they were read: the state keeps their records (digests,
 * titles, usage) and the store their models. All of it goes, with their sub-agents' models and the
 * files' stamps, so nothing of an excluded project stays stored (lifting the exclusion reads them
 * again). Their notes stay in the vault: they are the user's.
 */
export function excludedTranscripts(state: SyncState, files: readonly TranscriptFile[], settings: Settings): string[] {
	if (settings.excludedProjects.length === 0) return [];
	const gone = new Set(Object.entries(state.sessions).filter(([, r]) => isExcludedRecord(r, settings)).map(([path]) => path));
	const warmups = Object.entries(state.usageOnly).filter(([, r]) => isExcludedRecord(r, settings)).map(([path]) => path);
	if (gone.size === 0) return warmups.sort(codeUnitOrder);
	const byPath = new Map(files.map((f) => [f.path, f]));
	const goneIn = new Map<string, Set<string>>();
	const keptIn = new Set<string>();
	for (const path of Object.keys(state.sessions)) {
		const file = byPath.get(path);
		if (!file) continue;
		if (!gone.has(path)) keptIn.add(file.projectDir);
		else goneIn.set(file.projectDir, (goneIn.get(file.projectDir) ?? new Set()).add(file.fileId));
	}
	for (const file of files) {
		const sessions = file.kind === "subagent" ? goneIn.get(file.projectDir) : undefined;
		if (!sessions) continue;
		// The 2.1 layout names the parent; an older sub-agent sits beside its sessions: it goes when all of them do.
		if (file.parentSessionId !== undefined ? sessions.has(file.parentSessionId) : !keptIn.has(file.projectDir)) gone.add(file.path);
	}
	for (const path of warmups) gone.add(path);
	return [...gone].sort(codeUnitOrder);
}

export function isExcludedRecord(record: Pick<SessionRecord, "projectKey" | "projectPath">, settings: Settings): boolean {
	return (record.projectKey !== undefined && isExcluded(record.projectKey, settings.excludedProjects)) || (record.projectPath !== undefined && isExcluded(record.projectPath, settings.excludedProjects));
}

/**
 * A version 1 state brought to identities in place (see `migrateState`); undefined when the state
 * is of this version already.
 */
export function migrateToIdentities(state: SyncState, settings: Settings, identities: Identities, folderOf: (transcriptPath: string) => string): PlannedMove[] | undefined {
	if (state.version === SYNC_STATE_VERSION) return undefined;
	const { keyOfCwd, configured } = identityRules(state, settings, identities, folderOf);
	return migrateState(state, settings.notesFolder, (path) => keyOfCwd(state.sessions[path]?.projectPath, path), (path) => projectKeyOf(path, identities.get(path), [], configured));
}

/** How a session's folder becomes its project's identity, given what was recorded and configured. */
function identityRules(state: SyncState, settings: Settings, identities: Identities, folderOf: (transcriptPath: string) => string) {
	const configured = settings.projects.map((p) => settingsKey(p, identities));
	const repositories = () => Object.entries(state.projects).flatMap(([key, p]) => (p.repository ? [key] : []));
	// Paths that compare equal are one identity, the one recorded first: a Windows folder recorded
	// as `C:\…` and as `c:\…` (Windows ignores case) made two projects.
	const byComparable = new Map(Object.keys(state.projects).map((key) => [comparablePath(key), key]));
	const recorded = (key: string) => {
		const comparable = comparablePath(key);
		const first = byComparable.get(comparable);
		if (first !== undefined) return first;
		byComparable.set(comparable, key);
		return key;
	};
	// A relative folder (`cwd: "."`) is looked up nowhere: resolved, it was wherever the sync ran. It is its own identity, as written.
	const keyOfCwd = (cwd: string | undefined, transcriptPath: string) => recorded(cwd === undefined ? folderOf(transcriptPath) : !isRootedPath(cwd) ? cwd : projectKeyOf(cwd, identities.get(cwd), repositories(), configured));
	return { keyOfCwd, repositories, configured };
}

/** A project's sessions in order (see `projectOrder`). */
export interface ProjectOrder {
	get(key: string): readonly string[] | undefined;
}

/**
 * Each project's sessions by start time (then transcript path), the user's deleted notes left out.
 * A project's are sorted when first asked for: a sync that renders one session's note sorts one
 * project, not every project's sessions.
 */
export function projectOrder(state: SyncState): ProjectOrder {
	const byProject = new Map<string, [string, SessionRecord][]>();
	for (const entry of Object.entries(state.sessions)) {
		if (entry[1].deleted || entry[1].projectKey === undefined) continue;
		const list = byProject.get(entry[1].projectKey);
		if (list) list.push(entry);
		else byProject.set(entry[1].projectKey, [entry]);
	}
	const order = new Map<string, string[]>();
	return {
		get(key) {
			const known = order.get(key);
			if (known) return known;
			const list = byProject.get(key);
			if (!list) return undefined;
			// Of two sessions started at once, by session id before path: a transcript moved to another
			// folder keeps its place, so no note keeps a link to a neighbour it no longer has.
			const sorted = list.sort(([pa, a], [pb, b]) => codeUnitOrder(a.digest.startedAt ?? "", b.digest.startedAt ?? "") || codeUnitOrder(a.digest.sessionId, b.digest.sessionId) || codeUnitOrder(pa, pb)).map(([p]) => p);
			order.set(key, sorted);
			return sorted;
		},
	};
}

/**
 * The `summary` title of a session (a later session's compaction names an earlier one), for many
 * sessions: the summaries' keys are read once (a first sync has hundreds of summaries and a
 * thousand sessions). Of two summaries a session holds, the later one in `state.summaries` titles
 * it; the text is read when asked for, so a summary redacted since is given redacted. Summaries
 * added to the state after the first session asked about are not seen: make it again.
 */
export function summaryTitles(state: SyncState): (model: SessionModel) => string | undefined {
	// Read at the first session asked about: a sync that reads none (nothing changed) reads no summary.
	let keys: string[] | undefined;
	let uuids: number[] = [];
	const rank = new Map<number, number>();
	return (model) => {
		if (keys === undefined) {
			keys = Object.keys(state.summaries);
			uuids = keys.map(Number);
			uuids.forEach((uuid, i) => rank.set(uuid, i));
		}
		const seen = model.index.seenUuids;
		let best = -1;
		// Whichever of the two is smaller is gone over.
		if (seen.size < uuids.length) {
			for (const uuid of seen) best = Math.max(best, rank.get(uuid) ?? -1);
		} else {
			for (let i = uuids.length - 1; i >= 0 && best < 0; i--) if (seen.has(uuids[i]!)) best = i;
		}
		return best < 0 ? undefined : state.summaries[keys[best]!];
	};
}

/** The note's path with its name redacted, when redaction changes the name (a new unique path); else undefined. */
function redactedNotePath(notePath: string, redact: (text: string) => string, taken: Set<string>): string | undefined {
	const slash = notePath.lastIndexOf("/");
	const name = notePath.slice(slash + 1).replace(/\.md$/, "");
	const clean = redact(name);
	return clean === name ? undefined : uniquePath(taken, `${notePath.slice(0, slash + 1)}${safeFileName(clean)}`);
}

/**
 * The path a note named after its title gets now that names are made quotable (`quotable`): one
 * named `… Review @src∕auth.ts …` before was named in CLAUDE.md by a path no file has. A note the
 * user renamed keeps its name; undefined: the note stays.
 */
function unquotableNotePath(record: SessionRecord, taken: Set<string>): string | undefined {
	const slash = record.notePath.lastIndexOf("/");
	const name = record.notePath.slice(slash + 1).replace(/\.md$/, "");
	const stem = quotable(name).replace(/ \(\d+\)$/, "");
	if (stem === name.replace(/ \(\d+\)$/, "") || !namedAfterTitle(stem, record.digest.startedAt, record.digest.title)) return undefined;
	return uniquePath(taken, `${record.notePath.slice(0, slash + 1)}${stem}`);
}

/** A new unique path for a note that sits on a project's index or packet path; else undefined. */
function offReserved(notePath: string, reserved: ReadonlySet<string>, taken: Set<string>): string | undefined {
	return reserved.has(sameFileKey(notePath)) ? uniquePath(taken, notePath.replace(/\.md$/i, "")) : undefined;
}

