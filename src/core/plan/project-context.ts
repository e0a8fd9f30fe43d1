import { recentEntries, renderContextBlock, type ContextEntry } from "../context/context-block";
import { renderContextPacket, renderFacade, type PacketFact } from "../context/lazy-context";
import { DIGEST_VERSION } from "../digest/session-digest";
import type { ProjectSettings, Settings } from "../settings";
import type { SessionRecord, SyncState } from "../sync/sync-state";
import { printable } from "../text/printable";
import { packetPathOf } from "./project-paths";

/** What goes into one enabled project's CLAUDE.md, and in lazy mode the packet note beside it. */
export interface ProjectContext {
	block: string;
	/** The packet note: written to the vault in lazy mode; its body is what recall hooks print. */
	packet: { path: string; note: { frontmatter: string; body: string } };
	/** Where the facade points (absolute when the vault's folder is known). */
	packetLocation: string;
	/** Sessions it is made from: with none there is nothing to tell, and no block is written. */
	sessions: number;
}

/** About four characters a token: the budget is set in tokens, the block is cut in characters. */
const CHARS_PER_TOKEN = 4;

/**
 * The context of a project from the sessions the sync knows (their digests are redacted
 * already). Paths in it are absolute when `vaultPath` is known, so Claude Code can open them.
 * @param ofProject the project's session records (see `recordsByProject`).
 */
export function projectContext(state: SyncState, key: string, project: ProjectSettings, settings: Settings, facts: readonly PacketFact[], ofProject: readonly SessionRecord[], vaultPath?: string, notAfter?: string): ProjectContext {
	const located = (path: string) => (vaultPath ? `${vaultPath.replace(/[\\/]+$/, "")}/${path}` : path);
	const projectTags = `${settings.tagPrefix}project/`;
	// A digest an older release stored (its model gone, so never made again) has another shape: left out.
	// One dated after `notAfter` (a day past the newest transcript's last write, and past the sync's clock) is left out: no session starts later.
	const records = ofProject.filter((r) => r.digest.version === DIGEST_VERSION && (notAfter === undefined || (r.digest.startedAt ?? "") <= notAfter));
	const entries: ContextEntry[] = records.map((r) => ({
		digest: r.digest,
		topics: r.tags.filter((t) => !t.startsWith(projectTags)).map((t) => (t.startsWith(settings.tagPrefix) ? t.slice(settings.tagPrefix.length) : t)),
		notePath: r.deleted ? undefined : located(r.notePath),
		// Its end, unless past the bound (a transcript unpacked with times of the future): then its start, as the recall tools have it.
		lastActive: r.digest.endedAt !== undefined && (notAfter === undefined || r.digest.endedAt <= notAfter) ? r.digest.endedAt : r.digest.startedAt,
	}));
	const record = state.projects[key];
	const name = record?.folder ?? key;
	const path = packetPathOf(record ?? { folder: name }, settings.notesFolder);
	const rendered = renderContextPacket(name, project.path, entries, facts, Math.max(project.sessions, 10));
	// What prompts and replies put in them, terminal escapes aside (see `printable`).
	const note = { frontmatter: rendered.frontmatter, body: printable(rendered.body) };
	const packet = { path, note };
	const sessions = entries.length;
	// The block goes into files agents read as instructions: both are made safe for them piece by piece (see `agentSafe`).
	if (project.mode === "eager") return { block: renderContextBlock(entries, { sessions: project.sessions, maxChars: project.budget * CHARS_PER_TOKEN }), packet, packetLocation: located(path), sessions };
	const latest = recentEntries(entries, 1)[0];
	return { block: renderFacade(latest, located(path), latest ? state.checkpoints[latest.digest.sessionId] : undefined), packet, packetLocation: located(path), sessions };
}

/**
 * Every project's session records, by key, in one pass: one pass per enabled project was a
 * thousand passes over four thousand records in a sync of a thousand enabled projects (a second).
 */
export function recordsByProject(state: SyncState): Map<string, SessionRecord[]> {
	const byKey = new Map<string, SessionRecord[]>();
	for (const record of Object.values(state.sessions)) {
		if (record.projectKey === undefined) continue;
		const list = byKey.get(record.projectKey);
		if (list) list.push(record);
		else byKey.set(record.projectKey, [record]);
	}
	return byKey;
}
