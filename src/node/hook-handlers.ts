import { isDirectory, noFolder } from "./absent-folder";
import { terminalText } from "../core/text/terminal-text";
import { mkdir, realpath } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { HookEvent } from "../core/hooks/hook-settings";
import { evaluateRecallTrigger, promptEnds, type TriggerDecision } from "../core/hooks/recall-triggers";
import { isExcluded, type ProjectSettings, type Settings } from "../core/settings";
import { appendHookLog, logDetail } from "./hook-log";
import { projectForCwd, readHookContext } from "./hook-project";
import { pluginFolder } from "./plugin-paths";

/**
 * `ai-memory hook <name>`: what runs when Claude Code fires one of our hooks. Each reads the hook's
 * JSON from stdin and answers fast; plain stdout (what SessionStart and UserPromptSubmit print
 * reaches the model) is the only output. They fail open: any error gives no output and exit code 0
 * (Claude Code goes on as if there were no hook) and a line in `<plugin folder>/hooks.log`.
 */

const HOOK_NAMES = {
	"session-start": "SessionStart",
	"user-prompt-submit": "UserPromptSubmit",
	"session-end": "SessionEnd",
	"pre-compact": "PreCompact",
	"instructions-loaded": "InstructionsLoaded",
} as const satisfies Record<string, HookEvent>;
export type HookName = keyof typeof HOOK_NAMES;

/** The `ai-memory hook` argument for an event: `SessionStart` → `session-start`. */
export function hookNameOf(event: HookEvent): HookName {
	return (Object.keys(HOOK_NAMES) as HookName[]).find((name) => HOOK_NAMES[name] === event)!;
}

/** The fields of Claude Code's hook input we read (docs/hooks.md; see ../shared/research/anchors-mission.md §1.4). */
export interface HookInput {
	session_id?: string;
	transcript_path?: string;
	cwd?: string;
	hook_event_name?: string;
	prompt?: string;
	source?: string;
	trigger?: string;
	reason?: string;
	/** InstructionsLoaded: the file loaded, its kind (`Project`, `Local`, `User`, `Managed`) and why (`session_start`, `compact`, `include`…). */
	file_path?: string;
	memory_type?: string;
	load_reason?: string;
}

export interface HookRunOptions {
	/** `--vault`; missing is an error (logged nowhere but stderr: there is no vault to log into). */
	vault: string | undefined;
	configDir?: string;
	/** What Claude Code wrote on stdin. */
	stdin: string;
	/** The CLI script, for the background sync. */
	cliPath: string;
	/** Reads data.json as this device sees it (the CLI's `loadSettings`); throws when it is not JSON. */
	loadSettings: (dataJson: string, host: string) => Promise<Settings>;
	/** Starts a detached `ai-memory sync` with these arguments; its pid, when known. Default: a detached child of this Node. */
	startSync?: (args: string[]) => number | undefined | Promise<number | undefined>;
	now?: () => Date;
	/** This device's host name (settings are per device). */
	host?: string;
	/** Where a failure goes when there is no vault to log into. Default: stderr. */
	warn?: (line: string) => void;
}

export interface HookRunResult {
	/** What to print (may be empty). */
	output: string;
	ok: boolean;
}

/** Runs one hook; never throws. */
export async function runHook(name: string, options: HookRunOptions): Promise<HookRunResult> {
	const now = options.now ?? (() => new Date());
	const folder = options.vault ? pluginFolder(resolve(options.vault), options.configDir) : undefined;
	/** `own`: the start of the line, from the user's own settings (a project's path), not redacted. */
	const log = async (status: "ok" | "error", detail: string, own = "") => {
		// Cut first as the line will be: redacting megabytes of a path from stdin took seconds.
		const entry = { at: now().toISOString(), hook: name, status, detail: `${own}${await redactLogDetail(logDetail(detail))}` };
		if (folder && (await canLog(folder))) await appendHookLog(folder, entry);
		else if (status === "error") (options.warn ?? ((line: string) => process.stderr.write(line)))(`ai-memory hook ${name}: ${detail}\n`);
	};
	try {
		if (!Object.hasOwn(HOOK_NAMES, name)) throw new Error(`unknown hook "${name}" (expected ${Object.keys(HOOK_NAMES).join(", ")})`);
		if (!options.vault || !folder) throw new Error("no --vault given");
		const vault = resolve(options.vault);
		if (!(await isDirectory(vault))) throw new Error(await noFolder("vault folder", vault));
		const input = parseInput(options.stdin);
		const settings = await options.loadSettings(join(folder, "data.json"), options.host ?? hostname());
		const cwd = typeof input.cwd === "string" && input.cwd !== "" ? input.cwd : process.cwd();
		const project = projectForCwd(settings.projects, cwd);
		// An excluded project stores nothing, even when it is enabled too; what was prepared for it stays until the next sync forgets it, and is not printed meanwhile.
		const excluded = project !== undefined && (isExcluded(project.path, settings.excludedProjects) || isExcluded(cwd, settings.excludedProjects));
		const ctx: HandlerContext = { ...options, name: name as HookName, vault, folder, stateDir: join(folder, "state"), input, settings, cwd, project, excluded, now };
		const handled = await HANDLERS[name as HookName](ctx);
		// What reaches the model and the terminal: terminal escapes and control characters from transcripts and facts aside, a bare CR shown (it overwrote the line before it).
		const output = terminalText(handled.output);
		const detail = handled.detail;
		// An enabled project's path is the user's setting: checked for secrets, a long folder name (most
		// are) loaded the redactor at every prompt, which was a fifth of the hook's time. A cwd is from stdin.
		const own = project ? `project=${project.path}` : "";
		const where = project ? "" : `project=- cwd=${cwd}`;
		// The session, so that `doctor` can tell what reached the last one (an id is letters, digits and dashes).
		const session = typeof input.session_id === "string" && isSessionId(input.session_id) ? ` session=${input.session_id}` : "";
		await log("ok", `${where}${session}${detail ? ` ${detail}` : ""} printed=${Buffer.byteLength(output, "utf8")}B`, own);
		return { output, ok: true };
	} catch (error) {
		await log("error", error instanceof Error ? error.message : String(error));
		return { output: "", ok: false };
	}
}

