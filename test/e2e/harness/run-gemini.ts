/**
 * Runs the real Gemini CLI (`gemini -p … --output-format json`) against the Generative Language API
 * stub (`gemini-stub.ts`) with a throwaway HOME.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureGeminiCli } from "./gemini-install.js";
import type { GeminiRecordedRequest, GeminiStub } from "./gemini-stub.js";
import { collectProcess } from "./collect-process.js";

export interface RunGeminiOptions {
	/** HOME for the child: settings are (re)written to `<home>/.gemini/settings.json`; sessions land in `<home>/.gemini/tmp/<slug>/chats/`. */
	home: string;
	/** The project folder the CLI runs in (its GEMINI.md is sent to the model). */
	cwd: string;
	prompt: string;
	stub: GeminiStub;
	extraArgs?: string[];
	/** Extra/override environment variables (undefined deletes one). */
	env?: Record<string, string | undefined>;
	/** Kill the process after this long. Default 120 s. */
	timeoutMs?: number;
}

export interface RunGeminiResult {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** `session_id` from the JSON on stdout (the full UUID; line 1 of the session file). */
	sessionId: string | undefined;
	/** `response` from the JSON on stdout: the final reply text. */
	response: string | undefined;
	/** `<home>/.gemini/tmp/<slug>/chats/session-…-<sid8>.jsonl`, if it exists. */
	sessionPath: string | undefined;
	/** The requests the stub received during this run (main turns and side calls). */
	requests: GeminiRecordedRequest[];
	durationMs: number;
}

/** The user settings a headless run against the stub needs: api-key auth (else `-p` exits 41), nothing that phones home. */
export function writeGeminiSettings(home: string): void {
	const dir = join(home, ".gemini");
	mkdirSync(dir, { recursive: true });
	const settings = {
		security: { auth: { selectedType: "gemini-api-key" } },
		privacy: { usageStatisticsEnabled: false },
		telemetry: { enabled: false },
		general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
	};
	writeFileSync(join(dir, "settings.json"), JSON.stringify(settings, null, 2) + "\n");
}

/** Env vars of the calling process that would redirect the CLI or change its mode (vitest sets GEMINI_CLI_HOME). */
const SCRUB_RE = /^(GEMINI_|GOOGLE_|OTEL_|CLOUDSDK_|NODE_OPTIONS$|DEBUG$)/;

export function geminiEnv(home: string, stubUrl: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!SCRUB_RE.test(k)) env[k] = v;
	Object.assign(env, {
		HOME: home,
		GEMINI_API_KEY: "stub-key",
		GOOGLE_GEMINI_BASE_URL: stubUrl,
		// Headless runs refuse an untrusted folder (FatalUntrustedWorkspaceError) without it.
		GEMINI_CLI_TRUST_WORKSPACE: "true",
		TERM: "dumb",
		NO_COLOR: "1",
	});
	for (const [k, v] of Object.entries(extra)) {
		if (v === undefined) delete env[k];
		else env[k] = v;
	}
	return env;
}

/** Every main session file under `<home>/.gemini/tmp/<slug>/chats/`, sorted by path. */
export function listGeminiSessions(home: string): string[] {
	const root = join(home, ".gemini", "tmp");
	if (!existsSync(root)) return [];
	const out: string[] = [];
	for (const slug of readdirSync(root)) {
		const chats = join(root, slug, "chats");
		if (!existsSync(chats)) continue;
		for (const f of readdirSync(chats)) if (/^session-.*\.jsonl$/.test(f)) out.push(join(chats, f));
	}
	return out.sort();
}

/** The session id on line 1 of a session file. */
function sessionIdOf(path: string): string | undefined {
	try {
		const first = readFileSync(path, "utf8").split("\n", 1)[0] ?? "";
		return (JSON.parse(first) as { sessionId?: string }).sessionId;
	} catch {
		return undefined;
	}
}

export async function runGemini(opts: RunGeminiOptions): Promise<RunGeminiResult> {
	const gemini = ensureGeminiCli();
	writeGeminiSettings(opts.home);
	mkdirSync(opts.cwd, { recursive: true });
	const args = [gemini.entry, ...(opts.extraArgs ?? []), "-p", opts.prompt, "--output-format", "json"];
	const firstRequest = opts.stub.requests.length;
	const started = Date.now();
	const child = spawn(process.execPath, args, { cwd: opts.cwd, env: geminiEnv(opts.home, opts.stub.url, opts.env), stdio: ["ignore", "pipe", "pipe"] });
	const timeoutMs = opts.timeoutMs ?? 120_000;
	const { code, signal, stdout, stderr: written } = await collectProcess(child, timeoutMs);
	let sessionId: string | undefined;
	let response: string | undefined;
	const json = stdout.slice(stdout.indexOf("{"));
	try {
		const out = JSON.parse(json) as { session_id?: string; response?: string };
		sessionId = out.session_id;
		response = out.response;
	} catch {
		// not JSON (an error before the run started)
	}
	const sessionPath = sessionId ? listGeminiSessions(opts.home).find((p) => p.endsWith(`-${sessionId.slice(0, 8)}.jsonl`) && sessionIdOf(p) === sessionId) : undefined;
	const stderr = signal === "SIGKILL" && Date.now() - started >= timeoutMs ? `${written}\n[runGemini] killed after ${timeoutMs} ms timeout` : written;
	return { exitCode: code, signal, stdout, stderr, sessionId, response, sessionPath, requests: opts.stub.requests.slice(firstRequest), durationMs: Date.now() - started };
}
