import { recentEntries, renderContextBlock, type ContextEntry } from "../context/context-block";
import { renderContextPacket, renderFacade, type PacketFact } from "../context/lazy-context";
import { DIGEST_VERSION } from "../digest/session-digest";
import { baseName, safeFileName } from "../notes/note-name";
import type { ProjectSettings, Settings } from "../settings";
import type { SyncState } from "./sync-state";

/** What goes into one enabled project's CLAUDE.md, and in lazy mode the packet note beside it. */
export interface ProjectContext {
	block: string;
	/** The packet note: written to the vault in lazy mode; its body is what recall hooks print. */
	packet: { path: string; note: { frontmatter: string; body: string } };
	/** Where the facade points (absolute when the vault's folder is known). */
	packetLocation: string;
}

/** About four characters a token: the budget is set in tokens, the block is cut in characters. */
const CHARS_PER_TOKEN = 4;

/**
 * The context of a project from the sessions the sync knows (their digests are redacted
 * already). Paths in it are absolute when `vaultPath` is known, so Claude Code can open them.
 */
export function projectContext(state: SyncState, project: ProjectSettings, settings: Settings, facts: readonly PacketFact[], vaultPath?: string): ProjectContext {
	const located = (path: string) => (vaultPath ? `${vaultPath.replace(/[\\/]+$/, "")}/${path}` : path);
	const projectTags = `${settings.tagPrefix}project/`;
	// A digest an older release stored (its model gone, so never made again) has another shape: left out.
	const records = Object.values(state.sessions).filter((r) => r.digest.projectPath === project.path && r.digest.version === DIGEST_VERSION);
	const entries: ContextEntry[] = records.map((r) => ({
		digest: r.digest,
		topics: r.tags.filter((t) => !t.startsWith(projectTags)).map((t) => (t.startsWith(settings.tagPrefix) ? t.slice(settings.tagPrefix.length) : t)),
		notePath: r.deleted ? undefined : located(r.notePath),
	}));
	const name = projectNameFor(state, project.path);
	const path = contextPacketPath(settings.notesFolder, name);
	const note = renderContextPacket(name, project.path, entries, facts, Math.max(project.sessions, 10));
	const packet = { path, note };
	if (project.mode === "eager") return { block: renderContextBlock(entries, { sessions: project.sessions, maxChars: project.budget * CHARS_PER_TOKEN }), packet, packetLocation: located(path) };
	const latest = recentEntries(entries, 1)[0];
	return { block: renderFacade(latest, located(path), latest ? state.checkpoints[latest.digest.sessionId] : undefined), packet, packetLocation: located(path) };
}

/** The project's folder name in the vault: as its sessions have it, else the last part of its path. */
export function projectNameFor(state: SyncState, projectPath: string): string {
	for (const r of Object.values(state.sessions)) if (r.digest.projectPath === projectPath) return r.project;
	return safeFileName(baseName(projectPath), "Unknown project");
}

/** `<notes folder>/<project>/<project> context.md`, beside the project's index note. */
export function contextPacketPath(notesFolder: string, project: string): string {
	return `${notesFolder}/${project}/${project} context.md`;
}
