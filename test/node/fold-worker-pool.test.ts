import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { threadId, type Worker } from "node:worker_threads";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateSettings } from "../../src/core/settings";
import { FoldWorkerPool } from "../../src/node/fold-worker-pool";
import { runFoldJob } from "../../src/node/fold-worker-job";
import { conversationText } from "../../src/core/notes/conversation-text";
import { VaultSync } from "../../src/node/vault-sync";
import { StateFolder } from "../../src/node/state-folder";
import { MemoryNotes } from "../fakes/memory-notes";
import { assistant, jsonl, text, toolResult, toolUse, userText } from "../fixtures/lines";

/**
 * The CLI folds new transcripts on worker threads, which also write the stored models. Whatever
 * thread does the work, the notes and the state must be the same.
 */
const projects = resolve(__dirname, "..", "..", "examples", "claude-projects");
let dir: string;
let script: string;

beforeAll(async () => {
	dir = await mkdtemp(join(tmpdir(), "fold-pool-"));
	script = join(dir, "fold-worker.cjs");
	await esbuild.build({
		entryPoints: [resolve(__dirname, "..", "..", "src", "node", "fold-worker.ts")],
		bundle: true,
		platform: "node",
		format: "cjs",
		external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
		outfile: script,
		logLevel: "warning",
	});
});

afterAll(async () => {
	await rm(dir, { recursive: true, force: true });
});

async function syncWith(pool: FoldWorkerPool | undefined, stateDir: string, notes = new MemoryNotes()) {
	const report = await new VaultSync(projects, stateDir, notes, { pool }).run(migrateSettings({}).settings);
	return { report, notes };
}

/** Every stored model, by transcript path, as a later run loads it (from its own file or a pack). */
async function storedModels(stateDir: string): Promise<Map<string, unknown>> {
	const store = new StateFolder(stateDir);
	const paths = (await store.known()).map((f) => f.path).sort();
	return new Map(await Promise.all(paths.map(async (p) => [p, await store.load(p)] as const)));
}

