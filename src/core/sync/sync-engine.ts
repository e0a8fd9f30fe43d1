import { upsertMarkedBlock } from "../context/marked-block";
import { DIGEST_VERSION } from "../digest/session-digest";
import { buildKeywordStats, topicTags } from "../digest/topic-tags";
import { renderSessionsBase } from "../notes/base-file";
import { safeFileName } from "../notes/note-name";
import { mergeNote, tagsInNote } from "../notes/note-regions";
import { projectIndexPath, renderProjectIndex } from "../notes/project-index-note";
import { type NoteLink, renderConversation, renderSessionNote } from "../notes/render-session-note";
import type { MemoryFolder, NoteStore, ProjectFiles } from "../ports";
import { isExcluded, type ProjectSettings, type Settings } from "../settings";
import { hash53 } from "../transcript/fold";
import type { SessionWithAgents } from "../transcript/link-subagents";
import type { SessionModel } from "../transcript/session-model";
import { isEmptySession } from "../transcript/session-queries";
import { prepareSession, promptText, withSubagents, type PreparedSession } from "./prepare-session";
import { projectContext, projectNameFor } from "./project-context";
import { hookContextOf, type HookContext } from "./hook-context";
import { memoryFolderOf, syncProjectMemory, type MemoryOutcome } from "./memory-sync";
import { proposeFromSessions } from "./propose-sync";
import type { SessionRecord, SyncState } from "./sync-state";
import type { RefreshResult, TranscriptIndex } from "./transcript-index";

export interface SyncOptions {
	/** Re-render every note, recreating deleted ones. */
	rebuild?: boolean;
	/** Called as notes are written: done of total. */
	onProgress?: (done: number, total: number) => void;
	/** Only this project (its path): its sessions' notes, its facts and its CLAUDE.md. */
	project?: string;
}

export interface SyncReport {
	transcriptsRead: number;
	notesWritten: string[];
	notesUnchanged: number;
	/** Notes the user deleted; they stay deleted. */
	notesSkipped: string[];
	contextWritten: string[];
	/** Fact files and memory indexes written, in the vault and in Claude Code's memory folders. */
	memoryWritten: string[];
	/** Problems that stopped one write; the rest of the sync went on. */
	errors: string[];
	/** What a person should look at, though nothing failed (a fact changed on both sides). */
	notices: string[];
}

export interface SyncDeps {
	index: TranscriptIndex;
	settings: Settings;
	/** Mutated in place; the caller stores it afterwards. */
	state: SyncState;
	notes: NoteStore;
	projects: ProjectFiles;
	/** The vault's folder on disk: paths written into CLAUDE.md are made absolute with it. */
	vaultPath?: string;
	/** Stores what the hooks of a project print (see `HookContext`). */
	hookContext?: (projectPath: string, context: HookContext) => Promise<void>;
	/** A project's Claude Code memory folder; undefined when Claude Code's memory is off for it. */
	claudeMemory?: (projectPath: string) => MemoryFolder | undefined;
}

/**
 * One sync: reads what changed in the transcripts, brings the notes of the sessions it touches
 * up to date (and the links of their neighbours, the project indexes), and writes the context
 * block into enabled projects' CLAUDE.md. Writes only files whose bytes change.
 */
