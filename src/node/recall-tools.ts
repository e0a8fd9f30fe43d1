import { stat } from "node:fs/promises";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import { redactionSpec, redactorFor } from "../core/ingest/redaction-policy";
import { isWithin } from "../core/projects/project-identity";
import { cutAtLine, entryOf, renderFacts, renderProjectContext, renderSearchHits, renderSession, RECALL_HEAD, RECALL_TEXT_MAX, type FactText } from "../core/recall/recall-text";
import { isExcludedSession, type SessionFilter } from "../core/recall/session-search";
import { DEFAULT_SETTINGS, isExcluded, type ProjectSettings, type Settings } from "../core/settings";
import type { AgentId } from "../core/transcript/agents";
import { appendHookLog } from "./hook-log";
import { projectForCwd } from "./hook-project";
import { pluginFolder } from "./plugin-paths";
import { RecallStore, type ReleaseCounts } from "./recall-store";

/**
 * The recall tools an agent can call (served over MCP by `ai-memory mcp`), independent of the
 * protocol: each takes checked arguments and answers Markdown, redacted and bounded. They read
 * only what the sync prepared (the session records, stored models, hook contexts), never a
 * transcript. Each answer is logged in hooks.log (`mcp:<tool>`, its size), for `doctor`.
 */

/**
 * A request the tools cannot answer as asked (unknown project or session, bad date): the message
 * says what to ask instead. `reason` is what hooks.log keeps: fixed words, never the arguments
 * (the model writes them; a secret it passes as an id would stay in the log).
 */
export class RecallToolError extends Error {
	constructor(message: string, readonly reason: string) {
		super(message);
	}
}

export interface RecallToolsOptions {
	vault: string;
	configDir?: string;
	/** The folder the agent runs in (the server's working directory): the project asked about by default; undefined when that folder is gone. */
	cwd: string | undefined;
	loadSettings: (dataJson: string, host: string) => Promise<Settings>;
	host?: string;
	now?: () => Date;
}

/** Said when the sync's state cannot be read: a damaged file read as no sessions sent the model looking for ids that exist. */
/** What the tools say when the state's file `file` cannot be read (a sync stops on it too, and says how to recover). */
const unreadableState = (file: string) => `(The last sync's record of sessions, \`state/${file}\` in the plugin's folder, cannot be read: syncs stop on it too (\`ai-memory sync\` says how to recover: put back a good copy, or move the state folder away). Until then, sessions may be missing here.)`;

/** What the tools say of sessions another release digested, left out (see `RecallStore.leftOut`); undefined when none. */
export function otherReleaseNote({ older, newer, damaged }: ReleaseCounts): string | undefined {
	const said: string[] = [];
	const sessions = (n: number) => `${n} session${n === 1 ? "" : "s"}`;
	if (newer > 0) said.push(`${sessions(newer)} recorded by a newer release of AI Conversation Memory ${newer === 1 ? "is" : "are"} left out here: update it on this machine too.`);
	if (older > 0) said.push(`${sessions(older)} recorded by an earlier release ${older === 1 ? "is" : "are"} left out until the next sync brings ${older === 1 ? "it" : "them"} up to date (\`ai-memory sync\`, or "Sync AI conversations" in Obsidian).`);
	if (damaged > 0) said.push(`${sessions(damaged)} whose record in the plugin's state is damaged (a field of another type) ${damaged === 1 ? "is" : "are"} left out here.`);
	return said.length === 0 ? undefined : `(${said.join(" ")})`;
}

export const SEARCH_LIMIT_DEFAULT = 5;
export const SEARCH_LIMIT_MAX = 20;
export const FACTS_LIMIT = 5;

export class RecallTools {
	readonly store: RecallStore;
	private readonly folder: string;
	private settings: { stamp: string; value: Settings } | undefined;

	constructor(private readonly options: RecallToolsOptions) {
		this.folder = pluginFolder(resolve(options.vault), options.configDir);
		this.store = new RecallStore(join(this.folder, "state"));
	}