interface HandlerContext extends HookRunOptions {
	name: HookName;
	vault: string;
	folder: string;
	stateDir: string;
	input: HookInput;
	settings: Settings;
	cwd: string;
	project: ProjectSettings | undefined;
	/** The project, or the folder the hook runs in, is excluded. */
	excluded: boolean;
	now: () => Date;
}

type Handler = (ctx: HandlerContext) => Promise<{ output: string; detail?: string }>;

/**
 * What hooks.log keeps of a field Claude Code sends as one of its names (`startup`, `prompt_input_exit`,
 * `session_start`, `manual`): such a name, or `other`. The log is read by people and by `doctor`; a
 * value of any other shape is text from elsewhere, and could be a secret.
 */
function logWord(value: unknown): string {
	return typeof value === "string" && /^[a-z][a-z_]{0,39}$/.test(value) ? value : "other";
}

/**
 * What hooks.log keeps of a detail: a path from stdin (the `cwd` of a folder that is no project,
 * an InstructionsLoaded `file_path`) or an error naming one (`ENOENT … open '<transcript_path>'`)
 * can hold a secret, and kept it whole. The built-in rules, whatever the settings (the log is ours,
 * and an error may come before they are read); loaded only for a line with a long word (a UUID
 * aside), which most lines have not.
 */
async function redactLogDetail(detail: string): Promise<string> {
	if (!/[\w+=-]{16,}/.test(detail.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ""))) return detail;
	try {
		const { createRedactor } = await import("../core/digest/redact");
		return createRedactor().redact(detail);
	} catch {
		// The redactor could not be loaded (the hook's rest missing, see esbuild.config.mjs): the
		// line is kept, every long word in it masked, so the log still says what went wrong.
		return detail.replace(/[\w+=-]{16,}/g, "\u2026");
	}
}

/**
 * A session id the log may keep: Claude Code's are UUIDs; a short word is kept too. A longer one
 * could be a secret (`ghp_…` has the shape of an id, and was kept whole in hooks.log): not logged.
 */
function isSessionId(value: string): boolean {
	return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) || /^[\w-]{1,16}$/.test(value);
}