describe("fold worker pool", () => {
	it("gives the same notes and stored models as folding on the calling thread", async () => {
		const pool = FoldWorkerPool.at(script);
		expect(pool).toBeDefined();
		const threaded = await syncWith(pool, join(dir, "threaded"));
		await pool?.close();
		const inline = await syncWith(undefined, join(dir, "inline"));

		expect(threaded.report.errors).toEqual([]);
		expect(threaded.report.notesWritten.length).toBeGreaterThan(4);
		expect([...threaded.notes.files]).toEqual([...inline.notes.files]);
		const threadedModels = await storedModels(join(dir, "threaded"));
		const inlineModels = await storedModels(join(dir, "inline"));
		expect(threadedModels.size).toBeGreaterThan(4);
		expect([...threadedModels.values()].every((m) => m !== undefined)).toBe(true);
		expect(threadedModels).toEqual(inlineModels);
		// The workers' models went to packs, a few files for all of them.
		const files = await readdir(join(dir, "threaded", "models"));
		expect(files.filter((n) => n.endsWith(".tmp"))).toEqual([]);
		expect(files.filter((n) => n.startsWith("pack-")).length).toBeGreaterThan(0);
		expect(files.filter((n) => n.startsWith("pack-")).length).toBeLessThan(threadedModels.size);
	});

	it("a session a worker digested and a summary in another file titles is digested again from its whole model, as on the calling thread", async () => {
		const tree = join(dir, "summary-tree");
		const folder = join(tree, "-home-dev-shop-api");
		await mkdir(folder, { recursive: true });
		const one = "aaaaaaaa-0000-4000-8000-000000000001";
		// Long enough to go to a worker (small files are folded on the calling thread), with a command its digest names.
		const answer = `Fixed: ${"the session cookie now renews before it expires. ".repeat(900)}`;
		await writeFile(join(folder, "aaaaaaaa-0000-4000-8000-000000000001.jsonl"), jsonl([userText("fix the login bug", { uuid: "u-login", sessionId: one }), assistant(text("Looking at the cookie code."), { sessionId: one }), assistant(toolUse("t1", "Bash", { command: "npm test -- login" }), { sessionId: one }), toolResult("t1", "1 passing", { sessionId: one }), assistant(text(answer), { sessionId: one })]));
		await writeFile(join(folder, "aaaaaaaa-0000-4000-8000-000000000002.jsonl"), jsonl([{ type: "summary", summary: "Login cookie renewal", leafUuid: "u-login" }, userText("and now the logout", { sessionId: "aaaaaaaa-0000-4000-8000-000000000002", timestamp: "2026-11-21T10:00:00.000Z" }), assistant(text(answer), { sessionId: "aaaaaaaa-0000-4000-8000-000000000002", timestamp: "2026-11-21T10:00:01.000Z" })]));
		const run = async (pool: FoldWorkerPool | undefined, stateDir: string) => {
			const notes = new MemoryNotes();
			const report = await new VaultSync(tree, stateDir, notes, { pool }).run(migrateSettings({}).settings);
			return { report, notes };
		};
		const pool = FoldWorkerPool.at(script);
		const threaded = await run(pool, join(dir, "summary-threaded"));
		await pool?.close();
		const inline = await run(undefined, join(dir, "summary-inline"));
		expect(threaded.report.errors).toEqual([]);
		expect([...threaded.notes.files]).toEqual([...inline.notes.files]);
		expect([...threaded.notes.files.keys()].some((p) => p.includes("Login cookie renewal"))).toBe(true);
		expect(await storedModels(join(dir, "summary-threaded"))).toEqual(await storedModels(join(dir, "summary-inline")));
	});

	it("a project excluded after its sessions were packed keeps no byte of them in the state", async () => {
		const tree = join(dir, "exclude-tree");
		const folder = join(tree, "-home-dev-secret-app");
		await mkdir(folder, { recursive: true });
		const id = "bbbbbbbb-0000-4000-8000-000000000001";
		const marker = "PRIVATE-PROJECT-DETAIL ".repeat(2000);
		await writeFile(join(folder, `${id}.jsonl`), jsonl([userText("look at the secret app", { sessionId: id, cwd: "/home/dev/secret-app" }), assistant(text(marker), { sessionId: id, cwd: "/home/dev/secret-app" })]));
		const stateDir = join(dir, "exclude-state");
		const pool = FoldWorkerPool.at(script);
		const run = (settings: ReturnType<typeof migrateSettings>["settings"]) => new VaultSync(tree, stateDir, new MemoryNotes(), { pool }).run(settings);
		await run(migrateSettings({}).settings);
		const stateText = async () => (await Promise.all((await readdir(join(stateDir, "models"))).map((n) => readFile(join(stateDir, "models", n), "utf8")))).join("");
		expect(await stateText()).toContain("PRIVATE-PROJECT-DETAIL");
		await run(migrateSettings({ excludedProjects: ["/home/dev/secret-app"] }).settings);
		await pool?.close();
		expect(await stateText()).not.toContain("PRIVATE-PROJECT-DETAIL");
	});

	it("leaves models a later run loads: nothing is read or written again", async () => {
		const pool = FoldWorkerPool.at(script);
		const stateDir = join(dir, "again");
		const first = await syncWith(pool, stateDir);
		const second = await syncWith(pool, stateDir, first.notes);
		await pool?.close();
		expect(second.report.transcriptsRead).toBe(0);
		expect(second.report.notesWritten).toEqual([]);
		expect(first.notes.writes).toBe(first.report.notesWritten.length);
	});

	it("reports a transcript it cannot read and goes on with the rest", async () => {
		const pool = FoldWorkerPool.at(script)!;
		await expect(pool.fold({ path: join(dir, "missing.jsonl"), fileId: "missing", kind: "session", projectDir: "x", size: 1, mtimeMs: 0, ino: 0 }, undefined)).rejects.toThrow(/ENOENT/);
		await pool.close();
	});

	it("hands a session's conversation back as UTF-8 bytes, as a fold on the calling thread makes them", async () => {
		const file = join(dir, "conversation.jsonl");
		const env = { cwd: "/work/app", sessionId: "c0ffee00-1111-4222-8333-444455556666" };
		await writeFile(file, jsonl([userText("Traduis le README en français — et en 日本語 🎌 \u001b]0;pwned\u0007\u202eexe.txt", env), assistant(text("Voilà : README.fr.md et README.ja.md."), { ...env, timestamp: "2026-11-20T10:00:09.000Z" })]));
		const session = { path: file, fileId: env.sessionId, kind: "session" as const, projectDir: "-work-app", size: 1, mtimeMs: 0, ino: 0 };
		const pool = FoldWorkerPool.at(script, 1)!;
		const folded = await pool.fold(session, undefined, undefined, "full");
		await pool.close();
		expect(folded.conversation).toBeInstanceOf(Uint8Array);
		const here = await runFoldJob({ id: 0, file: session, spec: undefined, detail: "full" });
		expect(here.conversation).toBeInstanceOf(Uint8Array);
		expect(conversationText(folded.conversation)).toBe(conversationText(here.conversation));
		expect(conversationText(here.conversation)).toContain("日本語 🎌");
		// Printable already: the bytes go to a new note as they are (see `SessionNoteText`).
		expect(conversationText(here.conversation)).toContain("exe.txt");
		for (const dropped of ["\u001b", "\u0007", "\u202e", "pwned"]) expect(conversationText(here.conversation)).not.toContain(dropped);
	});

	it("a worker holds its next job while it folds one: a failed one fails alone, the others come back", async () => {
		const pool = FoldWorkerPool.at(script, 1)!;
		const session = (name: string) => ({ path: join(projects, "-tmp-ai-memory-demo-shop-api", `${name}.jsonl`), fileId: name, kind: "session" as const, projectDir: "-tmp-ai-memory-demo-shop-api", size: 1, mtimeMs: 0, ino: 0 });
		const [first, missing, last] = await Promise.allSettled([pool.fold(session("5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01"), undefined), pool.fold({ ...session("x"), path: join(dir, "missing.jsonl") }, undefined), pool.fold(session("5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d02"), undefined)]);
		await pool.close();
		expect(first.status === "fulfilled" && first.value.model.fileId).toBe("5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01");
		expect(missing.status === "rejected" && String(missing.reason)).toMatch(/ENOENT/);
		expect(last.status === "fulfilled" && last.value.model.fileId).toBe("5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d02");
	});

	it("the calling thread folds a waiting job while every worker holds its share, one at a time", async () => {
		const pool = FoldWorkerPool.at(script, 1)!;
		const packs = join(dir, "packs-here");
		await mkdir(packs);
		const names = ["5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01", "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d02"];
		const session = (name: string) => ({ path: join(projects, "-tmp-ai-memory-demo-shop-api", `${name}.jsonl`), fileId: name, kind: "session" as const, projectDir: "-tmp-ai-memory-demo-shop-api", size: 1, mtimeMs: 0, ino: 0 });
		// More jobs than a worker holds: the rest wait, and this thread takes one of them.
		const jobs = Array.from({ length: 4 }, () => names).flat();
		const folded = await Promise.all(jobs.map((n) => pool.fold(session(n), undefined, packs)));
		await pool.close();
		expect(folded.map((f) => f.model.fileId)).toEqual(jobs);
		// Packs are named for the thread that wrote them: this one (0) and the worker.
		const threads = new Set((await readdir(packs)).map((f) => f.split("-")[2]));
		expect(threads.has(String(threadId))).toBe(true);
		expect(threads.size).toBe(2);
	});

	it("folds on the calling thread when its workers cannot start, with the same result", async () => {
		const broken = join(dir, "broken-worker.cjs");
		await writeFile(broken, 'throw new Error("no worker here");\n');
		const brokenPool = FoldWorkerPool.at(broken)!;
		const threaded = await syncWith(brokenPool, join(dir, "broken"));
		await brokenPool.close();
		const inline = await syncWith(undefined, join(dir, "inline-2"));
		expect(threaded.report.errors).toEqual([]);
		expect([...threaded.notes.files]).toEqual([...inline.notes.files]);
		expect(await storedModels(join(dir, "broken"))).toEqual(await storedModels(join(dir, "inline-2")));
	});

	it("a worker started before any job waits for it, past the idle time, and folds it", async () => {
		const pool = FoldWorkerPool.at(script, 1)!;
		pool.warm();
		const [warmed] = [...(pool as unknown as { busy: Map<Worker, unknown> }).busy.keys()];
		const warmedThread = warmed!.threadId;
		await new Promise((resolve) => setTimeout(resolve, 200));
		const packs = join(dir, "packs-warm");
		await mkdir(packs);
		const name = "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01";
		const folded = await pool.fold({ path: join(projects, "-tmp-ai-memory-demo-shop-api", `${name}.jsonl`), fileId: name, kind: "session" as const, projectDir: "-tmp-ai-memory-demo-shop-api", size: 1, mtimeMs: 0, ino: 0 }, undefined, packs);
		await pool.close();
		expect(folded.model.fileId).toBe(name);
		// Packed by the worker started first, not by this thread nor by another worker.
		expect((await readdir(packs)).map((f) => f.split("-")[2])).toEqual([String(warmedThread)]);
	});

	it("ends idle workers, and starts them again for the next job", async () => {
		const pool = FoldWorkerPool.at(script)!;
		const file = { path: join(projects, "-tmp-ai-memory-demo-shop-api", "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01.jsonl"), fileId: "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01", kind: "session" as const, projectDir: "-tmp-ai-memory-demo-shop-api", size: 1, mtimeMs: 0, ino: 0 };
		const first = await pool.fold(file, undefined);
		await new Promise((resolve) => setTimeout(resolve, 200));
		const second = await pool.fold(file, undefined);
		expect(second.model).toEqual(first.model);
		expect(first.model.counts.records).toBeGreaterThan(0);
		await pool.close();
	});

	// Threads are counted against RLIMIT_NPROC only for a user other than root: the child runs as nobody.
	it.skipIf(process.getuid?.() !== 0)("folds on the calling thread when the system refuses a new thread (`ulimit -u`), not a sync that stops on EAGAIN", async () => {
		const { run, entry, name, file } = await childRun("refused");
		// Its own threads (V8's, libuv's pool) started first; then the limit is what it has, so a worker's thread is refused.
		await writeFile(entry, `
			import { spawnSync } from "node:child_process";
			import { readFileSync } from "node:fs";
			import { readFile } from "node:fs/promises";
			import { FoldWorkerPool } from ${JSON.stringify(resolve(__dirname, "..", "..", "src", "node", "fold-worker-pool.ts"))};
			(async () => {
				await Promise.all([1, 2, 3, 4, 5].map(() => readFile(__filename)));
				const threads = Number(/Threads:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]);
				spawnSync("prlimit", ["--pid", String(process.pid), "--nproc=" + threads]);
				const pool = FoldWorkerPool.at(${JSON.stringify(script)}, 2);
				const folded = await pool.fold(${JSON.stringify(file)}, undefined);
				await pool.close();
				console.log("folded " + folded.model.fileId);
			})().catch((e) => console.log("failed " + e.message));
		`);
		const bundle = await bundled(run, entry);
		await chmod(dir, 0o755);
		const child = spawnSync(process.execPath, [bundle], { uid: 65534, gid: 65534, encoding: "utf8", timeout: 30_000 });
		expect(child.stdout.trim()).toBe(`folded ${name}`);
	});

	it.skipIf(process.platform !== "linux")("folds on the calling thread under a limit on the address space (`ulimit -v`), where a worker's start would end the process", async () => {
		const { run, entry, name, file } = await childRun("address-space");
		await writeFile(entry, `
			import { FoldWorkerPool } from ${JSON.stringify(resolve(__dirname, "..", "..", "src", "node", "fold-worker-pool.ts"))};
			(async () => {
				const pool = FoldWorkerPool.at(${JSON.stringify(script)}, 2);
				const folded = await (pool ? pool.fold(${JSON.stringify(file)}, undefined) : import(${JSON.stringify(resolve(__dirname, "..", "..", "src", "node", "fold-worker-job.ts"))}).then((m) => m.runFoldJob({ id: 1, file: ${JSON.stringify(file)}, spec: undefined })));
				await pool?.close();
				console.log("folded " + folded.model.fileId);
			})().catch((e) => console.log("failed " + e.message));
		`);
		const bundle = await bundled(run, entry);
		// Enough for Node and one isolate, not for a worker's reservations besides.
		const child = spawnSync("sh", ["-c", `ulimit -v 1500000 && exec "$0" "$1"`, process.execPath, bundle], { encoding: "utf8", timeout: 60_000 });
		expect([child.status, child.stdout.trim()]).toEqual([0, `folded ${name}`]);
	});
});

/** A folder of its own for a script run in a child process, and the demo session it folds. */
async function childRun(folder: string) {
	const run = join(dir, folder);
	await mkdir(run);
	const name = "5b0d7a4e-1c2f-4e8a-9d3b-6f1e2a3c4d01";
	const file = { path: join(projects, "-tmp-ai-memory-demo-shop-api", `${name}.jsonl`), fileId: name, kind: "session", projectDir: "-tmp-ai-memory-demo-shop-api", size: 1, mtimeMs: 0, ino: 0 };
	return { run, entry: join(run, "entry.ts"), name, file };
}

/** `entry` bundled for Node beside it (Node's own modules left to Node). */
async function bundled(run: string, entry: string): Promise<string> {
	const bundle = join(run, "entry.cjs");
	await esbuild.build({ entryPoints: [entry], bundle: true, platform: "node", format: "cjs", external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)], outfile: bundle, logLevel: "warning" });
	return bundle;
}
