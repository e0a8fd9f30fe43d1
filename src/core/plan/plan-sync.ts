import { notesFolderOfBlock } from "../context/context-block";
import { isRootedPath } from "../projects/project-identity";
import { BEGIN_MARKER, END_MARKER, linesOutsideBlock, markedBlockBody, removeMarkedBlock, upsertMarkedBlock } from "../text/marked-block";
import { outsideCodeSpans } from "../text/code-spans";
import { buildKeywordStats, tagBasis, topicTags, type KeywordStats, type TagBasis } from "../digest/topic-tags";
import { renderSessionsBase, sessionsBasePath } from "../notes/base-file";
import { generatedProperty, holdsOnlyGenerated, mergeNote, ownAliasesInNote, tagsInNote } from "../notes/note-regions";
import { renderProjectIndex } from "../notes/project-index-note";
import { type NoteLink, renderSessionNote } from "../notes/render-session-note";
import { contextFilesOf, otherContextFiles, type ProjectSettings, type Settings } from "../settings";
import { onlyRead, prepareSession, promptText, type PreparedSession } from "../ingest/prepare-session";
import type { ConversationText } from "../notes/conversation-text";
import { invalidRedactionPatterns, redactionKey, redactionSpec, redactorFor } from "../ingest/redaction-policy";
import type { SessionDigest } from "../digest/session-digest";
import { sessionMark, type SessionRecord, type SyncState } from "../sync/sync-state";
import { agentModels, type SessionWithAgents } from "../transcript/link-subagents";
import { hookContextOf } from "./hook-context";
import { projectsThatLeftFacts, recordedFingerprint } from "../projects/replaced-repository";
import { indexPathOf, memoryPathOf } from "./project-paths";
import { planProjectMemory, type MemoryTexts, type SharedFolder } from "./plan-memory";
import { planProposals, type FolderTexts } from "./plan-proposals";
import { reredactInbox, type RedactableFolder } from "./redacted-names";
import { enabledProjects, excludedTranscripts, isExcludedProject, projectOrder, settingsKey, summaryTitles, type Identities, type SessionScope } from "./plan-scope";
import type { TranscriptFile } from "../transcript/transcript-files";
import { projectContext, recordsByProject } from "./project-context";
import type { ConflictUndo, PlannedWrite, SyncPlan } from "./sync-plan";
import { wellFormed } from "../text/well-formed";

/** The texts a plan is made against, read just before. */
export interface ExistingTexts {
	/** Vault notes by path; null: no such note. */
	notes: ReadonlyMap<string, string | null>;
	/** Each project's memory folder (its `.md` files by name) and inbox, by identity. */
	memory: ReadonlyMap<string, { facts: ReadonlyMap<string, string>; inbox: ReadonlyMap<string, string>; absent?: boolean }>;
	/** Enabled projects' Claude Code memory folders (where, and their `.md` files), by project path. */
	claudeMemory: ReadonlyMap<string, SharedFolder>;
	/** The files enabled projects' blocks go into (CLAUDE.md, AGENTS.md…), by `projectFileKey`; null: no such file. */
	projectFiles: ReadonlyMap<string, string | null>;
	/** Those that could not be read, and why, by `projectFileKey`. */
	unreadable: ReadonlyMap<string, string>;
	/** A file that is a link to another of the project's (`CLAUDE.md → AGENTS.md`), by `projectFileKey`: that one's name. */
	sameAs?: ReadonlyMap<string, string>;
	/** Notes that could not be read (a link out of the vault, a FIFO, no permission), and why: never written. */
	unreadableNotes?: ReadonlyMap<string, string>;
	/** Files whose block another vault wrote, by `projectFileKey`: that vault's notes folder, there on this machine still. */
	otherVault?: ReadonlyMap<string, string>;
	/** Memory folders in the vault that could not be read whole, and why, by identity: neither merged nor shared. */
	unreadableMemory?: ReadonlyMap<string, string>;
	/** Files the block goes into that are read-only, by `projectFileKey`: written to no more than said so. */
	readOnly?: ReadonlySet<string>;
}