export async function runSync(deps: SyncDeps, options: SyncOptions = {}): Promise<SyncReport> {
	const { index, settings, state } = deps;
	// Digests and prompt terms are worked out as each transcript arrives, while others are read.
	// So is the conversation of a session without sub-agents: it depends on nothing else.
	const prepared = new Map<string, PreparedSession>();
	const conversations = new Map<string, string>();
	const read = await index.refresh((entry) => {
		if (entry.file.kind !== "session") return;
		prepared.set(entry.file.path, entry.prepared ?? prepareSession(entry.model, summaryTitle(state, entry.model), entry.file.projectDir));
		if (settings.detail !== "digest" && !isEmptySession(entry.model) && !index.mayHaveSubagents(entry.file)) {
			conversations.set(entry.file.path, renderConversation({ file: entry.file, model: entry.model, subagents: [] }, settings.detail));
		}
	});
	const report: SyncReport = { transcriptsRead: read.updated.length, notesWritten: [], notesUnchanged: 0, notesSkipped: [], contextWritten: [], memoryWritten: [], errors: read.failed.map((f) => `${f.path}: ${f.reason}`), notices: [] };
	for (const entry of read.updated) for (const s of entry.model.summaries) if (s.leafUuid && s.text) state.summaries[String(hash53(s.leafUuid))] = s.text;

	// Sessions read by a sync of one project but of another project wait for the next sync.
	// Sessions whose stored digest an older release made are digested again from their models.
	const stale = Object.entries(state.sessions).filter(([, r]) => r.digest.version !== DIGEST_VERSION).map(([p]) => p);
	const paths = options.rebuild ? index.knownFiles().filter((f) => f.kind === "session").map((f) => f.path) : [...new Set([...touchedSessionPaths(read, index), ...state.pending, ...stale])];
	const all = (await index.sessions(paths)).filter((s) => s.model.cwd === undefined || !isExcluded(s.model.cwd, settings.excludedProjects));
	const sessions = options.project === undefined ? all : all.filter((s) => s.model.cwd === options.project);
	state.pending = all.filter((s) => !sessions.includes(s)).map((s) => s.file.path);
	const live = sessions.filter((s) => !isEmptySession(s.model));
	const newcomers = new Set<string>();
	const readyByPath = new Map<string, PreparedSession>();
	for (const session of live) {
		if (!state.sessions[session.file.path]) newcomers.add(session.file.path);
		// Summaries read later in this run may title a session read earlier: digest again then.
		let ready = prepared.get(session.file.path);
		const title = summaryTitle(state, session.model);
		if (!ready || ready.summaryTitle !== title) ready = prepareSession(session.model, title, session.file.projectDir, session.subagents.map((a) => a.model));
		else if (session.subagents.length > 0) ready = withSubagents(ready, session.model, session.subagents.map((a) => a.model));
		readyByPath.set(session.file.path, ready);
		recordSession(state, session, settings, ready);
	}

	// Facts the user stated in these sessions wait in their project's inbox, linked from the notes.
	report.memoryWritten.push(...(await proposeFromSessions(deps.notes, state, settings.memoryFolder, live.flatMap((s) => { const record = state.sessions[s.file.path]; return record ? [{ record, model: s.model }] : []; }))));

	// Neighbours of new sessions get a new previous/next link; notes a person was editing while the
	// last sync ran are done now.
	const render = new Set(live.map((s) => s.file.path));
	for (const [path, record] of Object.entries(state.sessions)) if (record.dirty) render.add(path);
	for (const path of newcomers) for (const n of neighbours(state, path)) if (n) render.add(n);
	const toRender = await index.sessions([...render]);
	const stats = buildKeywordStats(Object.values(state.sessions).map((r) => r.keywords));
	const byPath = new Map(toRender.map((s) => [s.file.path, s]));
	const total = toRender.length;
	let done = 0;
	const queue = [...render].sort();
	// A few notes in flight: rendering one overlaps writing the next.
	const worker = async () => {
		for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
			const session = byPath.get(path);
			const record = state.sessions[path];
			if (!session || !record) continue;
			const ready = readyByPath.get(path);
			const known = { occurrences: ready?.terms, signals: ready?.project === record.project ? ready.signals : undefined };
			record.tags = topicTags({ ...tagInput(session, record), ...known }, stats, { prefix: settings.tagPrefix, rules: settings.keywordRules, max: 5 });
			const early = session.subagents.length === 0 ? conversations.get(path) : undefined;
			await writeSessionNote(deps, session, record, path, report, options.rebuild === true, early);
			options.onProgress?.(++done, total);
		}
	};
	await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));

	const projects = new Set([...render].map((p) => state.sessions[p]?.project).filter((p): p is string => p !== undefined));
	for (const project of [...projects].sort()) await writeProjectIndex(deps, project, report);
	if (projects.size > 0) await writeIfMissing(deps.notes, `${settings.notesFolder}/${settings.notesFolder}.base`, renderSessionsBase(settings.notesFolder), report);

	// Checked every time, not only when a session changed: the user may have edited CLAUDE.md or a fact.
	for (const project of settings.projects) {
		if (!project.enabled || isExcluded(project.path, settings.excludedProjects) || (options.project !== undefined && project.path !== options.project)) continue;
		const folder = memoryFolderOf(settings.memoryFolder, projectNameFor(state, project.path));
		const memory = await syncProjectMemory(deps.notes, state, folder, project.path, project.memorySharing ? deps.claudeMemory?.(project.path) : undefined);
		report.memoryWritten.push(...memory.written);
		report.errors.push(...memory.errors);
		report.notices.push(...memory.notices);
		await writeContext(deps, project, memory, report);
	}
	report.notesWritten.sort();
	report.notesSkipped.sort();
	report.memoryWritten.sort();
	return report;
}

