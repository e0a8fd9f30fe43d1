/**
 * Runs the real Claude Code CLI (`claude -p`) against a stub API in a throwaway HOME.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import { ensureClaudeCode } from "./claude-install.js";
import { startStub, type Stub, type StubScript } from "./stub-server.js";

export interface RunClaudeOptions {
	/** The fake HOME: transcripts land in `<home>/.claude/projects/...`, settings/hooks are read from `<home>/.claude/settings.json`. */
	home: string;
	/** The project folder Claude Code runs in. */
	cwd: string;
	/**
	 * The prompt. Several prompts run as successive user turns of ONE session in one
	 * process (`--input-format stream-json`); each waits for the previous turn to finish.
	 */
	prompt: string | string[];
	/** Continue this session id (`--resume <id>`): the new prompt(s) append to the same transcript. */
	resume?: string;
	/** A running stub to talk to, or a script to run a fresh stub for this one call. */
	stub?: Stub;
	script?: StubScript;
	/** Extra CLI arguments (e.g. `["--model", "claude-sonnet-4-5"]`). */
	extraArgs?: string[];
	/** Extra/override environment variables (undefined deletes one). */
	env?: Record<string, string | undefined>;
	/** Kill the process after this long. Default 120 s. */
	timeoutMs?: number;
	/** Skip `--dangerously-skip-permissions` (default: pass it). */
	noSkipPermissions?: boolean;
}

export interface RunClaudeResult {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** The session id (from the JSON result on stdout, else from the transcript found). */
	sessionId: string | undefined;
	/** `<home>/.claude/projects/<encoded-cwd>/<sessionId>.jsonl`, if it exists. */
	transcriptPath: string | undefined;
	/** The parsed `result` message(s) Claude Code printed (one per prompt). */
	results: Array<Record<string, unknown>>;
	durationMs: number;
	/** The stub used (the one passed in, or the temporary one, already closed). */
	stub: Stub;
}

/** Env vars of the calling process that must not leak into the child (they would redirect it or change its mode). */
const SCRUB_RE = /^(ANTHROPIC_|CLAUDE|OTEL_|AWS_BEARER_TOKEN_BEDROCK|VERTEX_|CLOUD_ML_|MCP_|DISABLE_|IS_SANDBOX|NODE_OPTIONS)/;

/** The environment the harness runs Claude Code with. */
export function claudeEnv(home: string, baseUrl: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!SCRUB_RE.test(k)) env[k] = v;
	Object.assign(env, {
		HOME: home,
		ANTHROPIC_BASE_URL: baseUrl,
		ANTHROPIC_API_KEY: "sk-ant-e2e-stub-key",
		// We run as root in CI; --dangerously-skip-permissions refuses root unless sandboxed.
		IS_SANDBOX: "1",
		// No telemetry, error reporting, feature-flag fetches, update checks or other side traffic.
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
		DISABLE_AUTOUPDATER: "1",
		DISABLE_TELEMETRY: "1",
		DISABLE_ERROR_REPORTING: "1",
		CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1",
		// No terminal title escapes in stdout.
		CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
		// Task outputs etc. go to <tmp>/claude-<uid>/<encoded-cwd>/<session>/; keep them inside the temp HOME.
		CLAUDE_CODE_TMPDIR: join(home, "tmp"),
	});
	for (const [k, v] of Object.entries(extra)) {
		if (v === undefined) delete env[k];
		else env[k] = v;
	}
	return env;
}