export interface PlanInput {
	scope: SessionScope;
	/** When the sync runs (ms since 1970): no session starts later than a day after it. */
	now?: number;
	/** The sessions to render (`scope.render`), with their sub-agents. */
	sessions: readonly SessionWithAgents[];
	existing: ExistingTexts;
	settings: Settings;
	identities: Identities;
	/** Full rebuild: notes the user deleted are written again. */
	rebuild?: boolean;
	/** Conversations rendered while the transcripts were read, by transcript path. */
	conversations?: ReadonlyMap<string, ConversationText>;
	/** Tag bases worked out while the transcripts were read (`sessionTagBasis`), by transcript path. */
	tagBases?: ReadonlyMap<string, SessionTagBasis>;
	/** The vault's folder on disk: paths written into CLAUDE.md are made absolute with it. */
	vaultPath?: string;
	/** Every transcript file known (read or not): those of excluded projects are forgotten. */
	known?: readonly TranscriptFile[];
}

/**
 * Every write of one sync, worked out without writing: the session notes (with their previous and
 * next links), the project indexes, the Bases file, proposed facts, each enabled project's shared
 * memory, context packet, CLAUDE.md block and hook context, and the state after it all. Pure: the
 * same input gives the same plan. Session notes are rendered when written (`render`), so a sync of
 * a thousand sessions holds one note at a time.
 */