	async searchSessions(args: { query: string; project?: string; agent?: AgentId; since?: string; limit?: number }): Promise<string> {
		return this.answer("search_sessions", async () => {
			const { settings, projects } = await this.ready(args.project);
			// A day past the clock, as the context block has it: no session starts later (a line dated 2099 stayed on top of the latest for good).
			const notAfter = new Date(this.now().getTime() + 86_400_000).toISOString();
			const filter: SessionFilter = { projects: projects.keys, agent: args.agent, since: args.since === undefined ? undefined : sinceOf(args.since, this.now()), notAfter, excluded: settings.excludedProjects };
			const limit = Math.min(SEARCH_LIMIT_MAX, Math.max(1, Math.floor(args.limit ?? SEARCH_LIMIT_DEFAULT)));
			const hits = this.store.sessions.search(args.query, filter, limit);
			// None since the date or of the agent asked for is not "no sessions recorded yet", which sent the model away from those there are.
			const filtered = [args.agent === undefined ? undefined : `of ${args.agent}`, args.since === undefined ? undefined : `active since ${args.since.trim()}`].filter(Boolean).join(" ");
			const text = hits.length === 0 && args.query.trim() === "" && filtered !== "" ? `${RECALL_HEAD}\n\nNo session ${filtered}.\n` : renderSearchHits(args.query, hits, (s) => entryOf(s, settings.tagPrefix, this.located));
			const note = [projects.note, this.store.unreadable === undefined ? undefined : unreadableState(this.store.unreadable), otherReleaseNote(this.store.leftOut)].filter(Boolean).join(" ");
			return { text: note ? text.replace(RECALL_HEAD, `${RECALL_HEAD} ${note}`) : text, project: projects.label };
		});
	}

	async getSession(args: { id: string; detail?: "summary" | "full" }): Promise<string> {
		return this.answer("get_session", async () => {
			const { settings } = await this.ready(undefined, false);
			const id = args.id.trim().replace(/^`|`$/g, "");
			// As given first: a file named with a blank at either end has it in its id.
			const found = this.store.sessions.byId(args.id) ?? this.store.sessions.byId(id);
			// Excluded since the last sync, which forgets it: not read meanwhile.
			const session = found && !isExcludedSession(found, settings.excludedProjects) ? found : undefined;
			if (!session && this.store.unreadable !== undefined) throw new RecallToolError(unreadableState(this.store.unreadable), "state unreadable");
			if (!session) {
				const leftOut = otherReleaseNote(this.store.leftOut);
				// Several ids begin so: the model is told to give more of it, not that there is none.
				const shared = id.length >= 6 && !found && this.store.sessions.startingWith(id, 50).filter((s) => !isExcludedSession(s, settings.excludedProjects)).length > 1;
				if (shared) throw new RecallToolError(`More than one session's id begins with ${JSON.stringify(id)}: give more of it, or the whole id search_sessions names.`, "ambiguous session id");
				throw new RecallToolError(`No session has the id ${JSON.stringify(id)}${id.length < 6 ? " (give at least its first 6 characters)" : ""}. Find one with search_sessions: each result names its id.${leftOut ? ` ${leftOut}` : ""}`, "unknown session id");
			}
			const whole = args.detail === "full" ? await this.store.wholeDigest(session) : undefined;
			const text = renderSession(session, entryOf(session, settings.tagPrefix, this.located), whole);
			return { text: args.detail === "full" && !whole ? `${text}\n(The whole digest is not available: the session's stored model is gone; this is its summary.)\n` : text, project: session.projectKey ?? session.project };
		});
	}

	async recallFacts(args: { query: string; project?: string; limit?: number }): Promise<string> {
		return this.answer("recall_facts", async () => {
			const { settings } = await this.ready(undefined, false);
			const chosen = this.enabledProjects(settings, args.project);
			const limit = Math.min(SEARCH_LIMIT_MAX, Math.max(1, Math.floor(args.limit ?? FACTS_LIMIT)));
			const found: (FactText & { score: number })[] = [];
			const unreadable: string[] = [];
			for (const project of chosen) {
				const prepared = await this.store.recallIndex(project.path).catch((error: unknown) => {
					// One project's damaged file (cut by a crash, a FIFO) is that project's to say: the others still answer.
					if (chosen.length === 1) throw error;
					unreadable.push(project.path);
					return undefined;
				});
				if (!prepared) continue;
				const { index, context } = prepared;
				for (const { fact, score } of index.recall(args.query, limit)) {
					found.push({ name: fact.name, description: fact.description, type: fact.type, body: context.bodies[fact.file] ?? "", project: chosen.length > 1 ? project.path : undefined, score });
				}
			}
			found.sort((a, b) => b.score - a.score);
			const text = renderFacts(args.query, found.slice(0, limit));
			const note = unreadable.length === 0 ? "" : ` (The facts prepared for ${unreadable.map((p) => JSON.stringify(p)).join(", ")} cannot be read: the next sync writes them again.)`;
			// Put in by a function: a path holding `$&` or `$'` is no replacement pattern.
			return { text: note ? text.replace(RECALL_HEAD, () => `${RECALL_HEAD}${note}`) : text, project: chosen.length === 1 ? chosen[0]!.path : "all" };
		});
	}

