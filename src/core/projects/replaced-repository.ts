import type { ProjectRecord, SyncState } from "../sync/sync-state";
import type { ResolvedFolder } from "./project-identity";

/**
 * A project is known by its repository's root path, and a path can change hands: a repository moved
 * away (`mv ~/code/app ~/src/app`) and another one made where it was took over its sessions, index,
 * context block, packet and memory. A repository's fingerprint, its root commits (space-separated,
 * sorted), is recorded with its identity; one found at the path that shares no root commit with
 * the recorded one is another repository. A clone of the same repository, or one that fetched more
 * commits, has the same roots. One with no commit yet has no fingerprint, and no fingerprint (one
 * an older release recorded none for, too) matches any: the identity stays as it was; but a
 * repository with no commit where one with commits was recorded, that holds none of them, was made
 * anew there (`NEW_REPOSITORY`).
 */

/** The fingerprint of a repository with no commit yet, found where another was recorded whose commits it does not hold. */
export const NEW_REPOSITORY = "";

/** Whether two fingerprints are of one repository: they share a root commit (a merge of an unrelated history adds one). */
export function sameRepository(a: string, b: string): boolean {
	const roots = new Set(a.split(" "));
	return b.split(" ").some((id) => roots.has(id));
}

/**
 * Projects whose path now holds another repository get an identity of their own, `<path>@<root
 * commit>` (their vault folder, notes, index, packet and facts stay theirs; `replacedAt` says where
 * they were), so the one there now starts as a new project. A project put aside so is followed to
 * where its repository is found again (sessions in `~/src/app`), when no project is there yet.
 * The facts it shared with Claude Code's memory folder there are noted (`leftFacts`): Claude Code
 * keeps them by path, and the newcomer must not take them for its own.
 * In place, on a state the sync may change (`copyState`); records are replaced, not changed.
 * @param found what the adapter found this time, fingerprints included.
 */
export function setAsideReplaced(state: SyncState, found: Iterable<ResolvedFolder | undefined>): void {
	const here = new Map<string, string>();
	for (const f of found) if (f?.repository && f.fingerprint !== undefined) here.set(f.root, f.fingerprint);
	for (const [root, fingerprint] of here) {
		const record = state.projects[root];
		const recorded = recordedFingerprint(record);
		if (!record || recorded === undefined || (fingerprint !== NEW_REPOSITORY && sameRepository(recorded, fingerprint))) continue;
		const { repository: _, ...kept } = record;
		const shared = Object.keys(state.memory[root] ?? {});
		const left = record.memoryWith === undefined || shared.length === 0 ? {} : { leftFacts: { folder: record.memoryWith, names: shared } };
		rekeyProject(state, root, freeKey(state, `${root}@${recorded.slice(0, 12)}`), { ...kept, replacedAt: root, ...left });
	}
	for (const [root, fingerprint] of here) {
		if (state.projects[root] || fingerprint === NEW_REPOSITORY) continue;
		const away = Object.keys(state.projects).sort().find((key) => {
			const record = state.projects[key]!;
			const recorded = recordedFingerprint(record);
			return record.replacedAt !== undefined && recorded !== undefined && sameRepository(recorded, fingerprint);
		});
		if (away === undefined) continue;
		const { replacedAt: _, ...kept } = state.projects[away]!;
		rekeyProject(state, away, root, { ...kept, repository: true });
	}
}

/** Claude Code's fact files in `folder` that another project left there when its path changed hands: not `key`'s to share. */
export function factsLeftBy(state: Pick<SyncState, "projects">, key: string, folder: string, leavers: readonly string[] = projectsThatLeftFacts(state)): Set<string> {
	return new Set(
		leavers.flatMap((other) => {
			const p = state.projects[other];
			return other !== key && p?.leftFacts?.folder === folder && Array.isArray(p.leftFacts.names) ? p.leftFacts.names : [];
		}),
	);
}

/**
 * The projects whose records note facts they left behind (`leftFacts`): few, if any. Found once for
 * a sync's facts, not once per project: each project's look through every record was quadratic
 * (2,000 enabled projects: 1.5 s of a 5.5 s sync; attack round 47b).
 */
export function projectsThatLeftFacts(state: Pick<SyncState, "projects">): string[] {
	return Object.keys(state.projects).filter((key) => state.projects[key]!.leftFacts !== undefined);
}

/** The fingerprint a project's record holds, if it is one (a state edited by hand may hold anything). */
export function recordedFingerprint(record: ProjectRecord | undefined): string | undefined {
	return typeof record?.fingerprint === "string" && record.fingerprint !== "" ? record.fingerprint : undefined;
}

/** Records the fingerprint of each repository found at a project's own path (after `setAsideReplaced`: it is that project's repository). */
export function recordFingerprints(state: SyncState, found: Iterable<ResolvedFolder | undefined>): void {
	for (const f of found) {
		const record = f?.repository && f.fingerprint !== undefined && f.fingerprint !== NEW_REPOSITORY ? state.projects[f.root] : undefined;
		if (record && record.fingerprint !== f!.fingerprint) state.projects[f!.root] = { ...record, fingerprint: f!.fingerprint };
	}
}

function freeKey(state: SyncState, key: string): string {
	let free = key;
	for (let n = 2; state.projects[free]; n++) free = `${key} ${n}`;
	return free;
}

/** Everything kept by a project's identity goes to another: its record, its sessions' and usage's keys, its shared facts' pairs and the facts it proposed. */
function rekeyProject(state: SyncState, from: string, to: string, record: ProjectRecord): void {
	delete state.projects[from];
	state.projects[to] = record;
	for (const [path, session] of Object.entries(state.sessions)) if (session.projectKey === from) state.sessions[path] = { ...session, projectKey: to };
	for (const [path, usage] of Object.entries(state.usageOnly)) if (usage.projectKey === from) state.usageOnly[path] = { ...usage, projectKey: to };
	if (state.memory[from]) {
		state.memory[to] = state.memory[from]!;
		delete state.memory[from];
	}
	if (state.proposed[from]) {
		state.proposed[to] = state.proposed[from]!;
		delete state.proposed[from];
	}
}