export function planSync(input: PlanInput): SyncPlan {
	const { scope, settings, existing } = input;
	const state = scope.state;
	const plan: SyncPlan = { moves: scope.moves, writes: [], hookContexts: [], state, unchanged: 0, skipped: [], errors: [], notices: [] };
	const forget = excludedTranscripts(state, input.known ?? [], settings);
	// No session starts after its transcript was last written, nor after now: one dated later (a
	// history file that says 2099) would stay on top of every block for good. A file's time alone
	// is not enough (an archive unpacked with times of the future); now alone neither (tests, and
	// a clock set wrong). A day of leeway for time zones.
	// A loop, not `Math.max(...)`: a history of 100,000+ files overflows the call's arguments.
	let newestWrite = Number.NEGATIVE_INFINITY;
	for (const file of input.known ?? []) if (file.mtimeMs > newestWrite) newestWrite = file.mtimeMs;
	const latest = Math.min(Number.isFinite(newestWrite) ? newestWrite : Number.POSITIVE_INFINITY, input.now ?? Number.POSITIVE_INFINITY);
	const notAfter = Number.isFinite(latest) ? new Date(latest + 86_400_000).toISOString() : undefined;
	const writtenMarks = new Set(state.writtenBeforeExclusion);
	for (const path of forget) {
		const record = state.sessions[path];
		// Its checkpoint too (the last prompt and reply a pre-compact hook kept for the facade).
		const sessionId = record?.digest.sessionId;
		if (sessionId !== undefined) delete state.checkpoints[sessionId];
		// A note the user deleted stays deleted once the exclusion is lifted (see `writtenBeforeExclusion`).
		if (record?.written === true) writtenMarks.add(sessionMark(record.digest.agent, record.digest.sessionId));
		delete state.sessions[path];
		delete state.usageOnly[path];
	}
	if (forget.length > 0) plan.forget = forget;
	if (writtenMarks.size > 0) state.writtenBeforeExclusion = [...writtenMarks];
	// Checkpoints were redacted by a hook with the settings of then: again with today's, in the state too.
	if (Object.keys(state.checkpoints).length > 0) {
		const projectOf = new Map(Object.values(state.sessions).map((r) => [r.digest.sessionId, r.projectPath]));
		const spec = redactionSpec(settings);
		for (const [id, checkpoint] of Object.entries(state.checkpoints)) {
			const text = redactorFor(spec, projectOf.get(id))(checkpoint.text);
			if (text !== checkpoint.text) state.checkpoints[id] = { ...checkpoint, text };
		}
	}
	// So are the `summary` lines kept to title other sessions (stored as read, under the settings of
	// their read: one read while redaction was off stayed whole after it was turned on again). Whose
	// project they title is not known here: the settings-wide redaction.
	const redactSummary = redactorFor(redactionSpec(settings), undefined);
	for (const [key, summary] of Object.entries(state.summaries)) {
		const text = redactSummary(summary);
		if (text !== summary) state.summaries[key] = text;
	}
	for (const pattern of invalidRedactionPatterns(settings)) plan.errors.push(`The redaction pattern ${JSON.stringify(pattern)} is not valid RE2 (no lookaround, no backreferences) and is not applied: fix it in the settings`);
	// A note that could not be read is not written either: what it holds is unknown.
	for (const [path, reason] of existing.unreadableNotes ?? []) plan.errors.push(`${path}: ${reason}`);
	const readable = (path: string) => !existing.unreadableNotes?.has(path);
	const text = (path: string): string | null => existing.notes.get(path) ?? null;
	const movedTo = new Map(scope.moves.map((m) => [m.to, m.from]));
	// A note that a migration moves holds, at its new place, what it held at the old one.
	const before = (path: string): string | null => (movedTo.has(path) ? text(movedTo.get(path)!) : text(path));

	// Proposals written under a weaker redaction (their renames were made before the plan).
	plan.writes.push(...reredactInbox(redactableFolders(state, settings, input.identities, existing)));
	// Facts the user stated in these sessions wait in their project's inbox, linked from the notes.
	const folders = new Map<string, FolderTexts>();
	for (const [key, texts] of existing.memory) folders.set(key, { folder: memoryPath(state, settings, key), facts: texts.facts, inbox: texts.inbox });
	plan.writes.push(...planProposals(state, scope.live.flatMap((s) => { const record = state.sessions[s.file.path]; const quotes = scope.ready.get(s.file.path)?.factQuotes; return record ? [{ path: s.file.path, record, model: s.model, ...(quotes ? { quotes } : {}) }] : []; }), folders));

	const written = new Map<string, boolean | undefined>();
	const sessionIds = new Set(Object.values(state.sessions).map((r) => r.digest.sessionId));
	/** Sessions whose note's name another session's note has now: not written this time. */
	const heldByOther = new Set<string>();
	// Every session's keywords weigh each tag, counted when a note is first tagged (a sync with no note to render counted a thousand sessions' for nothing).
	let stats: KeywordStats | undefined;
	const keywordStats = () => (stats ??= buildKeywordStats(Object.values(state.sessions).map((r) => r.keywords)));
	const byPath = new Map(input.sessions.map((s) => [s.file.path, s]));
	// The whole digest of each session to render: made this run, or made again from its model (a
	// neighbour whose links change): the state keeps a short one. Its title stays the recorded one.
	const whole = new Map<string, PreparedSession>();
	// A session whose digest or tags fail (a fault hostile text found) is said, its note left as it is and written by a later sync; the others go on.
	const notSummedUp = (path: string, error: unknown) => {
		plan.errors.push(`${path}: not summed up, so its note is not written (${error instanceof Error ? error.message : String(error)}); the next sync tries again`);
		const record = state.sessions[path];
		if (record) state.sessions[path] = { ...record, dirty: true };
		whole.delete(path);
	};
	const titleOf = summaryTitles(state);
	for (const path of scope.render) {
		const session = byPath.get(path);
		const record = state.sessions[path];
		if (!session || !record) continue;
		let made = scope.ready.get(path);
		try {
			made ??= prepareSession(session.model, titleOf(session.model), session.file.projectDir, agentModels(session));
		} catch (error) {
			notSummedUp(path, error);
			continue;
		}
		whole.set(path, made.digest.title === record.digest.title ? made : { ...made, digest: { ...made.digest, title: record.digest.title } });
	}
	for (const path of scope.render) {
		const session = byPath.get(path);
		const record = state.sessions[path];
		const ready = whole.get(path);
		if (!session || !record || !ready) continue;
		const known = { occurrences: ready.terms, signals: ready.project === record.project ? ready.signals : undefined };
		// Made ahead for this very digest and project name, or made now.
		const ahead = input.tagBases?.get(path);
		const basis = ahead && sameTagInput(ahead.digest, ready.digest) && ahead.project === record.project ? ahead.basis : undefined;
		let tags: string[];
		try {
			tags = topicTags({ ...tagInput(session, record, ready.digest), ...known }, keywordStats(), tagOptions(settings), basis);
		} catch (error) {
			notSummedUp(path, error);
			continue;
		}
		const current = before(record.notePath);
		// Not read (a folder or a FIFO where the note is): written by the next sync that can read it, however long the session has ended.
		if (!readable(record.notePath)) {
			state.sessions[path] = { ...record, dirty: true };
			continue;
		}
		// Another session's note under this one's name (two notes' names swapped while Obsidian was closed): not
		// written over (this session's turns went into the other's note, its user text with them); said, and
		// written once the note has a name of its own again.
		const holder = generatedProperty(current, "session_id");
		if (holder !== undefined && holder !== record.digest.sessionId && sessionIds.has(holder)) {
			plan.errors.push(`${record.notePath}: it is the note of another session (${holder}) now, renamed to this one's name; it is left as it is, and this session's note is written once each has a name of its own`);
			state.sessions[path] = { ...record, dirty: true };
			heldByOther.add(path);
			continue;
		}
		if (current === null && record.written && !input.rebuild) {
			state.sessions[path] = { ...record, tags, deleted: true };
			plan.skipped.push(record.notePath);
			continue;
		}
		state.sessions[path] = { ...record, tags, deleted: undefined, dirty: undefined, written: true };
		written.set(path, record.written);
	}

	// Links and order come from the next state itself.
	const order = projectOrder(state);
	const link = (p: string | undefined): NoteLink | undefined => {
		const r = p ? state.sessions[p] : undefined;
		return r ? { path: r.notePath, title: r.digest.title } : undefined;
	};
	for (const path of scope.render) {
		const session = byPath.get(path);
		const record = state.sessions[path];
		const digest = whole.get(path)?.digest;
		if (!session || !record || !digest || record.deleted || heldByOther.has(path)) continue;
		const list = order.get(record.projectKey!) ?? [];
		const at = list.indexOf(path);
		const current = before(record.notePath);
		// Tags a person added to the note, outside our prefix, stay.
		const oldPrefix = scope.retagged?.get(record.projectKey!);
		const ownTags = tagsInNote(current).filter((t) => !t.startsWith(settings.tagPrefix) && !record.tags.includes(t) && !(oldPrefix !== undefined && t.startsWith(oldPrefix)));
		// And aliases (after the title, ours).
		const ownAliases = ownAliasesInNote(current);
		const conversation = session.subagents.length === 0 ? input.conversations?.get(path) : undefined;
		plan.writes.push({
			kind: "session-note",
			path: record.notePath,
			expected: current,
			onConflict: { kind: "note-dirty", session: path, written: written.get(path), created: current === null || undefined },
			render: () =>
				renderSessionNote({
					session,
					digest,
					project: record.project,
					tags: [...record.tags, ...new Set(ownTags)],
					aliases: [...new Set(ownAliases)],
					detail: settings.detail,
					index: { path: indexPath(state, settings, record.projectKey!), title: record.project },
					previous: link(list[at - 1]),
					next: link(list[at + 1]),
					// Bytes stay bytes (see `ConversationText`).
					conversation,
					notePath: record.notePath,
					facts: record.facts,
				}),
		});
	}

	// The note a sub-agent had before its session arrived: it goes to the trash (as a note deleted in
	// the vault) when nothing in it is the user's; else it stays theirs. Either way the sync leaves it.
	for (const { record, into } of scope.absorbed ?? []) {
		const current = text(record.notePath);
		if (!record.written || record.deleted || current === null || !readable(record.notePath)) continue;
		const now = state.sessions[into]?.notePath;
		const where = `${record.notePath}: a sub-agent's note, written before its session's transcript came; the sub-agent is in ${now === undefined ? "its session's note" : now} now`;
		if (holdsOnlyGenerated(current, (t) => t.startsWith(settings.tagPrefix) || record.tags.includes(t))) {
			plan.writes.push({ kind: "note", path: record.notePath, text: null, expected: current, what: "note" });
			plan.notices.push(`${where}, so this note went to the trash`);
		} else plan.notices.push(`${where}; this note holds text of yours, so it stays, no longer updated`);
	}

	for (const key of scope.indexes) {
		const project = state.projects[key];
		if (!project) continue;
		const records = (order.get(key) ?? []).map((p) => state.sessions[p]!);
		const path = indexPath(state, settings, key);
		const oldPrefix = scope.retagged?.get(key);
		const ownTags = [...new Set(tagsInNote(text(path)).filter((t) => !t.startsWith(settings.tagPrefix) && !(oldPrefix !== undefined && t.startsWith(oldPrefix))))];
		mergeInto(plan, path, text(path), renderProjectIndex(project.folder, records[0]?.projectPath, records, settings.tagPrefix, ownTags), "note", { kind: "index-stale", project: key });
	}
	const base = sessionsBasePath(settings.notesFolder);
	// Written once, then the person's: one they renamed, moved or deleted came back at the next sync (a second one beside theirs).
	if ((input.rebuild || !(state.bases ?? []).includes(base)) && (text(base) !== null || scope.indexes.length > 0)) {
		if (text(base) === null) plan.writes.push({ kind: "note", path: base, text: renderSessionsBase(settings.notesFolder, settings.tagPrefix), expected: null, what: "note", onConflict: { kind: "base-unwritten", path: base } });
		state.bases = [...new Set([...(state.bases ?? []), base])];
	}

	// An enabled project excluded since: its hooks print nothing of it any more.
	for (const project of settings.projects) if (project.enabled && !scope.only && isExcludedProject(project, settings, input.identities)) plan.hookContexts.push({ projectPath: project.path, context: null });
	// Checked every time, not only when a session changed: the user may have edited CLAUDE.md or a fact.
	const byProject = recordsByProject(state);
	const redaction = redactionSpec(settings);
	const leavers = projectsThatLeftFacts(state);
	for (const project of enabledProjects(settings, input.identities, scope.only)) {
		const key = settingsKey(project, input.identities);
		const folder = memoryPath(state, settings, key);
		const read = existing.memory.get(key);
		const unreadableMemory = existing.unreadableMemory?.get(key);
		if (unreadableMemory !== undefined) plan.errors.push(unreadableMemory);
		// Unread, it is no side of a merge (read as empty, its facts would be deleted in Claude Code's folder).
		const texts: MemoryTexts = { folder, vault: read?.facts ?? new Map(), ...(read?.absent ? { vaultAbsent: true } : {}), ...(unreadableMemory === undefined && project.memorySharing && existing.claudeMemory.has(project.path) ? { claude: existing.claudeMemory.get(project.path) } : {}) };
		const memory = planProjectMemory(texts, state, key, project.path, redactorFor(redaction, project.path), redactionKey(redaction, project.path), leavers);
		plan.writes.push(...memory.writes);
		plan.errors.push(...memory.errors);
		plan.notices.push(...memory.notices);

		const context = projectContext(state, key, project, settings, memory.facts, byProject.get(key) ?? [], input.vaultPath, notAfter);
		// No session of it yet: nothing to tell, so no empty block (a block written before stays as it is).
		if (context.sessions === 0) {
			plan.hookContexts.push({ projectPath: project.path, context: hookContextOf(project, context, memory, false, recordedFingerprint(state.projects[key])) });
			continue;
		}
		// Whether every file that gets the block will hold it: then the session start has it from there, and the hook prints nothing more.
		let blockInFiles = true;
		// The packet first: the facade points at it.
		// Made again at every sync, as the block is: found current, it is no note "unchanged" (a lazy
		// project's sync with nothing to do said "0 notes written, 1 unchanged" each time).
		if (project.mode === "lazy") mergeInto(plan, context.packet.path, text(context.packet.path), context.packet.note, "note", undefined, false);
		const files = blockFiles(project, existing);
		for (const name of files) {
			const fileKey = projectFileKey(project.path, name);
			const unreadable = existing.unreadable.get(fileKey);
			if (unreadable !== undefined) {
				plan.errors.push(`${name} in ${project.path}: ${unreadable}`);
				blockInFiles = false;
				continue;
			}
			const current = existing.projectFiles.get(fileKey) ?? null;
			// Two vaults enabling one project replaced each other's block at every sync: the first one's stays while its notes are there.
			const owner = existing.otherVault?.get(fileKey);
			if (owner !== undefined) {
				plan.errors.push(`${name} in ${project.path} holds the block another vault writes (its notes in ${owner}); this vault leaves it, or each would replace the other's at every sync: enable the project in one vault only (remove that block to let this one write it)`);
				blockInFiles = false;
				continue;
			}
			const result = upsertMarkedBlock(current ?? "", context.block);
			if (!result.ok) plan.errors.push(`${name} in ${project.path} has ${result.reason}; nothing was written`);
			else if (result.changed) plan.writes.push({ kind: "context-block", projectPath: project.path, target: name, block: context.block, expected: current });
			blockInFiles &&= result.ok;
		}
		// A file that now imports another of them had a block of its own before: it goes (the import
		// brings the block), after the writes that put the block in the others (see `applyPlan`).
		for (const name of contextFilesOf(project).filter((n) => !files.includes(n) && !existing.sameAs?.has(projectFileKey(project.path, n)))) {
			const current = existing.projectFiles.get(projectFileKey(project.path, name)) ?? null;
			const removed = current === null ? undefined : removeMarkedBlock(current);
			if (removed?.ok && removed.changed) plan.writes.push({ kind: "context-block", projectPath: project.path, target: name, block: "", expected: current, remove: true });
		}
		plan.hookContexts.push({ projectPath: project.path, context: hookContextOf(project, context, memory, blockInFiles && files.length > 0, recordedFingerprint(state.projects[key])) });
		// A block left in a file the block no longer goes to (the target was CLAUDE.md, then
		// CLAUDE.local.md): its agent loads it still, stale. Said, not removed: another device of
		// the user's may write it there (a committed file, shared).
		for (const name of otherContextFiles(project)) {
			const fileKey = projectFileKey(project.path, name);
			const current = existing.projectFiles.get(fileKey);
			const removed = current === undefined || current === null || existing.sameAs?.has(fileKey) ? undefined : removeMarkedBlock(current);
			if (!removed?.ok || !removed.changed) continue;
			plan.notices.push(`${name} in ${project.path} still holds a context block, from an earlier setting (it goes to ${files.join(" and ")} now), and its agent loads that stale copy too; remove it from ${name} (the lines from ${BEGIN_MARKER} to ${END_MARKER}) unless another device of yours writes it there`);
		}
	}
	plan.writes = plan.writes.filter((w) => !("path" in w) || readable(w.path)).map(wellFormedWrite);
	return plan;
}

