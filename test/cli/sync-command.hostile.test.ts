import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../fixtures/built-cli";
import { assistant, jsonl, text, toolResult, toolUse, userText } from "../fixtures/lines";

/** The built CLI against names and files a hostile repository or an unlucky machine gives it, in real processes. */
const repo = resolve(__dirname, "..", "..");
const cli = join(repo, "dist", "cli.cjs");
let dir: string;

beforeAll(() => {
	buildCli();
	dir = mkdtempSync(join(tmpdir(), "cli-hostile-"));
});
afterAll(() => {
	rmSync(dir, { recursive: true, force: true });
});

/** A Claude Code transcript of one session in `project`, under `<root>/claude`. */
function session(root: string, project: string, id = "11111111-2222-4333-8444-555555555555"): void {
	const folder = join(root, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
	mkdirSync(folder, { recursive: true });
	const env = { cwd: project, sessionId: id };
	writeFileSync(join(folder, `${id}.jsonl`), jsonl([userText("Add pagination to the orders list", env), assistant(text("Added pagination to the orders list."), { ...env, timestamp: "2026-11-20T10:00:09.000Z" })]));
}

describe("ai-memory sync and a lock another user left unreadable", () => {
	// As another user than the lock's owner (root can read anything): `setpriv` to `nobody`.
	const other = process.getuid?.() === 0 && spawnSync("setpriv", ["--version"]).status === 0;
	it.runIf(other)("breaks a stale lock it cannot read (its folder lets it), and syncs", () => {
		const root = join(dir, "unreadable-lock");
		const project = join(root, "app");
		mkdirSync(project, { recursive: true });
		session(root, project);
		const state = join(root, "vault", ".obsidian", "plugins", "ai-conversation-memory", "state");
		mkdirSync(state, { recursive: true });
		writeFileSync(join(state, "sync.lock"), '{"pid": 1}\n', { mode: 0o000 });
		const old = new Date(Date.now() - 3_600_000);
		utimesSync(join(state, "sync.lock"), old, old);
		spawnSync("chmod", ["a+rx", dir, root]);
		spawnSync("chmod", ["-R", "a+rwX", join(root, "vault"), join(root, "claude"), project]);
		spawnSync("chmod", ["000", join(state, "sync.lock")]);
		const r = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--wait", "2"], { encoding: "utf8", env: { ...process.env, HOME: root } });
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		expect(r.stdout).toMatch(/notes written/);
	});
});

describe("ai-memory sync: the bundle's patterns past ASCII, written as escapes by the build", () => {
	it("keeps Japanese as it is and redacts a private key whose lines Claude Code's Read numbered with →", () => {
		const root = join(dir, "patterns-past-ascii");
		const project = join(root, "app");
		mkdirSync(project, { recursive: true });
		mkdirSync(join(root, "vault"));
		const folder = join(root, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		mkdirSync(folder, { recursive: true });
		const env = { cwd: project, sessionId: "11111111-2222-4333-8444-555555555556" };
		const body = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0";
		const key = ["-----BEGIN RSA PRIVATE KEY-----", body, body, "-----END RSA PRIVATE KEY-----"].map((l, i) => `${String(i + 1).padStart(6)}\u2192${l}`).join("\n");
		writeFileSync(
			join(folder, `${env.sessionId}.jsonl`),
			jsonl([
				userText("注文一覧にページネーションを追加して。テストも書いて。", env),
				assistant(toolUse("toolu_1", "Read", { file_path: join(project, "deploy.pem") }), { ...env, messageId: "msg_1" }),
				toolResult("toolu_1", key, env),
				assistant(text("ページネーションを追加しました。"), { ...env, messageId: "msg_2", timestamp: "2026-11-20T10:00:09.000Z" }),
			]),
		);
		const r = spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--json"], { encoding: "utf8" });
		expect(r.status).toBe(0);
		const notes = join(root, "vault", "AI Conversations", "app");
		const note = readdirSync(notes).find((n) => n.startsWith("2026-11-20"));
		expect(note).toBe("2026-11-20 注文一覧にページネーションを追加して。テストも書いて。.md");
		const written = readFileSync(join(notes, note!), "utf8");
		expect(written).toContain("ページネーションを追加しました。");
		expect(written).not.toContain(body.slice(0, 24));
		expect(written).toContain("[redacted:private-key]");
	});
});

describe("ai-memory sync and a Claude Code folder that cannot be one", () => {
	it("stops, with a sentence and exit 2 (as for a vault not there), for a --claude-dir with a `~` no shell expanded or that is the transcripts folder, and for a relative CLAUDE_CONFIG_DIR; says a whole path not there yet and reads the other agents", () => {
		const root = join(dir, "claude-slips");
		session(root, join(root, "app"));
		mkdirSync(join(root, "vault", ".obsidian"), { recursive: true });
		// Another agent's folder is there: the sync ran on it and said "nothing to sync".
		mkdirSync(join(root, "codex", "sessions"), { recursive: true });
		const env = { ...process.env, HOME: root, CODEX_HOME: join(root, "codex"), CLAUDE_CONFIG_DIR: "" };
		const sync = (claudeDir: string[], extra: Record<string, string> = {}) => spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), ...claudeDir], { cwd: root, encoding: "utf8", env: { ...env, ...extra } });
		const missing = sync(["--claude-dir", "~/.claude"]);
		expect(missing.status).toBe(2);
		expect(missing.stderr).toContain("does not exist");
		expect(missing.stderr).toContain("was not expanded");
		// A whole path Claude Code has not made yet (a person who began with Codex): said, and the other agents are read.
		const notYet = sync(["--claude-dir", join(root, "later", ".claude"), "--json"]);
		expect(notYet.status).toBe(0);
		expect(notYet.stderr).toContain("no Claude Code sessions were read (check --claude-dir)");
		const transcripts = sync(["--claude-dir", join(root, "claude", "projects")]);
		expect(transcripts.status).toBe(2);
		expect(transcripts.stderr).toContain(`give the folder that holds it, ${join(root, "claude")}`);
		const relative = sync([], { CLAUDE_CONFIG_DIR: "claude" });
		expect(relative.status).toBe(2);
		expect(relative.stderr).toContain("not a whole path");
		expect(sync(["--claude-dir", join(root, "claude"), "--json"]).status).toBe(0);
	});
});

