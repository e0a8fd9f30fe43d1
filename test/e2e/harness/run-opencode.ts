/**
 * Runs the real opencode CLI (`opencode run --format json`) against the Chat Completions stub
 * (`opencode-stub.ts`), with every XDG folder (data, config, state, cache) and HOME under one
 * throwaway root: sessions land in `<root>/xdg/data/opencode/opencode.db` (SQLite, WAL mode).
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { collectProcess } from "./collect-process.js";
import { ensureOpencode } from "./opencode-install.js";
import type { OpencodeRecordedRequest, OpencodeStub } from "./opencode-stub.js";

export interface OpencodeDirs {
	home: string;
	/** `XDG_DATA_HOME`: opencode's data folder is `<data>/opencode`. */
	data: string;
	config: string;
	state: string;
	cache: string;
}

/** The folders of one opencode "machine" under `root`. */
export function opencodeDirs(root: string): OpencodeDirs {
	return { home: join(root, "home"), data: join(root, "xdg", "data"), config: join(root, "xdg", "config"), state: join(root, "xdg", "state"), cache: join(root, "xdg", "cache") };
}

export interface RunOpencodeOptions {
	dirs: OpencodeDirs;
	/** The folder opencode runs in (it reads the AGENTS.md there and above). */
	cwd: string;
	/** `run`'s arguments after `--format json` (the prompt last). */
	args: string[];
	stub: OpencodeStub;
	/** Kill the process after this long. Default 120 s. */
	timeoutMs?: number;
	/** Override the pinned version (the recorder runs 1.1.65 too). */
	version?: string;
}

export interface RunOpencodeResult {
	exitCode: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
	/** The `sessionID` of the first JSON event printed. */
	sessionId: string | undefined;
	/** The JSON events `--format json` printed. */
	events: Array<Record<string, unknown>>;
	requests: OpencodeRecordedRequest[];
	durationMs: number;
}

/** `opencode.json`: the stub as the only provider, priced (1 / 2 / 0.5 USD per 1M tokens) so every cost is checkable; nothing that phones home. */
export function writeOpencodeConfig(dirs: OpencodeDirs, stubUrl: string): void {
	const dir = join(dirs.config, "opencode");
	mkdirSync(dir, { recursive: true });
	mkdirSync(dirs.home, { recursive: true });
	const config = {
		$schema: "https://opencode.ai/config.json",
		model: "stub/m",
		small_model: "stub/m",
		autoupdate: false,
		share: "disabled",
		provider: {
			stub: {
				npm: "@ai-sdk/openai-compatible",
				name: "Stub",
				options: { baseURL: `${stubUrl}/v1`, apiKey: "sk-stub-not-a-real-key" },
				models: { m: { name: "Stub M", limit: { context: 128000, output: 8192 }, cost: { input: 1, output: 2, cache_read: 0.5 } } },
			},
		},
	};
	writeFileSync(join(dir, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
}

/** Variables of the calling process that would redirect opencode or leak a real key into it. */
const SCRUB_RE = /^(OPENCODE|OPENAI_|ANTHROPIC_|AWS_|GOOGLE_|GEMINI_|AZURE_|GROQ_|OPENROUTER_|XAI_|MISTRAL_|DEEPSEEK_|GITHUB_TOKEN$|GH_TOKEN$|NODE_OPTIONS$|XDG_)/;

export function opencodeEnv(dirs: OpencodeDirs, cwd: string): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!SCRUB_RE.test(k)) env[k] = v;
	return {
		...env,
		HOME: dirs.home,
		XDG_DATA_HOME: dirs.data,
		XDG_CONFIG_HOME: dirs.config,
		XDG_STATE_HOME: dirs.state,
		XDG_CACHE_HOME: dirs.cache,
		OPENCODE_DISABLE_AUTOUPDATE: "1",
		OPENCODE_DISABLE_MODELS_FETCH: "1",
		OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
		OPENCODE_DISABLE_SHARE: "1",
		NO_COLOR: "1",
		// opencode takes its folder from $PWD, not the process's cwd.
		PWD: cwd,
	};
}

export async function runOpencode(opts: RunOpencodeOptions): Promise<RunOpencodeResult> {
	const { bin } = ensureOpencode(opts.version === undefined ? {} : { version: opts.version });
	writeOpencodeConfig(opts.dirs, opts.stub.url);
	mkdirSync(opts.cwd, { recursive: true });
	const firstRequest = opts.stub.requests.length;
	const started = Date.now();
	const child = spawn(bin, ["run", "--format", "json", ...opts.args], { cwd: opts.cwd, env: opencodeEnv(opts.dirs, opts.cwd), stdio: ["ignore", "pipe", "pipe"] });
	const { code, signal, stdout, stderr } = await collectProcess(child, opts.timeoutMs ?? 120_000);
	const events: Array<Record<string, unknown>> = [];
	for (const line of stdout.split("\n")) {
		try {
			const event = JSON.parse(line) as unknown;
			if (event && typeof event === "object") events.push(event as Record<string, unknown>);
		} catch {
			// not an event line
		}
	}
	const first = events.find((e) => typeof e.sessionID === "string");
	return { exitCode: code, signal, stdout, stderr, sessionId: first?.sessionID as string | undefined, events, requests: opts.stub.requests.slice(firstRequest), durationMs: Date.now() - started };
}