/** The notes folder a file's block names (`Session notes are in …`) when it is another vault's, not `vaultPath`'s. */
export function otherVaultsNotes(current: string | null, vaultPath: string | undefined): string | undefined {
	const block = current === null ? undefined : markedBlockBody(current);
	if (block === undefined || vaultPath === undefined) return undefined;
	const folder = notesFolderOfBlock(block);
	const root = vaultPath.replace(/[\\/]+$/, "");
	return folder !== undefined && isRootedPath(folder) && !folder.startsWith(`${root}/`) ? folder : undefined;
}

/** A project's file in `ExistingTexts`: the project's path and the file's name. */
export function projectFileKey(projectPath: string, name: string): string {
	return `${projectPath}\u0000${name}`;
}

/**
 * The files a project's block is written into: each one once. A file that is a link to another of
 * them is that file; a file whose agent follows imports (CLAUDE.md and CLAUDE.local.md for Claude
 * Code, GEMINI.md for Gemini CLI) and that imports another of them (`@AGENTS.md`) gets that file's
 * block through the import, not one of its own. AGENTS.md always gets its own: Codex follows no
 * import. Of two files that import each other, the later one keeps the block. An import of a file
 * that cannot take the block (a folder, a FIFO, a link out of the project, its markers doubled or
 * swapped, read-only) brings none: the importing file gets its own (it got none, and the agent no
 * context; a read-only `AGENTS.md`, refused at every sync, left `CLAUDE.md` without one for good).
 */