	async projectContext(args: { project?: string }): Promise<string> {
		return this.answer("project_context", async () => {
			const { settings } = await this.ready(undefined, false);
			const [project, ...others] = this.enabledProjects(settings, args.project);
			if (!project || others.length > 0) throw new RecallToolError(`Name one project: ${this.enabledList(settings)}.`, "not one enabled project");
			const context = await this.store.hookContext(project.path);
			if (!context) throw new RecallToolError(`No context was prepared for ${project.path} yet: the next sync (\`ai-memory sync\`, or the plugin) prepares it.`, "no context prepared yet");
			return { text: renderProjectContext(project.path, context.packet, context.packetPath), project: project.path };
		});
	}

	/** Runs a tool: its answer redacted, logged with its size; a failure logged and thrown on. */
	private async answer(tool: string, run: () => Promise<{ text: string; project: string }>): Promise<string> {
		try {
			const { text, project } = await run();
			const settings = this.settings?.value;
			// Redacted again, then held to the cap: a pattern added since the sync turned each short code into a longer marker (19,153 characters).
			const out = cutAtLine(settings ? redactorFor(redactionSpec(settings), undefined)(text) : text, RECALL_TEXT_MAX, "… (cut here)\n");
			await this.log(tool, "ok", `project=${project} printed=${Buffer.byteLength(out, "utf8")}B`);
			return out;
		} catch (error) {
			const cwd = this.options.cwd;
			const here = this.settings && cwd !== undefined ? projectForCwd(this.settings.value.projects, cwd)?.path : undefined;
			// A refused request by its reason; a failure by its message, redacted (it may quote a file).
			const message = error instanceof RecallToolError ? error.reason : error instanceof Error ? error.message : String(error);
			const logged = error instanceof RecallToolError ? message : redactorFor(redactionSpec(this.settings?.value ?? DEFAULT_SETTINGS), undefined)(message);
			await this.log(tool, "error", `project=${here ?? cwd ?? "-"} error=${JSON.stringify(logged)}`);
			throw error;
		}
	}

	/** The settings and the state brought up to date, and which projects a search covers. */
	private async ready(project: string | undefined, sessions = true): Promise<{ settings: Settings; projects: { keys?: ReadonlySet<string>; label: string; note?: string } }> {
		const [settings] = await Promise.all([this.loadSettings(), this.store.refresh()]);
		return { settings, projects: sessions ? this.sessionProjects(project) : { label: "" } };
	}

	/** `project` as identities of the state's projects: by name, path, or the folder the agent runs in when unset; `all` is every one. */
	private sessionProjects(project: string | undefined): { keys?: ReadonlySet<string>; label: string; note?: string } {
		const keys = this.store.sessions.projects();
		const byPath = (path: string) => [...keys].filter((k) => isWithin(path, k) || isWithin(k, path));
		const cwd = this.options.cwd;
		if (project === undefined) {
			const here = cwd === undefined ? [] : byPath(cwd);
			if (here.length > 0) return { keys: new Set(here), label: here.join(",") };
			return { label: "all", note: `(${cwd === undefined ? "The folder this server was started in is gone" : `The folder ${cwd} is no known project`}: every project is searched.)` };
		}
		const wanted = project.trim();
		if (wanted === "" || wanted === "all" || wanted === "*") return { label: "all" };
		const named = Object.entries(this.store.projects).filter(([, p]) => p.folder.toLowerCase() === wanted.toLowerCase()).map(([k]) => k);
		const matched = named.length > 0 ? named : /[\\/]/.test(wanted) ? byPath(this.resolved(wanted)) : [];
		if (matched.length === 0) throw new RecallToolError(`No project ${JSON.stringify(wanted)} has sessions. Known projects: ${this.knownList()}; or "all".`, "unknown project");
		return { keys: new Set(matched), label: matched.join(",") };
	}