const WRITE_CONCURRENCY = 8;

/** Session files read this time, and the parents of sub-agent files read this time. */
function touchedSessionPaths(read: RefreshResult, index: TranscriptIndex): string[] {
	const paths = new Set<string>();
	const sessions = index.knownFiles().filter((f) => f.kind === "session");
	for (const entry of read.updated) {
		if (entry.file.kind === "session") paths.add(entry.file.path);
		else {
			const parentId = entry.file.parentSessionId ?? entry.model.sessionIds[0];
			const parent = sessions.find((s) => s.projectDir === entry.file.projectDir && s.fileId === parentId);
			if (parent) paths.add(parent.path);
		}
	}
	return [...paths];
}

function recordSession(state: SyncState, session: SessionWithAgents, settings: Settings, ready: PreparedSession): void {
	const digest = ready.digest;
	const keywords = ready.terms.map((t) => t.term);
	const existing = state.sessions[session.file.path];
	const project = existing?.project ?? ready.project;
	const notePath = existing?.notePath ?? uniqueNotePath(state, `${settings.notesFolder}/${project}/${(digest.startedAt ?? "").slice(0, 10) || "undated"} ${safeFileName(digest.title)}`);
	forgetOrder(state);
	state.sessions[session.file.path] = {
		...existing,
		project,
		projectPath: digest.projectPath,
		notePath,
		digest,
		tags: existing?.tags ?? [],
		keywords,
	};
}

function summaryTitle(state: SyncState, model: SessionModel): string | undefined {
	let title: string | undefined;
	for (const [key, text] of Object.entries(state.summaries)) if (model.index.seenUuids.has(Number(key))) title = text;
	return title;
}

/** Note paths in use, lower-cased (file systems that ignore case must not merge two notes). */
const takenPaths = new WeakMap<SyncState, Set<string>>();

function uniqueNotePath(state: SyncState, stem: string): string {
	let taken = takenPaths.get(state);
	if (!taken) {
		taken = new Set(Object.values(state.sessions).map((r) => r.notePath.toLowerCase()));
		takenPaths.set(state, taken);
	}
	for (let n = 1; ; n++) {
		const path = n === 1 ? `${stem}.md` : `${stem} (${n}).md`;
		if (!taken.has(path.toLowerCase())) {
			taken.add(path.toLowerCase());
			return path;
		}
	}
}

/** The sessions before and after this one in its project, by start time. */
function neighbours(state: SyncState, path: string): [string | undefined, string | undefined] {
	const record = state.sessions[path];
	if (!record) return [undefined, undefined];
	const ordered = projectSessions(state, record.project).map(([p]) => p);
	const at = ordered.indexOf(path);
	return [ordered[at - 1], ordered[at + 1]];
}

/** A project's sessions by start time; cached per state object until a record changes. */
const ordered = new WeakMap<SyncState, Map<string, [string, SessionRecord][]>>();

function projectSessions(state: SyncState, project: string): [string, SessionRecord][] {
	let byProject = ordered.get(state);
	if (!byProject) {
		byProject = new Map();
		for (const entry of Object.entries(state.sessions)) {
			if (entry[1].deleted) continue;
			const list = byProject.get(entry[1].project) ?? [];
			list.push(entry);
			byProject.set(entry[1].project, list);
		}
		for (const list of byProject.values()) list.sort(([pa, a], [pb, b]) => (a.digest.startedAt ?? "").localeCompare(b.digest.startedAt ?? "") || pa.localeCompare(pb));
		ordered.set(state, byProject);
	}
	return byProject.get(project) ?? [];
}

function forgetOrder(state: SyncState): void {
	ordered.delete(state);
}

function tagInput(session: SessionWithAgents, record: SessionRecord) {
	const d = record.digest;
	return { project: record.project, files: [...d.filesTouched, ...d.filesRead], tools: d.tools, prompts: promptText(session.model), commands: d.commands, projectPath: d.projectPath, branches: session.model.branches };
}


