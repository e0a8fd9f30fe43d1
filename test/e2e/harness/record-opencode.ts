/**
 * Records the committed opencode fixtures (test/fixtures/agents/opencode/) with the real client
 * against the Chat Completions stub: several scenarios into ONE data folder, as a person's machine
 * has them (one database for every project). `npm run record:opencode [-- <version>]`; see the
 * fixture folder's README for what each scenario is and why the WAL is small.
 *
 * - 1.18.x (SQLite): between scenarios the WAL is checkpointed and truncated with the sqlite3 CLI,
 *   so the WAL the last run leaves holds that run's frames only (opencode's own checkpoint at start
 *   copies the WAL into the database but keeps the file at its largest). The last scenario is
 *   therefore in `opencode.db-wal` alone: a reader that ignores the WAL misses it.
 * - 1.1.x (JSON files): `storage/` is copied as it is.
 * Project folders live under /tmp/opencode-record/ (paths inside the fixtures point there).
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./claude-install.js";
import { startOpencodeStub, type OpencodeStubRule } from "./opencode-stub.js";
import { opencodeDirs, runOpencode } from "./run-opencode.js";

const version = process.argv[2] ?? "1.18.33";
const legacy = /^1\.[01]\./.test(version);
const WORK = "/tmp/opencode-record";
const PROJECT = join(WORK, "work", "demo-project");
const NO_GIT = join(WORK, "work", "no-git");
const out = join(repoRoot(), "test", "fixtures", "agents", "opencode", version);

function makeProject(dir: string, git: boolean): void {
	mkdirSync(join(dir, "src"), { recursive: true });
	writeFileSync(join(dir, "README.md"), "# Demo project\n\nA tiny project used to record opencode sessions.\n");
	writeFileSync(join(dir, "src", "hello.js"), 'console.log("hello");\n');
	writeFileSync(join(dir, "AGENTS.md"), "# Project notes\n\nAlways answer in English and keep replies short.\n");
	if (!git) return;
	const run = (...args: string[]) => spawnSync("git", args, { cwd: dir, stdio: "ignore" });
	run("init", "-q", "-b", "feature/demo");
	run("remote", "add", "origin", "https://git.example.invalid/demo/project.git");
	run("add", ".");
	run("-c", "user.email=rec@example.invalid", "-c", "user.name=recorder", "commit", "-qm", "init");
}

interface Scenario {
	name: string;
	cwd: string;
	rules: OpencodeStubRule[];
	runs: ((first: string | undefined) => string[])[];
}

const scenarios: Scenario[] = [
	{
		name: "b-tool-call",
		cwd: PROJECT,
		rules: [
			{
				match: "README",
				steps: [
					[{ type: "reasoning", text: "I should read README.md first, then list the files." }, { type: "text", text: "Let me read the README first." }, { type: "call", name: "read", arguments: { filePath: `${PROJECT}/README.md` } }],
					[{ type: "call", name: "bash", arguments: { command: "ls -a", description: "List files in the project" } }, { type: "call", name: "read", arguments: { filePath: `${PROJECT}/missing.txt` } }],
					"The project has README.md, AGENTS.md and src/hello.js; the README calls it a demo project.",
				],
			},
		],
		runs: [() => ["Read README.md, list the files, then summarize."]],
	},
	{
		name: "c-continue",
		cwd: PROJECT,
		rules: [
			{ match: "Remember the word", steps: ["OK, I will remember PINEAPPLE."] },
			{ match: "Which word", steps: ["You asked me to remember PINEAPPLE."] },
			{ match: "forked", steps: ["This is the forked session; the word was PINEAPPLE."] },
		],
		runs: [() => ["Remember the word PINEAPPLE."], () => ["--continue", "Which word did I ask you to remember?"], (first) => ["--session", first ?? "", "--fork", "In the forked session, repeat it."]],
	},
	{
		name: "d-file-edit",
		cwd: PROJECT,
		rules: [
			{
				match: "notes.txt",
				steps: [
					[
						{ type: "call", name: "todowrite", arguments: { todos: [{ content: "Create notes.txt", status: "in_progress", priority: "high" }, { content: "Fix the typo", status: "pending", priority: "medium" }] } },
						{ type: "call", name: "write", arguments: { filePath: `${PROJECT}/notes.txt`, content: "hello wrold\nsecond line\n" } },
					],
					[{ type: "call", name: "edit", arguments: { filePath: `${PROJECT}/notes.txt`, oldString: "wrold", newString: "world" } }],
					"Created notes.txt and fixed the typo.",
				],
			},
		],
		runs: [() => ["Create notes.txt with a greeting, then fix the typo in it."]],
	},
	{
		name: "e-subagent",
		cwd: PROJECT,
		rules: [
			{ match: "subagent", steps: [[{ type: "call", name: "task", arguments: { description: "List top-level files", prompt: "SUBTASK: list the top-level files of the project.", subagent_type: "explore" } }], "The subagent found README.md, AGENTS.md and src/."] },
			{ match: "SUBTASK", steps: [[{ type: "call", name: "bash", arguments: { command: "ls", description: "List top-level files" } }], "Top-level files: README.md, AGENTS.md, src/."] },
		],
		runs: [() => ["Use a subagent to list the top-level files."]],
	},
	{ name: "h-api-error", cwd: PROJECT, rules: [{ match: "fail", steps: [[{ type: "error", status: 400, message: "stub: invalid request (scripted failure)" }]] }], runs: [() => ["Please fail now."]] },
	{
		name: "i-context-overflow",
		cwd: PROJECT,
		rules: [
			{ match: "overflow", times: 1, steps: [[{ type: "error", status: 400, message: "stub: context_length_exceeded (scripted failure)" }]] },
			{ match: "overflow", steps: ["Context was compacted; carrying on with the overflow request."] },
		],
		runs: [() => ["Please overflow now."]],
	},
	{ name: "g-no-git", cwd: NO_GIT, rules: [{ match: "no git", steps: ["This folder is not a git repository."] }], runs: [() => ["Is there no git here?"]] },
	// Last: left in the WAL (see above).
	{ name: "f-subdir", cwd: join(PROJECT, "src"), rules: [{ match: "Where am I", steps: ["You are in the src folder of the demo project."] }], runs: [() => ["Where am I?"]] },
];
const wanted = legacy ? scenarios.filter((s) => ["b-tool-call", "d-file-edit", "e-subagent"].includes(s.name)) : scenarios;

async function main(): Promise<void> {
	if (!legacy && spawnSync("sqlite3", ["-version"]).status !== 0) throw new Error("the sqlite3 CLI is needed between scenarios (apt-get install sqlite3)");
	rmSync(WORK, { recursive: true, force: true });
	makeProject(PROJECT, true);
	makeProject(NO_GIT, false);
	const dirs = opencodeDirs(join(WORK, "machine"));
	const db = join(dirs.data, "opencode", "opencode.db");
	const stub = await startOpencodeStub();
	const log: Array<Record<string, unknown>> = [];
	for (const scenario of wanted) {
		if (!legacy && existsSync(db)) spawnSync("sqlite3", [db, "PRAGMA wal_checkpoint(TRUNCATE);"], { stdio: "ignore" });
		stub.setScript({ rules: scenario.rules });
		let first: string | undefined;
		for (const args of scenario.runs) {
			const run = await runOpencode({ dirs, cwd: scenario.cwd, args: args(first), stub, version, timeoutMs: 180_000 });
			first ??= run.sessionId;
			log.push({ scenario: scenario.name, args: args(first), exitCode: run.exitCode, sessionId: run.sessionId, requests: run.requests.map((r) => r.kind ?? r.url), ms: run.durationMs });
			process.stdout.write(`${scenario.name}: exit ${run.exitCode} in ${run.durationMs} ms (${run.sessionId ?? "no session"})\n`);
		}
	}
	await stub.close();
	rmSync(out, { recursive: true, force: true });
	const data = join(dirs.data, "opencode");
	const target = join(out, "data");
	mkdirSync(target, { recursive: true });
	// The session store only: the database and its WAL (no -shm: a reader never needs it), or storage/.
	if (legacy) cpSync(join(data, "storage"), join(target, "storage"), { recursive: true });
	else for (const name of ["opencode.db", "opencode.db-wal"]) cpSync(join(data, name), join(target, name));
	writeFileSync(join(out, "runs.json"), `${JSON.stringify({ version, runs: log }, null, 2)}\n`);
}

void main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});