function blockFiles(project: ProjectSettings, existing: ExistingTexts): string[] {
	const names = contextFilesOf(project).filter((name) => !existing.sameAs?.has(projectFileKey(project.path, name)));
	const canHold = (name: string) => {
		const key = projectFileKey(project.path, name);
		const text = existing.projectFiles.get(key);
		return !existing.unreadable.has(key) && !existing.readOnly?.has(key) && (text == null || removeMarkedBlock(text).ok);
	};
	const through = new Set<string>();
	for (const name of names) {
		const text = existing.projectFiles.get(projectFileKey(project.path, name));
		if (text == null || !FOLLOWS_IMPORTS.has(name)) continue;
		const lines = linesOutsideBlock(text);
		if (names.some((other) => other !== name && !through.has(other) && canHold(other) && importsFile(lines, other))) through.add(name);
	}
	return names.filter((name) => !through.has(name));
}

/** The instruction files whose agents read `@file` imports in them. */
const FOLLOWS_IMPORTS = new Set(["CLAUDE.md", "CLAUDE.local.md", "GEMINI.md"]);

/**
 * `@AGENTS.md` or `@./AGENTS.md` at the start of a line or after a space, as Claude Code and
 * Gemini CLI import: not in fenced code or a code span (they skip those), nor in the block a sync
 * wrote (its text comes from sessions).
 */
