/**
 * The session digest in the CLAUDE.md block, end to end with the REAL Claude Code client: in a git
 * repository, session one narrates ("Let me…", "Now I'll…", "Perfect!…"), keeps a todo list with the
 * client's own tool, writes a file, really commits it through Bash, completes two todos and leaves
 * the third pending. The built CLI syncs it (eager mode), and session two's request to the model
 * must show, inside the block: a `- Done:` line with the commit subject, a `- Open:` line with the
 * pending todo, and none of the narration. Another session runs without the permission to write:
 * the client refuses its Write, the reply claims the file, and the next session must read it open.
 * A last one commits, then changes one more file: the next session must read it left uncommitted.
 *
 * Which todo tool the pinned client (2.1.337, as 2.1.332) offers (see FINDINGS.md, "Todo / task tools"): none with
 * the default model (claude-opus-5-5); `CLAUDE_CODE_ENABLE_TODO_TOOLS=1` (or an older model, e.g.
 * `--model claude-sonnet-4-6`) turns on the deferred `TaskCreate` / `TaskUpdate` / `TaskList` /
 * `TaskGet`, and with `CLAUDE_CODE_ENABLE_TASKS=false` as well the deferred `TodoWrite` instead. Both
 * are reached through `ToolSearch` (`select:<name>`), as the client tells the model to; both
 * transcript shapes are tested below.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, ensureClaudeCode, makeTempDir, requestText, runClaude, startStub, text, toolUse, type RecordedRequest, type Stub, type StubBlock, type StubStep } from "./harness/index.js";

const BEGIN = "<!-- AUTO-CONTEXT:BEGIN -->";
const END = "<!-- AUTO-CONTEXT:END -->";

const COMMIT_SUBJECT = "Add price formatter";
const TODOS = ["Write the price formatter", "Commit the formatter", "Document the rounding rules"] as const;
const OPEN_TODO = TODOS[2];
const NARRATION = [
	"Let me first create a todo list to track this task.",
	"Now I'll write the formatter in src/price.js.",
	"Let me update the todo list:",
	"Perfect! Let me provide you with a summary:",
];
const FINAL_REPLY = `formatPrice(cents) in src/price.js formats cents as dollars with two decimals; it is committed as "${COMMIT_SUBJECT}".`;
/** What no line of the block may start with (also after a `- Label: ` or `### date — ` prefix). */
const NARRATION_START = /^(?:Let me|I'll|Now I|Perfect!)/;

interface Variant {
	name: string;
	env: Record<string, string>;
	toolSearch: string;
	/** The reply that creates the three todos (first one in progress). */
	create: StubBlock[];
	/** The reply that completes the first two (leaves the third pending), after the narration text. */
	complete: StubBlock[];
}

const todoList = (statuses: readonly string[]): StubBlock =>
	toolUse("TodoWrite", { todos: TODOS.map((content, i) => ({ content, status: statuses[i], activeForm: content })) });

const VARIANTS: Variant[] = [
	{
		name: "TaskCreate / TaskUpdate (CLAUDE_CODE_ENABLE_TODO_TOOLS=1)",
		env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1" },
		toolSearch: "select:TaskCreate,TaskUpdate",
		create: [
			...TODOS.map((subject) => toolUse("TaskCreate", { subject, description: `${subject}.`, activeForm: subject })),
		],
		complete: [toolUse("TaskUpdate", { taskId: "1", status: "completed" }), toolUse("TaskUpdate", { taskId: "2", status: "completed" })],
	},
	{
		name: "TodoWrite (CLAUDE_CODE_ENABLE_TODO_TOOLS=1, CLAUDE_CODE_ENABLE_TASKS=false)",
		env: { CLAUDE_CODE_ENABLE_TODO_TOOLS: "1", CLAUDE_CODE_ENABLE_TASKS: "false" },
		toolSearch: "select:TodoWrite",
		create: [todoList(["in_progress", "pending", "pending"])],
		complete: [todoList(["completed", "completed", "pending"])],
	},
];

type Line = Record<string, unknown> & { type?: string; message?: { content?: unknown }; toolUseResult?: unknown };

function transcriptLines(path: string | undefined): Line[] {
	expect(path, "no transcript").toBeTruthy();
	return readFileSync(path!, "utf8")
		.split("\n")
		.filter((l) => l.trim() !== "")
		.map((l) => JSON.parse(l) as Line);
}

/** Every tool_result of the transcript with the tool_use it answers. */
function toolCalls(lines: Line[]): Array<{ name: string; input: Record<string, unknown>; isError: boolean; result: unknown }> {
	const uses = new Map<string, { name: string; input: Record<string, unknown> }>();
	const out: Array<{ name: string; input: Record<string, unknown>; isError: boolean; result: unknown }> = [];
	for (const line of lines) {
		const content = line.message?.content;
		if (!Array.isArray(content)) continue;
		for (const b of content as Array<Record<string, unknown>>) {
			if (line.type === "assistant" && b.type === "tool_use") uses.set(String(b.id), { name: String(b.name), input: b.input as Record<string, unknown> });
			if (line.type === "user" && b.type === "tool_result") {
				const use = uses.get(String(b.tool_use_id));
				if (use) out.push({ ...use, isError: b.is_error === true, result: line.toolUseResult });
			}
		}
	}
	return out;
}

/** The requests one real session sent to the model (the client tags each with its session id). */
function requestsOf(stub: Stub, sessionId: string | undefined): RecordedRequest[] {
	expect(sessionId).toBeTruthy();
	return stub.mainRequests().filter((r) => r.headers["x-claude-code-session-id"] === sessionId);
}

/** What lies between the generated marker lines of the file, with LF line endings (as the model gets it). */
function blockOf(file: string): string {
	const begin = file.lastIndexOf(BEGIN);
	expect(begin, `no ${BEGIN} line in:\n${file}`).toBeGreaterThanOrEqual(0);
	const from = file.indexOf("\n", begin) + 1;
	const end = file.indexOf(END, from);
	expect(end, "no END marker after BEGIN").toBeGreaterThan(0);
	return file.slice(from, end).replace(/\r\n/g, "\n");
}

/** The CLAUDE.md part of the client's instructions reminder, as the model read it. */
function claudeMdSeen(seen: string, claudeMd: string): string {
	const head = `Contents of ${claudeMd} (project instructions, checked into the codebase):\n\n`;
	const at = seen.indexOf(head);
	expect(at, `the request has no "${head.trim()}"`).toBeGreaterThanOrEqual(0);
	const from = at + head.length;
	const ends = [seen.indexOf("\n\nContents of ", from), seen.indexOf("\n</system-reminder>", from)].filter((i) => i >= 0);
	return seen.slice(from, Math.min(...ends));
}

/** A line without its list label (`- Done: `) or heading date (`### 2026-12-01 — `). */
function lineValue(line: string): string {
	return line.replace(/^#{1,6}\s+(?:\S+\s+—\s+)?/, "").replace(/^\s*[-*]\s+(?:[\p{L} ]{1,30}:\s+)?/u, "");
}

describe("session digest in CLAUDE.md: commits and todos, no narration, refused writes (real Claude Code)", () => {
	let stub: Stub;
	let root: string;
	let cli: string;
	beforeAll(async () => {
		ensureClaudeCode();
		cli = buildCli();
		stub = await startStub();
		root = realpathSync(makeTempDir("cc-digest-"));
	});
	afterAll(async () => {
		await stub?.close();
		if (root) rmSync(root, { recursive: true, force: true });
	});

	it.each(VARIANTS)("$name", async (v) => {
		const slug = v.toolSearch.includes("TodoWrite") ? "todowrite" : "tasks";
		const home = join(root, `${slug}-home`);
		const repo = join(root, `${slug}-shop`);
		const vault = join(root, `${slug}-vault`);
		mkdirSync(join(repo, "src"), { recursive: true });
		mkdirSync(vault);
		mkdirSync(home);
		const git = (...args: string[]): string => execFileSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, HOME: home } });
		git("init", "-q", "-b", "main");
		git("config", "user.name", "E2E Tester");
		git("config", "user.email", "e2e@example.com");
		writeFileSync(join(repo, "README.md"), "# shop\n");
		git("add", "README.md");
		git("commit", "-q", "-m", "Initial commit");

		const steps: StubStep[] = [
			[text(NARRATION[0]!), toolUse("ToolSearch", { query: v.toolSearch, max_results: 4 })],
			v.create,
			[text(NARRATION[1]!), toolUse("Write", { file_path: join(repo, "src", "price.js"), content: "export const formatPrice = (cents) => `$${(cents / 100).toFixed(2)}`;\n" })],
			[toolUse("Bash", { command: `git add src/price.js && git commit -m "${COMMIT_SUBJECT}"`, description: "Commit the price formatter" })],
			[text(NARRATION[2]!), ...v.complete],
			`${NARRATION[3]}\n\n${FINAL_REPLY}`,
		];
		stub.setScript({
			rules: [
				{ match: "price formatter", steps },
				{ match: "currency", steps: ["Which currencies should be supported?"] },
			],
		});

		// --- session one: the client part (tools offered, todos kept, the commit really made).
		const one = await runClaude({ home, cwd: repo, stub, env: v.env, prompt: "Add a price formatter for the shop and commit it" });
		expect(one.exitCode, one.stderr).toBe(0);
		const oneRequests = requestsOf(stub, one.sessionId);
		expect(oneRequests.map((r) => r.step)).toEqual([0, 1, 2, 3, 4, 5]);
		expect(git("log", "--format=%s")).toBe(`${COMMIT_SUBJECT}\nInitial commit\n`);
		const oneLines = transcriptLines(one.transcriptPath);
		// The narration is really in the transcript (so its absence from the block below means something).
		const said = oneLines.flatMap((l) => (l.type === "assistant" && Array.isArray(l.message?.content) ? (l.message.content as Array<{ text?: unknown }>) : []));
		expect(NARRATION.filter((n) => !said.some((b) => typeof b.text === "string" && b.text.includes(n)))).toEqual([]);
		const calls = toolCalls(oneLines);
		expect(calls.filter((c) => c.isError), "a tool call failed").toEqual([]);
		expect(calls.map((c) => c.name)).toEqual(
			slug === "tasks"
				? ["ToolSearch", "TaskCreate", "TaskCreate", "TaskCreate", "Write", "Bash", "TaskUpdate", "TaskUpdate"]
				: ["ToolSearch", "TodoWrite", "Write", "Bash", "TodoWrite"],
		);
		expect(calls.find((c) => c.name === "Bash")?.result).toMatchObject({ gitOperation: { commit: { kind: "committed", branch: "main" } } });
		if (slug === "tasks") {
			// Results of one reply's tool calls may be recorded out of call order: compare as sets.
			expect(calls.filter((c) => c.name === "TaskCreate").map((c) => c.result)).toEqual(
				expect.arrayContaining(TODOS.map((subject, i) => ({ task: { id: String(i + 1), subject, description: `${subject}.` } }))),
			);
			expect(calls.filter((c) => c.name === "TaskUpdate").map((c) => c.result)).toEqual(
				expect.arrayContaining(
					["1", "2"].map((taskId): unknown => expect.objectContaining({ success: true, taskId, statusChange: { from: "pending", to: "completed" } })),
				),
			);
		} else {
			expect((calls.at(-1)?.result as { newTodos?: unknown }).newTodos).toEqual(TODOS.map((content, i) => ({ content, status: i < 2 ? "completed" : "pending", activeForm: content })));
		}

		// --- sync (the project enabled with defaults: eager), then session two.
		const run = spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(home, ".claude"), "--project", repo, "--json"], { encoding: "utf8" });
		expect(run.status, run.stderr).toBe(0);
		const claudeMd = join(repo, "CLAUDE.md");
		expect(JSON.parse(run.stdout)).toMatchObject({ contextWritten: [claudeMd], errors: [] });
		const block = blockOf(readFileSync(claudeMd, "utf8"));

		const two = await runClaude({ home, cwd: repo, stub, env: v.env, prompt: "Support the customer's currency in prices" });
		expect(two.exitCode, two.stderr).toBe(0);
		const twoRequests = requestsOf(stub, two.sessionId);
		expect(twoRequests.length).toBeGreaterThan(0);
		const seen = claudeMdSeen(requestText(twoRequests[0]!), claudeMd);
		// The client trims the file's text: the block's last newline is not in the request.
		expect(seen).toContain(block.trimEnd());

		// --- what the model read: the digest lines (soft: every wrong line is reported at once).
		const lines = seen.split("\n");
		const shown = `block the model read:\n${seen}`;
		expect.soft(lines.filter((l) => l.startsWith("- Done:") && l.includes(COMMIT_SUBJECT)), shown).not.toEqual([]);
		expect.soft(lines.filter((l) => l.startsWith("- Open:") && l.includes(OPEN_TODO)), shown).not.toEqual([]);
		expect.soft(NARRATION.filter((n) => seen.includes(n)), shown).toEqual([]);
		expect.soft(lines.filter((l) => NARRATION_START.test(l.trimStart()) || NARRATION_START.test(lineValue(l))), shown).toEqual([]);
	});

	/** Syncs the project, runs the next session in it: the block's lines as that session's request held them. */
	async function syncAndReadNext(home: string, repo: string, vault: string): Promise<{ seen: string; lines: string[] }> {
		const run = spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(home, ".claude"), "--project", repo, "--json"], { encoding: "utf8" });
		expect(run.status, run.stderr).toBe(0);
		const claudeMd = join(repo, "CLAUDE.md");
		const block = blockOf(readFileSync(claudeMd, "utf8"));
		const two = await runClaude({ home, cwd: repo, stub, prompt: "Support the customer's currency in prices" });
		expect(two.exitCode, two.stderr).toBe(0);
		const seen = claudeMdSeen(requestText(requestsOf(stub, two.sessionId)[0]!), claudeMd);
		expect(seen).toContain(block.trimEnd());
		return { seen, lines: seen.split("\n") };
	}

	// A write the client refuses: without `--dangerously-skip-permissions`, `claude -p` has no one
	// to ask, so a Write waits for a permission never given; the reply still claims the file.
	it("a Write refused for want of a permission is open in the block, and no Done line claims the file", async () => {
		const home = join(root, "refused-home");
		const repo = join(root, "refused-shop");
		const vault = join(root, "refused-vault");
		for (const dir of [home, repo, vault]) mkdirSync(dir, { recursive: true });
		const target = join(repo, "SETUP.md");
		stub.setScript({
			rules: [
				{ match: "setup guide", steps: [[toolUse("Write", { file_path: target, content: "# Setup\n\nRun npm install.\n" })], "Created SETUP.md with the install steps."] },
				{ match: "currency", steps: ["Which currencies should be supported?"] },
			],
		});
		const one = await runClaude({ home, cwd: repo, stub, prompt: "Write a setup guide for the shop", noSkipPermissions: true });
		expect(one.exitCode, one.stderr).toBe(0);
		// The client really refused it: the tool result says so, and no file was written.
		const refused = toolCalls(transcriptLines(one.transcriptPath)).find((c) => c.name === "Write");
		expect(refused?.isError).toBe(true);
		expect(() => readFileSync(target)).toThrow();

		const { seen, lines } = await syncAndReadNext(home, repo, vault);
		expect(lines.filter((l) => l.startsWith("- Open:") && l.includes("`SETUP.md` not written: permission not granted")), seen).not.toEqual([]);
		expect(lines.filter((l) => l.startsWith("- Done:") && l.includes("SETUP.md")), seen).toEqual([]);
	});

	// The session commits (its command clipped in the model before `git commit`: a `git add` of many
	// files first), then changes one more file and ends: the next session must read it uncommitted.
	it("a file changed after the session's last commit is open in the block as left uncommitted", async () => {
		const home = join(root, "dirty-home");
		const repo = join(root, "dirty-shop");
		const vault = join(root, "dirty-vault");
		for (const dir of [home, join(repo, "src"), vault]) mkdirSync(dir, { recursive: true });
		const git = (...args: string[]): string => execFileSync("git", args, { cwd: repo, encoding: "utf8", env: { ...process.env, HOME: home } });
		git("init", "-q", "-b", "main");
		git("config", "user.name", "E2E Tester");
		git("config", "user.email", "e2e@example.com");
		const modules = Array.from({ length: 30 }, (_, i) => `src/module-${String(i).padStart(2, "0")}.js`);
		for (const m of modules) writeFileSync(join(repo, m), `export const n = ${m.length};\n`);
		stub.setScript({
			rules: [
				{
					match: "modules",
					steps: [
						[toolUse("Bash", { command: `git add ${modules.join(" ")} && git commit -m "Add the modules"`, description: "Commit the modules" })],
						[toolUse("Write", { file_path: join(repo, "src", "rounding.js"), content: "export const round = Math.round;\n" })],
						"Committed the modules and added rounding.js.",
					],
				},
				{ match: "currency", steps: ["Which currencies should be supported?"] },
			],
		});
		const one = await runClaude({ home, cwd: repo, stub, prompt: "Commit the modules, then add rounding" });
		expect(one.exitCode, one.stderr).toBe(0);
		expect(git("log", "--format=%s")).toBe("Add the modules\n");
		expect(git("status", "--porcelain")).toContain("src/rounding.js");

		const { seen, lines } = await syncAndReadNext(home, repo, vault);
		expect(lines.filter((l) => l.startsWith("- Open:") && l.includes("left uncommitted: `src/rounding.js`")), seen).not.toEqual([]);
		// The clipped command's commit is told by git's own line.
		expect(lines.filter((l) => l.startsWith("- Done:") && l.includes("Add the modules")), seen).not.toEqual([]);
	});
});