	/** The enabled projects `project` names (by path, folder name or "all"), or the one the agent runs in. */
	private enabledProjects(settings: Settings, project: string | undefined): ProjectSettings[] {
		// An excluded project's facts and packet stay prepared until the next sync forgets them: not given meanwhile.
		const enabled = settings.projects.filter((p) => p.enabled && !isExcluded(p.path, settings.excludedProjects));
		if (project === undefined) {
			const cwd = this.options.cwd;
			const here = cwd === undefined ? undefined : projectForCwd(enabled, cwd);
			if (!here) throw new RecallToolError(`${cwd === undefined ? "The folder this server was started in is gone" : `The folder ${cwd} is in no enabled project`}; name one: ${this.enabledList(settings)}.`, "the folder is in no enabled project");
			return [here];
		}
		const wanted = project.trim();
		if (wanted === "all" || wanted === "*") return enabled;
		const folders = new Map(Object.entries(this.store.projects).map(([k, p]) => [p.folder.toLowerCase(), k]));
		const key = folders.get(wanted.toLowerCase());
		const found = enabled.filter((p) => (key !== undefined && (isWithin(p.path, key) || isWithin(key, p.path))) || (/[\\/]/.test(wanted) && isWithin(this.resolved(wanted), p.path)));
		if (found.length === 0) throw new RecallToolError(`No enabled project ${JSON.stringify(wanted)}: ${this.enabledList(settings)}.`, "unknown enabled project");
		return found;
	}

	private enabledList(settings: Settings): string {
		const paths = settings.projects.filter((p) => p.enabled).map((p) => p.path);
		return paths.length === 0 ? "none is enabled (`ai-memory projects add <path>`)" : `the enabled ones are ${paths.slice(0, 20).map((p) => JSON.stringify(p)).join(", ")}${paths.length > 20 ? ", …" : ""}`;
	}

	private knownList(): string {
		const names = [...new Set(Object.values(this.store.projects).map((p) => p.folder))].sort();
		return names.length === 0 ? "none yet" : `${names.slice(0, 20).map((n) => JSON.stringify(n)).join(", ")}${names.length > 20 ? ", …" : ""}`;
	}

	/** A path the agent gave, from the folder it runs in (from the root when that folder is gone: only an absolute one means anything then). */
	private resolved(path: string): string {
		return resolve(this.options.cwd ?? "/", path);
	}

	private readonly located = (notePath: string) => `${resolve(this.options.vault)}/${notePath}`;

	private async loadSettings(): Promise<Settings> {
		const path = join(this.folder, "data.json");
		const info = await stat(path).catch(() => undefined);
		const stamp = info ? `${info.ino}:${info.size}:${info.mtimeMs}` : "none";
		if (this.settings?.stamp !== stamp) this.settings = { stamp, value: await this.options.loadSettings(path, this.options.host ?? hostname()) };
		return this.settings.value;
	}

	private now(): Date {
		return (this.options.now ?? (() => new Date()))();
	}

	private async log(tool: string, status: "ok" | "error", detail: string): Promise<void> {
		if (!(await stat(this.folder).then((s) => s.isDirectory(), () => false))) return;
		await appendHookLog(this.folder, { at: this.now().toISOString(), hook: `mcp:${tool}`, status, detail });
	}
}

/** `since` as an ISO prefix: a date (`2026-11-01`), a date-time, or days back (`7d`), weeks (`2w`). */
export function sinceOf(value: string, now: Date): string {
	const text = value.trim();
	const relative = /^(\d{1,4})\s*([dw])$/i.exec(text);
	if (relative) return new Date(now.getTime() - Number(relative[1]) * (relative[2]!.toLowerCase() === "w" ? 7 : 1) * 86_400_000).toISOString();
	if (/^\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?)?$/.test(text) && !Number.isNaN(Date.parse(text.replace(" ", "T")))) {
		if (text.length === 10) return text;
		// Compared as text: a time past the year 9999 in UTC (`9999-12-31T23:00-05:00`) is `+010000-…`, before every date, and listed every session.
		const iso = new Date(Date.parse(text.replace(" ", "T"))).toISOString();
		return iso.startsWith("+") ? "9999-12-31T23:59:59.999Z" : iso;
	}
	throw new RecallToolError(`since ${JSON.stringify(value)} is no date: give one like 2026-11-01, 2026-11-01T09:00Z, or days back like 7d (weeks: 2w).`, "since is no date");
}