/** Claude Code's folder name for a project cwd: every character but [A-Za-z0-9] becomes '-'. */
export function encodeProjectDir(cwd: string): string {
	return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

export interface TranscriptFile {
	/** Absolute path of the .jsonl. */
	path: string;
	/** Path relative to `<home>/.claude/projects`. */
	relPath: string;
	/** The `<encoded-cwd>` folder name. */
	project: string;
	/** Session id: the file name for a main transcript, the parent session folder for a sub-agent. */
	sessionId: string;
	/** For sub-agent transcripts (`<session>/subagents/agent-<id>.jsonl`): the agent id. */
	agentId?: string;
	size: number;
}

/** All transcripts under `<home>/.claude/projects`, main sessions and sub-agents, sorted by path. */
export function listTranscripts(home: string): TranscriptFile[] {
	const root = join(home, ".claude", "projects");
	const out: TranscriptFile[] = [];
	const walk = (dir: string): void => {
		if (!existsSync(dir)) return;
		for (const ent of readdirSync(dir, { withFileTypes: true })) {
			const p = join(dir, ent.name);
			if (ent.isDirectory()) walk(p);
			else if (ent.isFile() && ent.name.endsWith(".jsonl")) {
				const relPath = relative(root, p);
				const parts = relPath.split(sep);
				const project = parts[0] ?? "";
				const agent = /^agent-(.+)\.jsonl$/.exec(ent.name);
				const sessionId = parts.length > 2 ? (parts[1] ?? "") : ent.name.replace(/\.jsonl$/, "");
				out.push({ path: p, relPath, project, sessionId, agentId: agent ? agent[1] : undefined, size: statSync(p).size });
			}
		}
	};
	walk(root);
	return out.sort((a, b) => a.relPath.localeCompare(b.relPath));
}

/** Make a fresh temp dir (HOME, project, ...). */
export function makeTempDir(prefix = "cc-e2e-"): string {
	return mkdtempSync(join(tmpdir(), prefix));
}

/** Messages Claude Code printed: a JSON array (`json` + `--verbose`), one object (`json`), or JSON lines (`stream-json`). */
export function parseClaudeStdout(stdout: string): Array<Record<string, unknown>> {
	const whole = stdout.trim();
	if (whole.startsWith("[") || whole.startsWith("{")) {
		try {
			const v = JSON.parse(whole) as unknown;
			if (Array.isArray(v)) return v as Array<Record<string, unknown>>;
			if (v && typeof v === "object") return [v as Record<string, unknown>];
		} catch {
			// several lines: fall through
		}
	}
	const out: Array<Record<string, unknown>> = [];
	for (const line of stdout.split("\n")) {
		const t = line.trim();
		if (!t.startsWith("{")) continue;
		try {
			out.push(JSON.parse(t) as Record<string, unknown>);
		} catch {
			// not JSON
		}
	}
	return out;
}

export async function runClaude(opts: RunClaudeOptions): Promise<RunClaudeResult> {
	const bin = ensureClaudeCode();
	const ownStub = opts.stub === undefined;
	const stub = opts.stub ?? (await startStub(opts.script ?? { rules: [] }));
	if (!ownStub && opts.script) stub.setScript(opts.script);
	mkdirSync(opts.home, { recursive: true });
	mkdirSync(opts.cwd, { recursive: true });

	const prompts = Array.isArray(opts.prompt) ? opts.prompt : [opts.prompt];
	const multi = prompts.length > 1;
	const args = ["-p", "--verbose", "--output-format", multi ? "stream-json" : "json"];
	if (multi) args.push("--input-format", "stream-json");
	if (!opts.noSkipPermissions) args.push("--dangerously-skip-permissions");
	if (opts.resume) args.push("--resume", opts.resume);
	args.push(...(opts.extraArgs ?? []));
	if (!multi) args.push("--", prompts[0] ?? "");

	const started = Date.now();
	const child = spawn(bin, args, {
		cwd: opts.cwd,
		env: claudeEnv(opts.home, stub.url, opts.env),
		stdio: ["pipe", "pipe", "pipe"],
	});
	let stdout = "";
	let stderr = "";
	child.stdout.setEncoding("utf8");
	child.stderr.setEncoding("utf8");
	const results: Array<Record<string, unknown>> = [];
	let pending = multi ? prompts.slice() : [];
	const sendNext = (): void => {
		const next = pending.shift();
		if (next === undefined) {
			child.stdin.end();
			return;
		}
		child.stdin.write(JSON.stringify({ type: "user", message: { role: "user", content: next } }) + "\n");
	};
	let lineBuf = "";
	child.stdout.on("data", (chunk: string) => {
		stdout += chunk;
		if (!multi) return;
		lineBuf += chunk;
		let nl: number;
		while ((nl = lineBuf.indexOf("\n")) >= 0) {
			const line = lineBuf.slice(0, nl);
			lineBuf = lineBuf.slice(nl + 1);
			// One `result` per finished turn: send the next prompt then.
			if (line.includes('"type":"result"')) sendNext();
		}
	});
	child.stderr.on("data", (c: string) => (stderr += c));
	child.stdin.on("error", () => {
		// The process may exit before reading all prompts (EPIPE); its exit code tells.
	});
	if (multi) sendNext();
	else child.stdin.end();

	const timeoutMs = opts.timeoutMs ?? 120_000;
	const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			pending = [];
		}, timeoutMs);
		child.on("error", (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on("close", (c, s) => {
			clearTimeout(timer);
			resolve({ code: c, signal: s });
		});
	});
	if (ownStub) await stub.close();

	for (const msg of parseClaudeStdout(stdout)) if (msg.type === "result") results.push(msg);
	let sessionId = [...results].reverse().map((r) => r.session_id).find((s): s is string => typeof s === "string") ?? opts.resume;
	let transcriptPath: string | undefined;
	const mains = listTranscripts(opts.home).filter((t) => t.agentId === undefined);
	if (sessionId) transcriptPath = mains.find((t) => t.sessionId === sessionId)?.path;
	else if (mains.length === 1) {
		transcriptPath = mains[0]?.path;
		sessionId = mains[0]?.sessionId;
	}
	if (signal === "SIGKILL" && Date.now() - started >= timeoutMs) stderr += `\n[runClaude] killed after ${timeoutMs} ms timeout`;
	return { exitCode: code, signal, stdout, stderr, sessionId, transcriptPath, results, durationMs: Date.now() - started, stub };
}