const HANDLERS: Record<HookName, Handler> = {
	/**
	 * Lazy mode: the facade, when the project's files could not take it (CLAUDE.md brings it
	 * otherwise, and the model would read it twice). Only reads a file.
	 */
	"session-start": async ({ project, excluded, stateDir, input, cwd, settings }) => {
		const source = input.source === undefined ? "" : ` source=${logWord(input.source)}`;
		if (!project) return { output: "", detail: source.trim() };
		if (excluded) return { output: "", detail: `excluded${source}` };
		if (project.mode !== "lazy") return { output: "", detail: `mode=eager${source}` };
		const context = await readHookContext(stateDir, project.path);
		if (!context) return { output: "", detail: `mode=lazy${source} no-context-yet` };
		// A session in the project's folder loads its CLAUDE.md; one in a linked worktree elsewhere does not.
		if (context.blockInFile !== false && (await isInside(cwd, project.path))) return { output: "", detail: `mode=lazy${source} facade=in-file` };
		const redact = await redactionNow(settings, project.path);
		return { output: context.facade === "" ? "" : withNewline(redact(context.facade)), detail: `mode=lazy${source} facade=printed` };
	},

	/** The packet and the facts recall picks, when the prompt asks for the past or is a multi-step task. */
	"user-prompt-submit": async ({ project, excluded, stateDir, input, settings }) => {
		if (!project) return { output: "" };
		if (excluded) return { output: "", detail: "excluded" };
		const prompt = promptEnds(typeof input.prompt === "string" ? input.prompt : "");
		const decision = evaluateRecallTrigger(prompt, project.triggers ?? {});
		const why = describe(decision);
		if (!decision.fire) return { output: "", detail: why };
		const context = await readHookContext(stateDir, project.path);
		if (!context) return { output: "", detail: `${why} no-context-yet` };
		// Loaded only when recall fires: a hook runs on every prompt, and most print nothing.
		const [{ RecallIndex }, { RECALL_FACTS, recallOutput }, redact] = await Promise.all([import("../core/memory/recall"), import("../core/hooks/hook-output"), redactionNow(settings, project.path)]);
		const hits = RecallIndex.restore(context.recall).recall(prompt, RECALL_FACTS);
		const facts = hits.map(({ fact }) => ({ name: redact(fact.name), description: redact(fact.description), type: fact.type, body: redact(context.bodies[fact.file] ?? "") }));
		return { output: withNewline(recallOutput(redact(context.packet), context.packetPath, facts)), detail: `${why} facts=${facts.length}` };
	},

	/** Notes and CLAUDE.md brought up to date in the background: Claude Code gives SessionEnd hooks 1.5 s in all. */
	"session-end": async (ctx) => {
		const reason = ctx.input.reason === undefined ? "" : `reason=${logWord(ctx.input.reason)}`;
		return { output: "", detail: [reason, await backgroundSync(ctx)].filter(Boolean).join(" ") };
	},

	/**
	 * What Claude Code loaded into the session's instructions: whether it is a file that carries the
	 * project's block. Prints nothing (Claude Code uses no output of this hook).
	 */
	"instructions-loaded": async ({ project, input }) => {
		const file = typeof input.file_path === "string" ? input.file_path : "";
		const reason = input.load_reason === undefined ? "" : ` reason=${logWord(input.load_reason)}`;
		if (!project || file === "") return { output: "", detail: `block=no${reason}` };
		const ours = (await Promise.all([project.target, ...(project.alsoWriteTo ?? [])].map((name) => sameFile(join(project.path, name), file)))).some(Boolean);
		return { output: "", detail: `block=${ours ? "yes" : "no"} file=${JSON.stringify(file)}${reason}` };
	},

	/** A resume point for the facade from the end of the transcript, then the same background sync. */
	"pre-compact": async (ctx) => {
		const { project, excluded, input, stateDir, settings, now } = ctx;
		const parts: string[] = input.trigger === undefined ? [] : [`trigger=${logWord(input.trigger)}`];
		// A checkpoint (its last prompt and reply) is stored too: not for an excluded project.
		let transcript: string | undefined;
		if (excluded) parts.push("checkpoint=excluded");
		else if (project && typeof input.session_id === "string" && (transcript = ownTranscript(input)) !== undefined) {
			const [{ checkpointFromTranscript, writeCheckpoint }, { redactionSpec, redactorFor }, { confineStateFolder }] = await Promise.all([import("./checkpoints"), import("../core/ingest/redaction-policy"), import("./state-folder")]);
			const checkpoint = await checkpointFromTranscript(transcript, now().toISOString(), redactorFor(redactionSpec(settings), project.path), ctx.cwd);
			if (checkpoint) {
				await confineStateFolder(stateDir);
				await writeCheckpoint(stateDir, input.session_id, checkpoint);
				parts.push(`checkpoint=${isSessionId(input.session_id) ? input.session_id : "written"}`);
			} else parts.push("checkpoint=none");
		}
		parts.push(await backgroundSync(ctx));
		return { output: "", detail: parts.join(" ") };
	},
};

/**
 * The redaction the settings ask for now, for what a hook prints: the sync redacted the hook context
 * with the rules of its time, and a pattern added since (a company's key format) reached the model
 * until the next sync. Loaded only for a hook that prints, as the MCP tools redact each answer.
 */
async function redactionNow(settings: Settings, projectPath: string): Promise<(text: string) => string> {
	const { redactionSpec, redactorFor } = await import("../core/ingest/redaction-policy");
	return redactorFor(redactionSpec(settings), projectPath);
}