function importsFile(lines: readonly string[], name: string): boolean {
	const pattern = new RegExp(`(?:^|\\s)@(?:\\./)?${name.replace(/\./g, "\\.")}(?=\\s|$)`);
	return lines.some((line) => line.includes("@") && pattern.test(outsideCodeSpans(line)));
}

/** The project's facts in the vault. */
export function memoryPath(state: SyncState, settings: Settings, key: string): string {
	return memoryPathOf(state.projects[key] ?? { folder: key }, settings.memoryFolder);
}

function indexPath(state: SyncState, settings: Settings, key: string): string {
	return indexPathOf(state.projects[key] ?? { folder: key }, settings.notesFolder);
}

/**
 * Each memory folder read, with the redaction in force for its project (an enabled project's own,
 * else the settings-wide one) and, when it shares its facts, Claude Code's files.
 */
export function redactableFolders(state: SyncState, settings: Settings, identities: Identities, existing: Pick<ExistingTexts, "memory" | "claudeMemory">): RedactableFolder[] {
	const spec = redactionSpec(settings);
	const projects = new Map(settings.projects.map((p) => [settingsKey(p, identities), p]));
	return [...existing.memory].map(([key, read]) => {
		const project = projects.get(key);
		const claude = project?.memorySharing ? existing.claudeMemory.get(project.path)?.files : undefined;
		return { key, folder: memoryPath(state, settings, key), facts: read.facts, inbox: read.inbox, redact: redactorFor(spec, project?.path), ...(claude ? { claude } : {}) };
	});
}