async function writeSessionNote(deps: SyncDeps, session: SessionWithAgents, record: SessionRecord, path: string, report: SyncReport, rebuild: boolean, conversation?: string): Promise<void> {
	const { settings, state, notes } = deps;
	const existing = await notes.read(record.notePath);
	if (existing === null && record.written && !rebuild) {
		record.deleted = true;
		forgetOrder(state);
		report.notesSkipped.push(record.notePath);
		return;
	}
	record.deleted = undefined;
	const [before, after] = neighbours(state, path);
	const link = (p: string | undefined): NoteLink | undefined => {
		const r = p ? state.sessions[p] : undefined;
		return r ? { path: r.notePath, title: r.digest.title } : undefined;
	};
	// Tags a person added to the note, outside our prefix, stay.
	const ownTags = tagsInNote(existing).filter((t) => !t.startsWith(settings.tagPrefix) && !record.tags.includes(t));
	const rendered = renderSessionNote({
		session,
		digest: record.digest,
		project: record.project,
		tags: [...record.tags, ...new Set(ownTags)],
		detail: settings.detail,
		index: { path: projectIndexPath(settings.notesFolder, record.project), title: record.project },
		previous: link(before),
		next: link(after),
		conversation,
		notePath: record.notePath,
		facts: record.facts,
	});
	const done = await writeMerged(notes, record.notePath, existing, rendered, report);
	record.dirty = done ? undefined : true;
	if (done) record.written = true;
}

async function writeProjectIndex(deps: SyncDeps, project: string, report: SyncReport): Promise<void> {
	const records = projectSessions(deps.state, project).map(([, r]) => r);
	const path = projectIndexPath(deps.settings.notesFolder, project);
	const rendered = renderProjectIndex(project, records[0]?.projectPath, records, deps.settings.tagPrefix);
	await writeMerged(deps.notes, path, await deps.notes.read(path), rendered, report);
}

/** Writes the merged note; false when it changed under us and must be done again next time. */
async function writeMerged(notes: NoteStore, path: string, existing: string | null, rendered: { frontmatter: string; body: string }, report: SyncReport): Promise<boolean> {
	const merged = mergeNote(existing, rendered.frontmatter, rendered.body);
	if (!merged.ok) {
		report.errors.push(`${path}: ${merged.reason}`);
		return true;
	}
	if (merged.text === existing) {
		report.notesUnchanged++;
		return true;
	}
	if (!(await notes.write(path, merged.text, existing))) {
		report.errors.push(`${path}: it changed while the sync ran; it is left as it is and updated next time`);
		return false;
	}
	report.notesWritten.push(path);
	return true;
}

async function writeIfMissing(notes: NoteStore, path: string, text: string, report: SyncReport): Promise<void> {
	if ((await notes.read(path)) !== null) return;
	if (await notes.write(path, text, null)) report.notesWritten.push(path);
}

/** A CLAUDE.md that keeps changing under us is left alone after this many tries. */
const CONTEXT_ATTEMPTS = 3;

async function writeContext(deps: SyncDeps, project: ProjectSettings, memory: MemoryOutcome, report: SyncReport): Promise<void> {
	const context = projectContext(deps.state, project, deps.settings, memory.facts, deps.vaultPath);
	// What the hooks print, ready for them: they only read a file.
	await deps.hookContext?.(project.path, hookContextOf(project, context, memory));
	// The packet first: the facade points at it.
	if (project.mode === "lazy") await writeMerged(deps.notes, context.packet.path, await deps.notes.read(context.packet.path), context.packet.note, report);
	const where = `${project.target} in ${project.path}`;
	try {
		for (let attempt = 1; attempt <= CONTEXT_ATTEMPTS; attempt++) {
			const before = await deps.projects.read(project.path, project.target);
			const result = upsertMarkedBlock(before ?? "", context.block);
			if (!result.ok) {
				report.errors.push(`${where} has ${result.reason}; nothing was written`);
				return;
			}
			if (!result.changed) return;
			// Written only if nobody changed the file since we read it; else read it again.
			if (await deps.projects.write(project.path, project.target, result.text, before)) {
				report.contextWritten.push(`${project.path}/${project.target}`);
				return;
			}
		}
		report.errors.push(`${where} kept changing while the sync ran; it is left as it is and updated next time`);
	} catch (error) {
		report.errors.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
	}
}