/** Starts `ai-memory sync` for the vault, detached; returns what the log says about it. */
async function backgroundSync({ input, settings, cwd, vault, configDir, cliPath, startSync, stateDir }: HandlerContext): Promise<string> {
	if (isExcluded(cwd, settings.excludedProjects)) return "sync=excluded";
	// One waiting for the lock reads this session as it is now: thirty sessions ending at once started thirty syncs.
	const { joinSyncQueue } = await import("./sync-queue");
	const place = await joinSyncQueue(stateDir);
	if (!place) return "sync=queued";
	const args = [cliPath, "sync", "--vault", vault, "--by", "hook"];
	if (configDir && configDir !== ".obsidian") args.push("--config-dir", configDir);
	const claudeDir = claudeDirOf(ownTranscript(input));
	if (claudeDir) args.push("--claude-dir", claudeDir);
	const pid = await (startSync ?? startDetached)(args);
	await (pid === undefined ? place.leave() : place.handTo(pid));
	return "sync=started";
}

/**
 * The session's transcript as Claude Code names it, `<claude dir>/projects/<folder>/<session id>.jsonl`;
 * undefined for any other path (a forged `transcript_path` took another project's transcript into
 * this one's checkpoint, and any folder's for the background sync's Claude Code folder), and for a
 * session id not of Claude Code's shape.
 */
function ownTranscript(input: HookInput): string | undefined {
	const path = input.transcript_path;
	// An id of Claude Code's shape only: the checkpoint is stored by it (a `ghp_…` id named its file and its state key).
	if (typeof path !== "string" || typeof input.session_id !== "string" || !isSessionId(input.session_id)) return undefined;
	const full = resolve(path);
	// Claude Code names it by its plain path: one spelled with `..` is not its own, and led out of Claude Code's folder into any other `projects/<folder>/`.
	if (path.split(/[\\/]/).some((part) => part === ".." || part === ".")) return undefined;
	return basename(full) === `${input.session_id}.jsonl` && basename(dirname(dirname(full))) === "projects" ? full : undefined;
}

/** `<claude dir>/projects/<folder>/<session>.jsonl` → `<claude dir>`: the Claude Code that ran, whatever our defaults say. */
export function claudeDirOf(transcriptPath: unknown): string | undefined {
	if (typeof transcriptPath !== "string" || !transcriptPath.endsWith(".jsonl")) return undefined;
	const projects = dirname(dirname(resolve(transcriptPath)));
	return basename(projects) === "projects" ? dirname(projects) : undefined;
}

/** A child that outlives this process and Claude Code's hook timeout: own process group, no pipes. Its pid, once started. */
function startDetached(args: string[]): number | undefined {
	// Loaded here only: the hooks that print (on every prompt) never start a process. A `require`,
	// not `import()`: the bundles run through V8's code cache, as a script (see `node/code-cache`).
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use
	const { spawn } = require("node:child_process") as typeof import("node:child_process");
	const child = spawn(process.execPath, args, { detached: true, stdio: "ignore", windowsHide: true });
	child.on("error", () => undefined);
	child.unref();
	return child.pid;
}

function parseInput(stdin: string): HookInput {
	let data: unknown;
	try {
		data = JSON.parse(stdin);
	} catch {
		// Its length only: the message goes to hooks.log, and the input may hold a prompt with a secret.
		throw new Error(`the hook input on stdin is not JSON (${stdin.length} characters)`);
	}
	if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Error("the hook input on stdin is not a JSON object");
	return data;
}

/** Why recall ran or not, without the words that matched: a pattern's match can take a word of the prompt next to it (an access key, lowercased). */
function describe(decision: TriggerDecision): string {
	return `trigger=${decision.reason}`;
}

/** `path` is `folder` or lies inside it, by path or by real path. */
async function isInside(path: string, folder: string): Promise<boolean> {
	const within = (p: string, f: string) => p === f || p.startsWith(f.endsWith(sep) ? f : `${f}${sep}`);
	if (within(resolve(path), resolve(folder))) return true;
	const [rp, rf] = await Promise.all([realpath(path).catch(() => undefined), realpath(folder).catch(() => undefined)]);
	return rp !== undefined && rf !== undefined && within(rp, rf);
}

/** The same file by path, or by its real path (a project reached through a symlink). */
async function sameFile(a: string, b: string): Promise<boolean> {
	if (resolve(a) === resolve(b)) return true;
	const [ra, rb] = await Promise.all([realpath(a).catch(() => undefined), realpath(b).catch(() => undefined)]);
	return ra !== undefined && ra === rb;
}

function withNewline(text: string): string {
	return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}


/** The plugin folder exists, or is made when the vault does (never a vault folder where there is none). */
async function canLog(folder: string): Promise<boolean> {
	if (await isDirectory(folder)) return true;
	// <vault>/<config>/plugins/<id>: the vault is three levels up.
	if (!(await isDirectory(dirname(dirname(dirname(folder)))))) return false;
	return mkdir(folder, { recursive: true }).then(() => true, () => false);
}
