import { Bm25 } from "../memory/bm25";
import { searchTerms } from "./search-terms";
import type { StoredDigest } from "../digest/session-digest";
import { codeUnitOrder } from "../text/code-unit-order";
import { isExcluded } from "../settings";
import { printable } from "../text/printable";
import { agentOf, type AgentId } from "../transcript/agents";

/** A session as the sync state keeps it (a `SessionRecord`, with its transcript path as `key`). */
export interface SearchableSession {
	/** The transcript's path: the state's key for the session. */
	key: string;
	/** The project's vault folder. */
	project: string;
	/** The project's identity (its repository root); unset in states of old releases. */
	projectKey?: string;
	projectPath?: string;
	notePath: string;
	/** The user deleted the note. */
	deleted?: boolean;
	tags: readonly string[];
	digest: StoredDigest;
}

export interface SessionFilter {
	/** Project identities (or, for old records, vault folders) to keep; undefined: every project. */
	projects?: ReadonlySet<string>;
	agent?: AgentId;
	/** ISO date or date-time: sessions active at or after it. */
	since?: string;
	/**
	 * ISO date-time: no session is dated later (a day past the clock). One that starts later is not
	 * listed, and a time after it is not a session's last: a line dated 2099 (a transcript's time is
	 * its own field) kept a session on top of the latest ones for good. The context block's rule.
	 */
	notAfter?: string;
	/** The excluded projects (`Settings.excludedProjects`): their sessions stay in the state until the next sync forgets them, and are not listed meanwhile. */
	excluded?: readonly string[];
}

export interface SessionHit {
	session: SearchableSession;
	/** 0 when the query was empty (the most recent sessions). */
	score: number;
}

/**
 * What the MCP tools and any other reader ask of a search over sessions: the one interface, so
 * that another engine (a full-text index of whole conversations, say) can take this one's place.
 */
export interface SessionSearch {
	search(query: string, filter: SessionFilter, limit: number): SessionHit[];
	/** The session with this id, or the one whose id starts with it (when only one does). */
	byId(id: string): SearchableSession | undefined;
}

/** A word that names a commit or a session (`3f2a9c1`, a session id's start): matched as it is, not as a term. */
const LITERAL = /^[0-9a-f]{7,40}$|^[0-9a-f]{8}-[0-9a-f-]{4,}$/i;
/** What a literal match adds: more than any term score a short query reaches. */
const LITERAL_SCORE = 100;

/**
 * Sessions ranked by BM25 over what their digest says (title, requests, what was done and left
 * open, decisions, files touched, topic tags): fact recall's scoring (`memory/bm25`) with search
 * terms of their own (`search-terms`); ties go to the most recent. Kept up to date by `put` and `delete`.
 */
export class SessionIndex implements SessionSearch {
	private readonly index = new Bm25();
	private readonly docs = new Map<string, { doc: number; session: SearchableSession }>();
	private readonly byDoc: (SearchableSession | undefined)[] = [];
	private projectSet: Set<string> | undefined;
	private readonly ids = new Map<string, SearchableSession>();

	put(session: SearchableSession): void {
		this.delete(session.key);
		const doc = this.index.add(searchTerms(searchText(session)));
		this.docs.set(session.key, { doc, session });
		this.byDoc[doc] = session;
		this.projectSet = undefined;
		this.ids.set(session.digest.sessionId, session);
	}

	delete(key: string): void {
		const found = this.docs.get(key);
		if (!found) return;
		this.index.remove(found.doc);
		this.docs.delete(key);
		this.byDoc[found.doc] = undefined;
		this.projectSet = undefined;
		if (this.ids.get(found.session.digest.sessionId) === found.session) this.ids.delete(found.session.digest.sessionId);
	}

	get size(): number {
		return this.docs.size;
	}

	sessions(): IterableIterator<SearchableSession> {
		return this.ids.values();
	}

	/** The projects (identities, or vault folders for old records) that have sessions. */
	projects(): ReadonlySet<string> {
		this.projectSet ??= new Set([...this.ids.values()].map((s) => s.projectKey ?? s.project));
		return this.projectSet;
	}

	byId(id: string): SearchableSession | undefined {
		const exact = this.ids.get(id);
		if (exact || id.length < 6) return exact;
		const found = this.startingWith(id, 2);
		return found.length === 1 ? found[0] : undefined;
	}

	/** The sessions whose ids begin with `prefix`, at most `max` of them. */
	startingWith(prefix: string, max: number): SearchableSession[] {
		const found: SearchableSession[] = [];
		for (const [sessionId, session] of this.ids) {
			if (found.length >= max) break;
			// Or as shown: the tools' answers go out without control characters (`printable`), so an id holding
			// some (opencode's are free text) was listed as one no lookup found.
			if (sessionId.startsWith(prefix) || printable(sessionId).startsWith(prefix)) found.push(session);
		}
		return found;
	}