/** A merged note write, or an unchanged count (`counted`: a note this sync had a reason to render), or the reason it cannot be merged. */
function mergeInto(plan: SyncPlan, path: string, existing: string | null, rendered: { frontmatter: string; body: string }, what: "note" | "memory", onConflict?: ConflictUndo, counted = true): void {
	const merged = mergeNote(existing, rendered.frontmatter, rendered.body);
	if (!merged.ok) plan.errors.push(`${path}: ${merged.reason}`);
	else if (merged.text === existing) plan.unchanged += counted ? 1 : 0;
	else plan.writes.push({ kind: "note", path, text: merged.text, expected: existing, what, ...(onConflict ? { onConflict } : {}) });
}

function tagInput(session: SessionWithAgents, record: Pick<SessionRecord, "project">, d: SessionDigest) {
	return { project: record.project, files: [...d.filesTouched, ...d.filesRead], filesRead: onlyRead(d), tools: d.tools, prompts: promptText(session.model), commands: d.commands, projectPath: d.projectPath, branches: session.model.branches };
}

function tagOptions(settings: Settings) {
	return { prefix: settings.tagPrefix, rules: settings.keywordRules, max: 5 };
}

/**
 * Whether a tag basis made for digest `a` holds for `b`: the same digest, or a copy of it with
 * another title (the plan's `whole`), which no tag is made of (see `tagInput`).
 */
function sameTagInput(a: SessionDigest, b: SessionDigest): boolean {
	return a === b || (a.filesTouched === b.filesTouched && a.filesRead === b.filesRead && a.tools === b.tools && a.commands === b.commands && a.projectPath === b.projectPath);
}

/** A session's `tagBasis`, with the digest and project name it was made for (the plan uses it only for those). */
export interface SessionTagBasis {
	digest: SessionDigest;
	project: string;
	basis: TagBasis;
}

/** `tagBasis` of a session just read, under the name its project would have (`PreparedSession.project`). */
export function sessionTagBasis(session: SessionWithAgents, prepared: PreparedSession, settings: Settings): SessionTagBasis {
	const input = { ...tagInput(session, prepared, prepared.digest), signals: prepared.signals };
	return { digest: prepared.digest, project: prepared.project, basis: tagBasis(input, tagOptions(settings)) };
}

/** Each text as the file will hold it (see `wellFormed`): what is written is what the next sync reads back. */
function wellFormedWrite(write: PlannedWrite): PlannedWrite {
	switch (write.kind) {
		case "session-note": {
			const render = write.render;
			// A conversation's bytes are well-formed already: their encoder replaced any lone surrogate.
			return { ...write, render: () => { const note = render(); return { ...note, frontmatter: wellFormed(note.frontmatter), body: wellFormed(note.body) }; } };
		}
		case "context-block":
			return { ...write, block: wellFormed(write.block) };
		default:
			return "text" in write && typeof write.text === "string" ? { ...write, text: wellFormed(write.text) } : write;
	}
}