describe("ai-memory sync on hostile names", () => {
	it("writes the notes of a project whose folder name is 255 bytes of CJK (a name capped by characters alone is too long for the file system)", () => {
		const root = join(dir, "long-name");
		// 85 three-byte characters: the longest folder name ext4 allows.
		const project = join(root, "頁".repeat(85));
		mkdirSync(project, { recursive: true });
		mkdirSync(join(root, "vault"));
		session(root, project);
		const r = spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--json"], { encoding: "utf8" });
		expect(r.stderr).toBe("");
		expect((JSON.parse(r.stdout) as { errors: string[] }).errors).toEqual([]);
		expect(r.status).toBe(0);
		const [folder] = readdirSync(join(root, "vault", "AI Conversations")).filter((f) => !f.endsWith(".base"));
		expect(Buffer.byteLength(folder!)).toBeLessThanOrEqual(180);
		const notes = readdirSync(join(root, "vault", "AI Conversations", folder!));
		expect(notes.some((n) => n.startsWith("2026-11-20 Add pagination"))).toBe(true);
		expect(notes).toContain(`${folder}.md`);
	});

	it("refuses a state folder, or a folder of it, that is a link out of the plugin's folder; the plugin's folder itself may be a link", () => {
		const root = join(dir, "state-link");
		const project = join(root, "app");
		mkdirSync(project, { recursive: true });
		session(root, project);
		const plugin = join(root, "vault", ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(plugin, { recursive: true });
		const outside = join(root, "home");
		mkdirSync(outside);
		const sync = () => spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude")], { encoding: "utf8" });
		symlinkSync(outside, join(plugin, "state"));
		let r = sync();
		expect(r.status).toBe(1);
		expect(r.stderr).toMatch(/The state folder .*state: its folder leads to .*home, outside .*ai-conversation-memory; nothing was read or written/);
		expect(readdirSync(outside)).toEqual([]);
		rmSync(join(plugin, "state"));
		mkdirSync(join(plugin, "state"));
		symlinkSync(outside, join(plugin, "state", "hooks"));
		r = sync();
		expect(r.status).toBe(1);
		expect(r.stderr).toMatch(/The state folder .*state\/hooks: its folder leads to .*home/);
		expect(readdirSync(outside)).toEqual([]);
		// A developer's checkout linked in as the plugin's folder: its state is its own.
		rmSync(plugin, { recursive: true });
		const checkout = join(root, "checkout");
		mkdirSync(checkout);
		symlinkSync(checkout, plugin);
		r = sync();
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		expect(readdirSync(join(checkout, "state"))).toContain("sync-state.json");
	});

	it("refuses an empty folder on the command line (`--vault \"$VAULT\"` unset) rather than make a vault or a project of the current folder", () => {
		const root = join(dir, "empty-flags");
		const here = join(root, "here");
		mkdirSync(here, { recursive: true });
		mkdirSync(join(root, "vault"));
		session(root, join(root, "app"));
		const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { cwd: here, encoding: "utf8" });
		for (const args of [
			["sync", "--vault", ""],
			["sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--project", ""],
			["sync", "--vault", join(root, "vault"), "--claude-dir", " "],
			["doctor", "--vault", ""],
			["mcp", "--vault", ""],
			["hooks", "install", "--vault", "", "--claude-dir", join(root, "claude")],
			["projects", "add", "", "--vault", join(root, "vault")],
		]) {
			const r = run(...args);
			expect(r.status, args.join(" ")).not.toBe(0);
			expect(r.stderr, args.join(" ")).toMatch(/an empty (value|path) would mean the current folder/);
		}
		expect(readdirSync(here)).toEqual([]);
		// A hook still exits 0, and says why on stderr.
		const hook = spawnSync(process.execPath, [cli, "hook", "session-start", "--vault", ""], { cwd: here, input: "{}", encoding: "utf8" });
		expect(hook.status).toBe(0);
		expect(hook.stderr).toContain("no --vault given");
		expect(readdirSync(here)).toEqual([]);
		// Nine processes in turn: past the default 5 s on a loaded 2-core machine.
	}, 60_000);

	it("prints no escape sequence or control character a repository's file names hold (a CLAUDE.md linked to one retitled the terminal and cleared it)", () => {
		const root = join(dir, "escapes");
		const project = join(root, "app");
		const evil = "docs\u001b]0;PWNED\u0007\u001b[2J";
		mkdirSync(join(project, evil), { recursive: true });
		writeFileSync(join(project, evil, "AGENTS.txt"), "# notes\n");
		symlinkSync(join(evil, "AGENTS.txt"), join(project, "CLAUDE.md"));
		mkdirSync(join(root, "vault"));
		session(root, project);
		const r = spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--project", project], { encoding: "utf8", env: { ...process.env, HOME: root } });
		expect(r.stderr).toContain("which is no Markdown file of the project's own");
		// eslint-disable-next-line no-control-regex -- control characters are what is looked for
		expect(`${r.stdout}${r.stderr}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
	});

	it("a data.json whose notes folder leads out of the vault, hides in its config folder or is an absolute path stops the sync with one sentence, and writes nothing", () => {
		const root = join(dir, "folders");
		const vault = join(root, "vault");
		const plugin = join(vault, ".obsidian", "plugins", "ai-conversation-memory");
		mkdirSync(plugin, { recursive: true });
		session(root, join(root, "app"));
		const absolute = join(root, "elsewhere");
		for (const [folder, why] of [["../../escaped", "leads out of the vault"], [".obsidian/notes", "is hidden"], ["notes/../../x", "leads out of the vault"], [absolute, `is an absolute path, but it can only be a folder of the vault (it would be "${absolute.replace(/^[\\/]+/, "").replace(/\\/g, "/")}" in it)`]]) {
			writeFileSync(join(plugin, "data.json"), JSON.stringify({ version: 2, notesFolder: folder }));
			const r = spawnSync(process.execPath, [cli, "sync", "--vault", vault, "--claude-dir", join(root, "claude")], { encoding: "utf8" });
			expect(r.status, folder).toBe(2);
			expect(r.stderr.trim().split("\n"), folder).toEqual([`ai-memory: the notes folder "${folder}" ${why}${why === "is hidden" ? " (a folder whose name starts with a dot): Obsidian would show none of its notes; set another" : ": set one inside it"} (in ${join(plugin, "data.json")}); nothing was synced`]);
			expect(readdirSync(vault), folder).toEqual([".obsidian"]);
			expect(readdirSync(plugin), folder).toEqual(["data.json"]);
			expect(existsSync(join(root, "escaped")) || existsSync(join(root, "x"))).toBe(false);
		}
	});

	it("after kill -9 mid-write of CLAUDE.md, of the state and of a memory fact, the next sync leaves nothing half-written behind, and loses nothing", async () => {
		const root = join(dir, "killed");
		const project = join(root, "app");
		mkdirSync(project, { recursive: true });
		mkdirSync(join(root, "vault"));
		session(root, project);
		// Large enough that its write takes a while: the kill lands in it.
		const mine = `# app\n${"a line of the user's own\n".repeat(1_200_000)}`;
		writeFileSync(join(project, "CLAUDE.md"), mine);
		const args = [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--project", project];
		let caught = false;
		// The temporary file is told by the folder's watcher the moment it is made, and looked for
		// between polls too: polling alone missed the write's window on a busy machine.
		for (let attempt = 0; attempt < 12 && !caught; attempt++) {
			writeFileSync(join(project, "CLAUDE.md"), `${mine}attempt ${attempt}\n`);
			const child = spawn(process.execPath, args, { stdio: "ignore" });
			const exited = once(child, "exit");
			let killed = false;
			const killNow = () => {
				if (killed || child.exitCode !== null) return;
				child.kill("SIGKILL");
				killed = true;
			};
			const watcher = watch(project, (_event, name) => {
				if (name?.startsWith("CLAUDE.md.")) killNow();
			});
			try {
				for (let i = 0; i < 5000 && child.exitCode === null && !killed; i++) {
					if (readdirSync(project).some((n) => n.startsWith("CLAUDE.md."))) killNow();
					await new Promise((r) => setTimeout(r, 1));
				}
				await exited;
			} finally {
				watcher.close();
			}
			// Caught mid-write only when the half-written file is still there (a kill a moment late is tried again).
			caught = killed && readdirSync(project).some((n) => n.startsWith("CLAUDE.md."));
		}
		expect(caught).toBe(true);
		expect(readdirSync(project).filter((n) => n !== "CLAUDE.md")).toHaveLength(1);
		// What other killed runs left in the state and in Claude Code's memory folder (a pid that is gone).
		const gone = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
		const state = join(root, "vault", ".obsidian", "plugins", "ai-conversation-memory", "state");
		const memory = join(root, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"), "memory");
		mkdirSync(join(state, "hooks"), { recursive: true });
		mkdirSync(memory, { recursive: true });
		const left = [join(state, `sync-state.json.${gone}-0.3.tmp`), join(state, "hooks", `x.json.${gone}-0.4.tmp`), join(memory, `fact.md.${gone}-0.5.tmp`)];
		for (const path of left) writeFileSync(path, "half");
		const r = spawnSync(process.execPath, args, { encoding: "utf8" });
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		expect(readdirSync(project)).toEqual(["CLAUDE.md"]);
		for (const path of left) expect(existsSync(path), path).toBe(false);
		const text = readFileSync(join(project, "CLAUDE.md"), "utf8");
		expect(text.startsWith(mine)).toBe(true);
		expect(text).toContain("<!-- AUTO-CONTEXT:BEGIN -->");
	}, 120_000);

	it.skipIf(process.platform === "win32")("under a file size limit (ulimit -f) stops with a sentence, leaves no temporary file (the code cache's neither), and the next sync finishes", () => {
		const root = join(dir, "ulimit");
		const project = join(root, "app");
		mkdirSync(project, { recursive: true });
		mkdirSync(join(root, "vault"));
		mkdirSync(join(root, "home"));
		for (let i = 0; i < 12; i++) session(root, project, `11111111-2222-4333-8444-${String(i).padStart(12, "0")}`);
		const args = ["sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--project", project].map((a) => `'${a}'`).join(" ");
		const env = { ...process.env, HOME: join(root, "home"), XDG_CACHE_HOME: join(root, "home", ".cache") };
		// 16 KiB a file at most: the stored models and the state are larger.
		const limited = spawnSync("sh", ["-c", `ulimit -f 32 && exec '${process.execPath}' '${cli}' ${args}`], { encoding: "utf8", env });
		expect(limited.status, limited.stderr).toBe(1);
		expect(limited.stderr).toMatch(/^ai-memory: .*the file is larger than this system lets a file be \(EFBIG: a file size limit/);
		expect(limited.stderr).not.toMatch(/\n\s+at /);
		const temporaries = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".tmp"));
		expect(temporaries).toEqual([]);
		const r = spawnSync(process.execPath, [cli, ...["sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--project", project]], { encoding: "utf8", env });
		expect(r.stderr).toBe("");
		expect(r.status).toBe(0);
		expect(readdirSync(join(root, "vault", "AI Conversations", "app")).filter((n) => n.startsWith("2026-11-20"))).toHaveLength(12);
	});

	it("a transcript line longer than 64 MiB (a 640 MB one took 155 s and failed every sync) is skipped, counted, and the rest of the session is read; one still being written is skipped as it grows", () => {
		const root = join(dir, "huge-line");
		const project = join(root, "app");
		mkdirSync(project, { recursive: true });
		mkdirSync(join(root, "vault"));
		const folder = join(root, "claude", "projects", project.replace(/[^A-Za-z0-9]/g, "-"));
		mkdirSync(folder, { recursive: true });
		const env = { cwd: project, sessionId: "11111111-2222-4333-8444-555555555555" };
		const file = join(folder, `${env.sessionId}.jsonl`);
		const huge = `{"type":"user","message":{"role":"user","content":"${"x".repeat(70 * 1024 * 1024)}"}}`;
		writeFileSync(file, jsonl([userText("Add pagination to the orders list", env)]) + huge);
		const sync = () => spawnSync(process.execPath, [cli, "sync", "--vault", join(root, "vault"), "--claude-dir", join(root, "claude"), "--json"], { encoding: "utf8" });
		const first = sync();
		expect(first.status).toBe(0);
		expect((JSON.parse(first.stdout) as { errors: string[] }).errors).toEqual([]);
		// The line ends, and the session goes on after it.
		writeFileSync(file, `${readFileSync(file, "utf8")}\n${jsonl([assistant(text("Added pagination to the orders list."), { ...env, timestamp: "2026-11-20T10:00:09.000Z" })])}`);
		const second = sync();
		expect(second.status).toBe(0);
		const notes = readdirSync(join(root, "vault", "AI Conversations", "app")).filter((n) => n !== "app.md");
		expect(notes).toHaveLength(1);
		const note = readFileSync(join(root, "vault", "AI Conversations", "app", notes[0]!), "utf8");
		expect(note).toContain("Added pagination to the orders list.");
		expect(note).not.toContain("xxxxxxxxxx");
	}, 60_000);

	it("a hook given a huge input (a 40 MB paste; 200 MB made it die out of memory, exit 134) reads no more than 16 MiB of it, and exits 0", () => {
		const root = join(dir, "huge-hook-input");
		mkdirSync(join(root, "vault"), { recursive: true });
		const input = JSON.stringify({ cwd: root, session_id: "s1", prompt: "x".repeat(40_000_000) });
		const r = spawnSync(process.execPath, [join(repo, "dist", "hook.cjs"), "hook", "user-prompt-submit", "--vault", join(root, "vault")], { input, encoding: "utf8", maxBuffer: 1024 * 1024 });
		expect(r.status).toBe(0);
		expect(r.stdout).toBe("");
		const log = readFileSync(join(root, "vault", ".obsidian", "plugins", "ai-conversation-memory", "hooks.log"), "utf8");
		expect(log).toMatch(/\tuser-prompt-submit\terror\tthe hook input on stdin is not JSON \(\d+ characters\)\n$/);
	}, 60_000);
});
