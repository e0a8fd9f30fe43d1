import { dict } from "../dict";
import { removeMarkedBlock, upsertMarkedBlock } from "../text/marked-block";
import { mergeNote, newNoteParts, SESSION_NOTE_KEYS } from "../notes/note-regions";
import { noteBody } from "../notes/render-session-note";
import type { HookContext } from "../plan/hook-context";
import type { ConflictUndo, PlannedWrite, SyncPlan } from "../plan/sync-plan";
import type { MemoryFolder, NoteStore, ProjectFiles } from "../ports";
import type { SyncState } from "./sync-state";
import { describeWriteError } from "../write-error";
import { mapConcurrently } from "../concurrently";

export interface SyncReport {
	transcriptsRead: number;
	notesWritten: string[];
	notesUnchanged: number;
	/** Notes the user deleted; they stay deleted. */
	notesSkipped: string[];
	/** Notes moved to the project's new folder (a migration). */
	notesMoved: string[];
	contextWritten: string[];
	/** Fact files and memory indexes written, in the vault and in Claude Code's memory folders. */
	memoryWritten: string[];
	/** Problems that stopped one write; the rest of the sync went on. */
	errors: string[];
	/** What a person should look at, though nothing failed (a fact changed on both sides). */
	notices: string[];
}

/** Where a plan is carried out. */
export interface ApplyPorts {
	notes: NoteStore;
	projects: ProjectFiles;
	/** A project's Claude Code memory folder; undefined when Claude Code's memory is off for it. */
	claudeMemory?: (projectPath: string) => MemoryFolder | undefined;
	/** Stores what the hooks of a project print. */
	hookContext?: (projectPath: string, context: HookContext | null) => Promise<void>;
	onProgress?: (done: number, total: number) => void;
}

/** Notes in flight at once: rendering one overlaps writing the next. */
const WRITE_CONCURRENCY = 8;
/** A CLAUDE.md that keeps changing under us is left alone after this many tries. */
const CONTEXT_ATTEMPTS = 3;

/**
 * Carries out a plan: moves first (the engine makes them before planning the rest, so a plan it
 * applies has none), then every write, each only if its target still holds what the
 * plan saw (compare-and-swap); a refused write is reported and its part of the next state undone,
 * so the next sync does it. Returns the report and the state to store.
 */
export async function applyPlan(plan: SyncPlan, ports: ApplyPorts, transcriptsRead: number): Promise<{ report: SyncReport; state: SyncState }> {
	const report: SyncReport = { transcriptsRead, notesWritten: [], notesUnchanged: plan.unchanged, notesSkipped: [...plan.skipped], notesMoved: [], contextWritten: [], memoryWritten: [], errors: [...plan.errors], notices: [...plan.notices] };
	const undo: ConflictUndo[] = [];
	if (plan.moves.length > 0) {
		try {
			for (const move of await ports.notes.move(plan.moves)) report.notesMoved.push(`${move.from} → ${move.to}`);
		} catch (error) {
			report.errors.push(`Notes could not be moved to their project's new folder: ${messageOf(error)}`);
		}
	}
	const notes = plan.writes.filter((w) => w.kind === "session-note");
	const total = notes.length;
	let done = 0;
	await mapConcurrently(notes, WRITE_CONCURRENCY, async (write) => {
		await applyWrite(write, ports, report, undo);
		ports.onProgress?.(++done, total);
	});
	// Projects a block could not be written into one of their files for (each such write reports an error).
	const blockMissed = new Set<string>();
	for (const write of plan.writes) {
		if (write.kind === "session-note") continue;
		// A conflict's copy of Claude Code's text is planned before the write that replaces that text:
		// when the copy was not made (a full disk), the replacement would leave Claude Code's edit nowhere.
		if (write.kind === "claude-memory" && pairFailed(write.onConflict, undo)) continue;
		// A block leaves a file that imports another only once the others hold it: with AGENTS.md
		// read-only, CLAUDE.md's went and no file the agent reads had one. The next sync does it.
		if (write.kind === "context-block" && write.remove && blockMissed.has(write.projectPath)) continue;
		const errors = report.errors.length;
		await applyWrite(write, ports, report, undo);
		if (write.kind === "context-block" && !write.remove && report.errors.length > errors) blockMissed.add(write.projectPath);
	}
	for (const { projectPath, context } of plan.hookContexts) await ports.hookContext?.(projectPath, context);
	report.notesWritten.sort();
	report.notesSkipped.sort();
	report.memoryWritten.sort();
	return { report, state: undone(plan.state, undo) };
}

/** Whether a write of this shared fact already failed in this sync (its merge is undone: the next sync does it all again). */
function pairFailed(pair: ConflictUndo | undefined, undo: readonly ConflictUndo[]): boolean {
	return pair?.kind === "memory-pair" && undo.some((u) => u.kind === "memory-pair" && u.project === pair.project && u.claude === pair.claude);
}

