import { renderContextBlock } from "../context/context-block";
import { upsertMarkedBlock } from "../context/marked-block";
import { digestSession, type SessionDigest } from "../digest/session-digest";
import { baseName, safeFileName } from "../notes/note-name";
import { renderSessionNote } from "../notes/render-session-note";
import type { NoteStore, ProjectFiles } from "../ports";
import { hash53 } from "../transcript/fold";
import type { SessionWithAgents } from "../transcript/link-subagents";
import { isEmptySession } from "../transcript/session-queries";

export interface EnabledProject {
	path: string;
	target: "CLAUDE.md" | "CLAUDE.local.md";
}

export interface SyncSettings {
	notesFolder: string;
	tagPrefix: string;
	projects: EnabledProject[];
}

export interface SyncReport {
	notesWritten: string[];
	notesUnchanged: number;
	contextWritten: string[];
	/** Problems that stopped one write; the rest of the sync went on. */
	errors: string[];
}

/**
 * One sync: a note per non-empty session, and the context block in each enabled project's
 * CLAUDE.md. Writes only what changed.
 */
export async function runSync(sessions: readonly SessionWithAgents[], settings: SyncSettings, notes: NoteStore, projects: ProjectFiles): Promise<SyncReport> {
	const report: SyncReport = { notesWritten: [], notesUnchanged: 0, contextWritten: [], errors: [] };
	const live = sessions.filter((s) => !isEmptySession(s.model));
	const titles = summaryTitles(sessions);
	const planned = planNotes(live, titles, settings);
	for (const note of planned) {
		const text = renderSessionNote(note.session.model, note.digest, { project: note.project, source: note.session.file.path, tags: note.tags });
		const before = await notes.read(note.path);
		if (before === text) {
			report.notesUnchanged++;
			continue;
		}
		await notes.write(note.path, text);
		report.notesWritten.push(note.path);
	}
	const notePaths = Object.fromEntries(planned.map((n) => [n.digest.sessionId, n.path]));
	for (const project of settings.projects) {
		const digests = planned.filter((n) => n.digest.projectPath === project.path).map((n) => n.digest);
		const body = renderContextBlock(digests, { sessions: 5, maxChars: 5000, notePaths });
		try {
			const before = (await projects.read(project.path, project.target)) ?? "";
			const result = upsertMarkedBlock(before, body);
			if (!result.ok) {
				report.errors.push(`${project.target} in ${project.path} has ${result.reason}; nothing was written`);
				continue;
			}
			if (!result.changed) continue;
			await projects.write(project.path, project.target, result.text);
			report.contextWritten.push(`${project.path}/${project.target}`);
		} catch (error) {
			report.errors.push(`${project.target} in ${project.path}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
	return report;
}

interface PlannedNote {
	session: SessionWithAgents;
	digest: SessionDigest;
	project: string;
	path: string;
	tags: string[];
}

function planNotes(sessions: readonly SessionWithAgents[], titles: Map<string, string>, settings: SyncSettings): PlannedNote[] {
	const planned: PlannedNote[] = [];
	const taken = new Set<string>();
	const ordered = [...sessions].sort((a, b) => (a.model.startedAt ?? "").localeCompare(b.model.startedAt ?? "") || a.file.fileId.localeCompare(b.file.fileId));
	for (const session of ordered) {
		const digest = digestSession(session.model, titles.get(session.file.path));
		const project = safeFileName(baseName(digest.projectPath ?? session.file.projectDir), "Unknown project");
		const date = (digest.startedAt ?? "").slice(0, 10) || "undated";
		let path = `${settings.notesFolder}/${project}/${date} ${safeFileName(digest.title)}.md`;
		if (taken.has(path.toLowerCase())) path = path.replace(/\.md$/, ` (${digest.sessionId.slice(0, 8)}).md`);
		taken.add(path.toLowerCase());
		planned.push({ session, digest, project, path, tags: [`${settings.tagPrefix}claude-code`, `${settings.tagPrefix}project/${tagPart(project)}`] });
	}
	return planned;
}

/** `summary` lines title the session that holds their `leafUuid`, often in another file of the project. */
function summaryTitles(sessions: readonly SessionWithAgents[]): Map<string, string> {
	const titles = new Map<string, string>();
	for (const source of sessions) {
		for (const summary of source.model.summaries) {
			if (!summary.leafUuid || !summary.text) continue;
			const key = hash53(summary.leafUuid);
			const owner = sessions.find((s) => s.file.projectDir === source.file.projectDir && s.model.index.seenUuids.has(key));
			if (owner) titles.set(owner.file.path, summary.text);
		}
	}
	return titles;
}

function tagPart(text: string): string {
	return text.toLowerCase().replace(/[^\p{L}\p{N}_/-]+/gu, "-").replace(/^-+|-+$/g, "") || "unnamed";
}
