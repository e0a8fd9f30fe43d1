/**
 * Runs the real Codex CLI (`codex exec`) against the Responses API stub in a throwaway CODEX_HOME.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./claude-install.js";
import { ensureCodex } from "./codex-install.js";
import type { CodexStub } from "./codex-stub.js";
import { collectProcess } from "./collect-process.js";

export interface RunCodexOptions {
	/** CODEX_HOME: `config.toml` is (re)written here; sessions land in `<codexHome>/sessions/YYYY/MM/DD/rollout-*.jsonl`. */
	codexHome: string;
	/** The project folder Codex runs in (its AGENTS.md is sent to the model). */
	cwd: string;
	prompt: string;
	stub: CodexStub;
	/**
	 * The model asked for. Default `gpt-5.5`: it gets classic function tools (`exec_command`), so a
	 * scripted shell call is one `function_call`; the CLI's default model (gpt-6.2-sol) uses "code
	 * mode", a JavaScript `exec` tool.
	 */
	model?: string;
	/** HOME for the child. Default: `codexHome`. */
	home?: string;
	extraArgs?: string[];
	/** Extra/override environment variables (undefined deletes one). */
	env?: Record<string, string | undefined>;
	/** Kill the process after this long. Default 120 s. */
	timeoutMs?: number;
}

export interface RunCodexResult {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** `thread.started.thread_id` from `--json` stdout: the session id (and the rollout file's uuid). */
	sessionId: string | undefined;
	/** `<codexHome>/sessions/…/rollout-…-<sessionId>.jsonl`, if it exists. */
	rolloutPath: string | undefined;
	/** The `--json` events Codex printed. */
	events: Array<Record<string, unknown>>;
	durationMs: number;
}

/**
 * A fresh CODEX_HOME under `<repo>/.cache/codex-homes/`. Not under /tmp: there Codex declines to
 * create the helper PATH aliases it keeps in CODEX_HOME, and warns.
 */
export function makeCodexHome(prefix = "home-"): string {
	const parent = join(repoRoot(), ".cache", "codex-homes");
	mkdirSync(parent, { recursive: true });
	return mkdtempSync(join(parent, prefix));
}

/** A provider pointing at the stub over plain HTTP + SSE, and nothing that phones home. */
export function writeCodexConfig(codexHome: string, stubUrl: string, model: string): void {
	mkdirSync(codexHome, { recursive: true });
	writeFileSync(
		join(codexHome, "config.toml"),
		[
			`model = ${JSON.stringify(model)}`,
			'model_provider = "stub"',
			"check_for_update_on_startup = false",
			"",
			"[analytics]",
			"enabled = false",
			"",
			"[feedback]",
			"enabled = false",
			"",
			// Else 0.171.0 looks up api.github.com and chatgpt.com at start-up.
			"[features]",
			"plugins = false",
			"",
			"[model_providers.stub]",
			'name = "stub"',
			`base_url = ${JSON.stringify(`${stubUrl}/v1`)}`,
			'wire_api = "responses"',
			'env_key = "OPENAI_API_KEY"',
			"",
		].join("\n"),
	);
}

/** Env vars of the calling process that would redirect Codex or change its mode. */
const SCRUB_RE = /^(OPENAI_|CODEX_|OTEL_|AZURE_OPENAI|NODE_OPTIONS)/;

export function codexEnv(codexHome: string, packageRoot: string, home = codexHome, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!SCRUB_RE.test(k)) env[k] = v;
	Object.assign(env, {
		CODEX_HOME: codexHome,
		HOME: home,
		OPENAI_API_KEY: "sk-e2e-stub-key",
		NO_COLOR: "1",
		// What `bin/codex.js` (the npm launcher) sets before it execs the native binary.
		CODEX_MANAGED_BY_NPM: "1",
		CODEX_MANAGED_PACKAGE_ROOT: packageRoot,
	});
	for (const [k, v] of Object.entries(extra)) {
		if (v === undefined) delete env[k];
		else env[k] = v;
	}
	return env;
}

/** Every rollout file under `<codexHome>/sessions`, sorted by path. */
export function listRollouts(codexHome: string): string[] {
	const root = join(codexHome, "sessions");
	if (!existsSync(root)) return [];
	return readdirSync(root, { recursive: true })
		.map((f) => join(root, String(f)))
		.filter((p) => /rollout-.*\.jsonl$/.test(p))
		.sort();
}

export async function runCodex(opts: RunCodexOptions): Promise<RunCodexResult> {
	const codex = ensureCodex();
	writeCodexConfig(opts.codexHome, opts.stub.url, opts.model ?? "gpt-5.5");
	mkdirSync(opts.cwd, { recursive: true });
	// The npm launcher only picks the platform binary and execs it; we run that binary directly so a
	// timeout kills the one process that does the work.
	const args = ["exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", "--json", ...(opts.extraArgs ?? []), opts.prompt];
	const started = Date.now();
	const child = spawn(codex.bin, args, {
		cwd: opts.cwd,
		env: codexEnv(opts.codexHome, codex.packageRoot, opts.home, opts.env),
		// stdin closed: with a pipe `codex exec` waits to read more prompt from it.
		stdio: ["ignore", "pipe", "pipe"],
	});
	const timeoutMs = opts.timeoutMs ?? 120_000;
	const { code, signal, stdout, stderr: written } = await collectProcess(child, timeoutMs);
	const events: Array<Record<string, unknown>> = [];
	for (const line of stdout.split("\n")) {
		if (!line.trim().startsWith("{")) continue;
		try {
			events.push(JSON.parse(line) as Record<string, unknown>);
		} catch {
			// not JSON
		}
	}
	const sessionId = events.find((e) => e.type === "thread.started" && typeof e.thread_id === "string")?.thread_id as string | undefined;
	const rolloutPath = sessionId ? listRollouts(opts.codexHome).find((p) => p.endsWith(`-${sessionId}.jsonl`)) : undefined;
	const stderr = signal === "SIGKILL" && Date.now() - started >= timeoutMs ? `${written}\n[runCodex] killed after ${timeoutMs} ms timeout` : written;
	return { exitCode: code, signal, stdout, stderr, sessionId, rolloutPath, events, durationMs: Date.now() - started };
}