async function applyWrite(write: PlannedWrite, ports: ApplyPorts, report: SyncReport, undo: ConflictUndo[]): Promise<void> {
	const refused = (where: string, what: string) => {
		report.errors.push(`${where}: it changed while the sync ran; it is left as it is and ${what} next time`);
		if ("onConflict" in write && write.onConflict) undo.push(write.onConflict);
	};
	try {
		switch (write.kind) {
			case "session-note": {
				const rendered = write.render();
				// A new note whose conversation came as bytes is written from them, never made one string (see `SessionNoteText`).
				if (write.expected === null && rendered.conversation && ports.notes.create) {
					if (await ports.notes.create(write.path, newNoteParts(rendered.frontmatter, rendered.body, rendered.conversation))) report.notesWritten.push(write.path);
					else refused(write.path, "updated");
					return;
				}
				const merged = mergeNote(write.expected, rendered.frontmatter, noteBody(rendered), SESSION_NOTE_KEYS);
				// Read while an editor saved it (emptied, then written again), a note shows no markers:
				// taken as theirs, it missed its session's last turns for good. Read again, it is whole now.
				if (!merged.ok && merged.markersRemoved && (await ports.notes.read(write.path).catch(() => null)) !== write.expected) refused(write.path, "updated");
				else if (!merged.ok) {
					report.errors.push(`${write.path}: ${merged.reason}`);
					// Broken markers are put right by the user: the next sync writes what this one could not (nothing else would, once the session ends).
					if (!merged.markersRemoved && write.onConflict) undo.push(write.onConflict);
				} else if (merged.text === write.expected) report.notesUnchanged++;
				else if (await ports.notes.write(write.path, merged.text, write.expected)) report.notesWritten.push(write.path);
				else refused(write.path, "updated");
				return;
			}
			case "note": {
				const ok = write.text === null ? await ports.notes.remove(write.path, write.expected ?? "") : await ports.notes.write(write.path, write.text, write.expected);
				if (ok) (write.what === "memory" ? report.memoryWritten : report.notesWritten).push(write.path);
				// A note that appeared meanwhile where a new one was to go is theirs: the Bases file silently (it is theirs once written), a proposal said.
				else if (write.expected !== null || (write.onConflict && write.onConflict.kind !== "base-unwritten")) refused(write.path, write.what === "memory" ? "merged" : "updated");
				return;
			}
			case "claude-memory": {
				const folder = ports.claudeMemory?.(write.projectPath);
				if (!folder) return;
				const ok = write.text === null ? await folder.remove(write.name, write.expected ?? "") : await folder.write(write.name, write.text, write.expected);
				if (ok) report.memoryWritten.push(`${folder.path}/${write.shown ?? write.name}`);
				else refused(`${folder.path}/${write.shown ?? write.name}`, "merged");
				return;
			}
			case "context-block":
				await writeBlock(write, ports.projects, report);
				return;
		}
	} catch (error) {
		// Not written (a full disk, a read-only folder): whole files only, so nothing was lost; like a
		// refused write, its part of the state is undone and the next sync does it.
		// A fact is named in Claude Code's folder: "a.md in <project>" read as a file of the project.
		const where = "path" in write ? write.path : write.kind === "claude-memory" ? `${write.folder}/${write.shown ?? write.name}` : `${write.target} in ${write.projectPath}`;
		// A refusal that is a sentence of its own, naming the file ("The memory file … is not a plain file; …"), is said as it is (with the name shown, never one holding a secret).
		const said = describeWriteError(error);
		const reason = write.kind === "claude-memory" && write.shown !== undefined ? said.split(write.name).join(write.shown) : said;
		report.errors.push(/^[A-Z]/.test(reason) && reason.includes(where) ? `${reason}; the next sync tries again` : `${where}: not written, ${reason}; the next sync tries again`);
		if ("onConflict" in write && write.onConflict) undo.push(write.onConflict);
	}
}

/** The block goes into the file as it is now: if someone changed it since the plan read it, read it again. */
async function writeBlock(write: Extract<PlannedWrite, { kind: "context-block" }>, projects: ProjectFiles, report: SyncReport): Promise<void> {
	const where = `${write.target} in ${write.projectPath}`;
	let before = write.expected;
	for (let attempt = 1; attempt <= CONTEXT_ATTEMPTS; attempt++) {
		if (attempt > 1) before = await projects.read(write.projectPath, write.target);
		const result = write.remove ? removeMarkedBlock(before ?? "") : upsertMarkedBlock(before ?? "", write.block);
		if (!result.ok) {
			report.errors.push(`${where} has ${result.reason}; nothing was written`);
			return;
		}
		if (!result.changed) return;
		if (await projects.write(write.projectPath, write.target, result.text, before)) {
			report.contextWritten.push(`${write.projectPath}/${write.target}`);
			return;
		}
	}
	report.errors.push(`${where} kept changing while the sync ran; it is left as it is and updated next time`);
}

/** The planned state with the parts of refused writes undone. */
function undone(state: SyncState, undo: readonly ConflictUndo[]): SyncState {
	for (const u of undo) {
		if (u.kind === "note-dirty") {
			const record = state.sessions[u.session];
			if (record && u.created && !u.written) {
				// A note never written, whose create was refused (a file made there meanwhile, in Obsidian
				// or by a tool): kept, its path made the next sync take the person's file for the note, its
				// markers "removed", and the session had no note for good. It is planned anew, beside it.
				delete state.sessions[u.session];
				if (!state.pending.includes(u.session)) state.pending.push(u.session);
			} else if (record) state.sessions[u.session] = { ...record, dirty: true, written: u.written };
		} else if (u.kind === "base-unwritten") {
			state.bases = state.bases?.filter((p) => p !== u.path);
		} else if (u.kind === "index-stale") {
			const project = state.projects[u.project];
			if (project) state.projects[u.project] = { ...project, indexStale: true };
		} else if (u.kind === "proposal") {
			state.proposed[u.project] = (state.proposed[u.project] ?? []).filter((k) => k !== u.key);
			const record = state.sessions[u.session];
			if (record) state.sessions[u.session] = { ...record, facts: record.facts?.filter((f) => f !== u.name), proposedPrompts: Math.min(record.proposedPrompts ?? 0, u.prompt) };
			// Read again by the next sync, which weighs its prompts then.
			if (!state.pending.includes(u.session)) state.pending.push(u.session);
		} else {
			const pairs = (state.memory[u.project] ??= dict());
			if (u.previous) pairs[u.claude] = u.previous;
			else delete pairs[u.claude];
		}
	}
	return state;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