	search(query: string, filter: SessionFilter, limit: number): SessionHit[] {
		const keep = (s: SearchableSession) => matchesFilter(s, filter);
		const recency = byRecency(filter.notAfter);
		const max = Math.max(0, limit);
		const terms = searchTerms(query);
		const literals = query.split(/[\s,;:()[\]`'"]+/).filter((w) => LITERAL.test(w)).map((w) => w.toLowerCase());
		if (terms.length === 0 && literals.length === 0) {
			// No words to look for: the most recent sessions that pass the filter.
			if (query.trim() !== "") return [];
			const recent = new TopHits(max, recency);
			for (const session of this.ids.values()) if (keep(session)) recent.offer(session, 0);
			return recent.hits;
		}
		const top = new TopHits(max, recency);
		const literalScores = new Map<SearchableSession, number>();
		if (literals.length > 0) {
			for (const session of this.ids.values()) {
				if (!keep(session)) continue;
				const hits = literals.filter((w) => session.digest.sessionId.toLowerCase().startsWith(w) || session.digest.done.some((d) => d.toLowerCase().includes(w))).length;
				if (hits > 0) literalScores.set(session, hits * LITERAL_SCORE);
			}
		}
		this.index.visit(terms, (doc, score) => {
			const session = this.byDoc[doc];
			if (!session || !keep(session)) return;
			const literal = literalScores.get(session);
			if (literal !== undefined) literalScores.delete(session);
			top.offer(session, score + (literal ?? 0));
		});
		for (const [session, score] of literalScores) top.offer(session, score);
		return top.hits;
	}
}

/** The `max` best hits, best first, kept as they come: a common word scores thousands of sessions, and none of them is sorted or copied. */
class TopHits {
	readonly hits: SessionHit[] = [];
	constructor(
		private readonly max: number,
		private readonly recency: (a: SearchableSession, b: SearchableSession) => number,
	) {}

	offer(session: SearchableSession, score: number): void {
		const hits = this.hits;
		if (this.max <= 0) return;
		const last = hits[hits.length - 1];
		if (hits.length === this.max && last && (score < last.score || (score === last.score && this.recency(session, last.session) >= 0))) return;
		let at = hits.length;
		while (at > 0 && (score > hits[at - 1]!.score || (score === hits[at - 1]!.score && this.recency(session, hits[at - 1]!.session) < 0))) at--;
		hits.splice(at, 0, { session, score });
		if (hits.length > this.max) hits.pop();
	}
}

/** What a session is found by: its digest's words and its topics (the tags' last parts). */
export function searchText(s: SearchableSession): string {
	const d = s.digest;
	const files = d.filesTouched.map((f) => f.split(/[\\/]/).slice(-2).join(" "));
	const topics = s.tags.map((t) => t.split("/").slice(1).join(" "));
	return [d.title, ...d.asked, ...d.tasks.flatMap((t) => t.result), ...d.done, ...d.open, ...d.decisions, ...files, ...topics, d.branch ?? ""].join(".\n");
}

/** Whether a session is of an excluded project, by its identity or its path (as the sync forgets it). */
export function isExcludedSession(s: Pick<SearchableSession, "projectKey" | "projectPath">, excluded: readonly string[]): boolean {
	return excluded.length > 0 && ((s.projectKey !== undefined && isExcluded(s.projectKey, excluded)) || (s.projectPath !== undefined && isExcluded(s.projectPath, excluded)));
}

function matchesFilter(s: SearchableSession, filter: SessionFilter): boolean {
	if (filter.excluded && isExcludedSession(s, filter.excluded)) return false;
	if (filter.projects && !filter.projects.has(s.projectKey ?? s.project)) return false;
	if (filter.agent && agentOf(s.digest) !== filter.agent) return false;
	if (filter.notAfter !== undefined && (s.digest.startedAt ?? "") > filter.notAfter) return false;
	if (filter.since) {
		const last = lastTime(s, filter.notAfter);
		if (last === undefined || last < filter.since) return false;
	}
	return true;
}

/** When a session was last active: when it ended, else started; a time after `notAfter` is none. */
function lastTime(s: SearchableSession, notAfter: string | undefined): string | undefined {
	const { endedAt, startedAt } = s.digest;
	if (notAfter === undefined) return endedAt ?? startedAt;
	return endedAt !== undefined && endedAt <= notAfter ? endedAt : startedAt !== undefined && startedAt <= notAfter ? startedAt : undefined;
}

/** The most recent first (by when it was last active, see `lastTime`), then by transcript path, so the order is the same every time. */
export function byRecency(notAfter?: string): (a: SearchableSession, b: SearchableSession) => number {
	return (a, b) => codeUnitOrder(lastTime(b, notAfter) ?? "", lastTime(a, notAfter) ?? "") || codeUnitOrder(a.key, b.key);
}
