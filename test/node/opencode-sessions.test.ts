import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listSessions, sessionsLines } from "../../src/node/opencode-db";
import { OpencodeSessions } from "../../src/node/opencode-sessions";
import { SqliteImage } from "../../src/node/sqlite-image";
import { closeDatabases, readDatabase } from "../../src/node/sqlite-reader";
import type { PassedOver } from "../../src/node/transcript-scanner";

/** opencode's data folder as the scanner lists it: the recorded database (1.18.33) and JSON files (1.1.65). */
const FIXTURES = join(__dirname, "..", "fixtures", "agents", "opencode");
let data: string;
beforeEach(() => {
	data = mkdtempSync(join(tmpdir(), "opencode-data-"));
});
afterEach(async () => {
	await closeDatabases();
	rmSync(data, { recursive: true, force: true });
});
const withDatabase = () => cpSync(join(FIXTURES, "1.18.33", "data"), data, { recursive: true });
const withStorage = () => cpSync(join(FIXTURES, "1.1.65", "data", "storage"), join(data, "storage"), { recursive: true });

describe("OpencodeSessions", () => {
	it("names what stands under a database's name and is none (a FIFO, a folder, a dangling link), and reads the others", async () => {
		withDatabase();
		execFileSync("mkfifo", [join(data, "opencode-beta.db")]);
		mkdirSync(join(data, "opencode-dev.db"));
		symlinkSync(join(data, "gone.db"), join(data, "opencode-old.db"));
		const passed: PassedOver[] = [];
		const found = await new OpencodeSessions(data).scan([], passed);
		expect(found.length).toBeGreaterThan(0);
		expect(passed.map((p) => `${p.path.slice(data.length + 1)}: ${p.reason.split(" (")[0]}`).sort()).toEqual(["opencode-beta.db: not read: not a plain file", "opencode-dev.db: not read: not a plain file", "opencode-old.db: not read: a link"]);
	});

	it.skipIf(process.platform === "win32")("a database under opencode's name that is a link, even to a database, is not read through it, and said, as no agent's files are", async () => {
		const elsewhere = mkdtempSync(join(tmpdir(), "opencode-elsewhere-"));
		try {
			cpSync(join(FIXTURES, "1.18.33", "data"), elsewhere, { recursive: true });
			symlinkSync(join(elsewhere, "opencode.db"), join(data, "opencode.db"));
			const passed: PassedOver[] = [];
			expect(await new OpencodeSessions(data).scan([], passed)).toEqual([]);
			expect(passed).toEqual([{ path: join(data, "opencode.db"), reason: expect.stringMatching(/^not read: a link \(/) as string }]);
		} finally {
			rmSync(elsewhere, { recursive: true, force: true });
		}
	});

	it("lists each session of the database as a transcript of its own; a child session is its parent's sub-agent", async () => {
		withDatabase();
		const files = await new OpencodeSessions(data).scan([]);
		expect(files).toHaveLength(10);
		for (const f of files) expect(f).toMatchObject({ agent: "opencode", path: `${data}#${f.fileId}`, projectDir: "opencode.db", ino: 0 });
		const child = files.find((f) => f.kind === "subagent")!;
		expect(child).toMatchObject({ fileId: "ses_dcd5c7bb6ffeqh9l1DiBpzPbIE", agentId: "ses_dcd5c7bb6ffeqh9l1DiBpzPbIE", parentSessionId: "ses_dcd5c92d6ffelM9p6XPBL08S0T" });
		// Stamped by the session's last event and its time: the database's stamp goes with them.
		expect(files.every((f) => f.size > 0 && f.mtimeMs > 1.7e12 && f.container === files[0]!.container)).toBe(true);
	});

	it("gives the known sessions back without opening the database while its files are as they were", async () => {
		withDatabase();
		const sessions = new OpencodeSessions(data);
		const first = await sessions.scan([]);
		const opened = vi.spyOn(SqliteImage, "open");
		try {
			expect(await new OpencodeSessions(data).scan(first)).toEqual(first);
			expect(opened).not.toHaveBeenCalled();
			// Once the WAL grows, it is listed again.
			writeFileSync(join(data, "opencode.db-wal"), Buffer.alloc(0), { flag: "a" });
			utimesSync(join(data, "opencode.db-wal"), new Date(), new Date(Date.now() + 2_000));
			const again = await new OpencodeSessions(data).scan(first);
			expect(opened).toHaveBeenCalled();
			expect(again.map((f) => [f.path, f.size, f.mtimeMs])).toEqual(first.map((f) => [f.path, f.size, f.mtimeMs]));
			expect(again[0]!.container).not.toBe(first[0]!.container);
		} finally {
			opened.mockRestore();
		}
	});

	it("reads the JSON files of versions before 1.2, and a session that is in a database too only once (the database's)", async () => {
		withDatabase();
		withStorage();
		const storage = join(data, "storage", "session");
		const project = readdirSync(storage)[0]!;
		// A copy of one database session in the files, as 1.2's migration left them.
		const copied = JSON.parse(readFileSync(join(storage, project, readdirSync(join(storage, project))[0]!), "utf8")) as Record<string, unknown>;
		writeFileSync(join(storage, project, "ses_dcd5d4f9effe6yCSo2deSmp2gl.json"), JSON.stringify({ ...copied, id: "ses_dcd5d4f9effe6yCSo2deSmp2gl" }));
		const files = await new OpencodeSessions(data).scan([]);
		expect(files).toHaveLength(14);
		expect(files.filter((f) => f.fileId === "ses_dcd5d4f9effe6yCSo2deSmp2gl").map((f) => f.projectDir)).toEqual(["opencode.db"]);
		const legacy = files.filter((f) => f.projectDir === "storage");
		expect(legacy).toHaveLength(4);
		expect(legacy.filter((f) => f.kind === "subagent")).toHaveLength(1);
	});

	it.each(["null", "[]", "7", '"ses"', "true"])("a legacy session file of JSON that is no object (%s) is named and passed over; the other sessions are read (attack round 48a)", async (json) => {
		withStorage();
		const storage = join(data, "storage", "session");
		const project = readdirSync(storage)[0]!;
		const bad = join(storage, project, readdirSync(join(storage, project)).sort()[0]!);
		writeFileSync(bad, json);
		utimesSync(bad, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
		// The project's file too: its worktree is no object's field.
		for (const name of readdirSync(join(data, "storage", "project"))) writeFileSync(join(data, "storage", "project", name), json);
		const passed: PassedOver[] = [];
		const sessions = new OpencodeSessions(data);
		const files = await sessions.scan([], passed);
		expect(files.filter((f) => f.projectDir === "storage")).toHaveLength(3);
		expect(passed.map((p) => `${p.path}: ${p.reason}`)).toEqual([`${bad}: not read: its JSON is no object (opencode writes a session file as one)`]);
		const lines: string[] = [];
		await sessions.read(files.find((f) => f.projectDir === "storage" && f.kind === "session")!.path, (read) => lines.push(...read.map((l) => l.text ?? "")));
		expect(lines.length).toBeGreaterThan(1);
	});

	it("a legacy session and project file of any JSON shape (seeded, 40 cases): the scan and the read never throw, and the other sessions are listed", async () => {
		withStorage();
		const storage = join(data, "storage", "session");
		const project = readdirSync(storage)[0]!;
		const bad = join(storage, project, readdirSync(join(storage, project)).sort()[0]!);
		const projectFile = join(data, "storage", "project", readdirSync(join(data, "storage", "project"))[0]!);
		let seed = 48;
		const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		const values: unknown[] = [null, 0, -1, 1e308, "", "ses_x", "../..", [], [null], {}, true, { a: 1 }];
		const any = (): unknown => values[Math.floor(next() * values.length)];
		const field = (o: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((k) => [k, next() < 0.5 ? any() : o[k]]));
		const original = JSON.parse(readFileSync(bad, "utf8")) as Record<string, unknown>;
		for (let i = 0; i < 40; i++) {
			const session = next() < 0.3 ? any() : { ...original, ...field(original, ["id", "parentID", "title", "directory", "time", "version", "projectID"]) };
			writeFileSync(bad, JSON.stringify(session));
			writeFileSync(projectFile, JSON.stringify(next() < 0.5 ? any() : { worktree: any(), time: any() }));
			const sessions = new OpencodeSessions(data);
			const files = await sessions.scan([], []);
			expect(files.filter((f) => f.projectDir === "storage" && f.container !== bad).length).toBe(3);
			for (const f of files) await sessions.read(f.path, () => undefined);
		}
	});

	it("a legacy session's stamp moves when a part of its latest message changes", async () => {
		withStorage();
		const sessions = new OpencodeSessions(data);
		const before = await sessions.scan([]);
		const target = before.find((f) => f.kind === "session")!;
		const messages = join(data, "storage", "message", target.fileId);
		const last = readdirSync(messages).sort().at(-1)!.replace(/\.json$/, "");
		const parts = join(data, "storage", "part", last);
		const part = join(parts, readdirSync(parts)[0]!);
		utimesSync(part, new Date(), new Date(Date.now() + 60_000));
		const after = await sessions.scan(before);
		expect(after.find((f) => f.path === target.path)!.mtimeMs).toBeGreaterThan(target.mtimeMs);
		expect(after.filter((f) => f.path !== target.path).map((f) => f.mtimeMs)).toEqual(before.filter((f) => f.path !== target.path).map((f) => f.mtimeMs));
	});

	it("a legacy session whose id is a path (`../../..`) is known by its file's name: no folder outside the storage is read", async () => {
		withStorage();
		const sessions = new OpencodeSessions(data);
		const target = (await sessions.scan([])).find((f) => f.kind === "session")!;
		// Messages planted outside the storage, which the id would lead to: `storage/message/../../../outside`.
		const outside = join(data, "..", "outside");
		cpSync(join(data, "storage", "message", target.fileId), outside, { recursive: true });
		for (const name of readdirSync(outside)) writeFileSync(join(outside, name), readFileSync(join(outside, name), "utf8").replace(/"role":"user"/, `"role":"user","planted":"OUTSIDE-MARK"`));
		const project = readdirSync(join(data, "storage", "session"))[0]!;
		const copied = JSON.parse(readFileSync(target.container as string, "utf8")) as Record<string, unknown>;
		writeFileSync(join(data, "storage", "session", project, "ses_planted.json"), JSON.stringify({ ...copied, id: "../../../outside" }));
		const planted = (await sessions.scan([])).find((f) => f.container?.endsWith("ses_planted.json"))!;
		expect(planted.fileId).toBe("ses_planted");
		const lines: string[] = [];
		await sessions.read(planted.path, (read) => lines.push(...read.map((l) => l.text ?? "")));
		expect(lines.join("\n")).not.toContain("OUTSIDE-MARK");
		expect(lines).toHaveLength(1);
	});

	it("a legacy part file with a raw NUL in its text (JSON never holds one) is read without it: the prompt it holds was lost", async () => {
		withStorage();
		const sessions = new OpencodeSessions(data);
		const target = (await sessions.scan([])).find((f) => f.kind === "session" && f.fileId === "ses_dcd59949dffeUCGiKdlRFFghEh")!;
		const part = join(data, "storage", "part", "msg_232a66bc6001JcQ0dGG4T6k31c", "prt_232a66bc7001RXF7Tg5uai29qX.json");
		writeFileSync(part, readFileSync(part, "utf8").replace("Read README", "Read\u0000 README"));
		const lines: string[] = [];
		await sessions.read(target.path, (read) => lines.push(...read.map((l) => l.text ?? "")));
		expect(lines.some((l) => l.includes("Read README.md, list the files"))).toBe(true);
	});

	it("a legacy session file's field that is no column's value (a title nested 100,000 deep) is read as none, not a stack overflow", async () => {
		withStorage();
		const sessions = new OpencodeSessions(data);
		const target = (await sessions.scan([])).find((f) => f.kind === "session")!;
		const copied = readFileSync(target.container as string, "utf8");
		const deep = "[".repeat(100_000) + "]".repeat(100_000);
		writeFileSync(target.container as string, JSON.stringify({ ...(JSON.parse(copied) as object), title: "TITLE", directory: { a: 1 } }).replace('"TITLE"', deep));
		const lines: string[] = [];
		await sessions.read(target.path, (read) => lines.push(...read.map((l) => l.text ?? "")));
		const [, row] = JSON.parse(lines[0]!) as [string, Record<string, unknown>];
		expect(row.title).toBeNull();
		expect(row.directory).toBeNull();
		expect(lines.length).toBeGreaterThan(1);
	});

	it("a legacy session file with a UTF-8 BOM is read; one that is not JSON once settled is named, one just written is not", async () => {
		withStorage();
		const sessions = new OpencodeSessions(data);
		const target = (await sessions.scan([])).find((f) => f.kind === "session")!;
		const project = readdirSync(join(data, "storage", "session"))[0]!;
		const copied = JSON.parse(readFileSync(target.container as string, "utf8")) as Record<string, unknown>;
		const file = (name: string) => join(data, "storage", "session", project, `${name}.json`);
		writeFileSync(file("ses_bom"), `\ufeff${JSON.stringify({ ...copied, id: "ses_bom" })}`);
		writeFileSync(file("ses_utf16"), Buffer.from(`\ufeff${JSON.stringify({ ...copied, id: "ses_utf16" })}`, "utf16le"));
		writeFileSync(file("ses_half"), JSON.stringify({ ...copied, id: "ses_half" }).slice(0, 40));
		const old = new Date(Date.now() - 60_000);
		utimesSync(file("ses_utf16"), old, old);
		const passed: PassedOver[] = [];
		const found = await sessions.scan([], passed);
		expect(found.some((f) => f.fileId === "ses_bom")).toBe(true);
		expect(passed.map((p) => `${p.path.slice(data.length + 1)}: ${p.reason.split(" (")[0]}`)).toEqual([join("storage", "session", project, "ses_utf16.json") + ": not read: it is not JSON"]);
	});

	it("a legacy session file or project folder named with a byte that is not UTF-8 is named, not skipped without a word", async () => {
		withStorage();
		const sessions = join(data, "storage", "session");
		const project = readdirSync(sessions)[0]!;
		// Node lists 0xE9 as U+FFFD, and that name opens nothing.
		writeFileSync(Buffer.concat([Buffer.from(join(sessions, project, "ses_caf")), Buffer.from([0xe9]), Buffer.from(".json")]), "{}");
		mkdirSync(Buffer.concat([Buffer.from(join(sessions, "prj_")), Buffer.from([0xff])]));
		const passed: PassedOver[] = [];
		await new OpencodeSessions(data).scan([], passed);
		expect(passed.map((p) => `${p.path.slice(data.length + 1)}: ${p.reason.split(" (")[0]}`).sort()).toEqual([
			join("storage", "session", project, "ses_caf\uFFFD.json") + ": not read: its name is not UTF-8",
			join("storage", "session", "prj_\uFFFD") + ": not read: its name is not UTF-8",
		]);
	});

	it.skipIf(process.platform === "win32")("a legacy session, message or part file that is a link (or a message folder that is one) is not read", async () => {
		withStorage();
		const sessions = new OpencodeSessions(data);
		const target = (await sessions.scan([])).find((f) => f.kind === "session")!;
		const outside = mkdtempSync(join(tmpdir(), "opencode-outside-"));
		try {
			const project = readdirSync(join(data, "storage", "session"))[0]!;
			const copied = JSON.parse(readFileSync(target.container as string, "utf8")) as Record<string, unknown>;
			writeFileSync(join(outside, "s.json"), JSON.stringify({ ...copied, id: "ses_linked", title: "OUTSIDE-MARK" }));
			symlinkSync(join(outside, "s.json"), join(data, "storage", "session", project, "ses_linked.json"));
			// A session of its own file whose message folder is a link to another session's messages, and a part linked outside.
			writeFileSync(join(data, "storage", "session", project, "ses_own.json"), JSON.stringify({ ...copied, id: "ses_own" }));
			symlinkSync(join(data, "storage", "message", target.fileId), join(data, "storage", "message", "ses_own"));
			execFileSync("mkfifo", [join(data, "storage", "session", project, "ses_fifo.json")]);
			const passed: PassedOver[] = [];
			const files = await sessions.scan([], passed);
			expect(files.some((f) => f.container?.endsWith("ses_linked.json"))).toBe(false);
			// Said, as other agents' files passed over are: the user learns why those sessions have no notes.
			expect(passed.map((p) => `${p.path.slice(data.length + 1)}: ${p.reason.split(" (")[0]}`).sort()).toEqual([
				join("storage", "message", "ses_own") + ": not read: a link",
				join("storage", "session", project, "ses_fifo.json") + ": not read: not a plain file",
				join("storage", "session", project, "ses_linked.json") + ": not read: a link",
			]);
			const own = files.find((f) => f.container?.endsWith("ses_own.json"))!;
			const lines: string[] = [];
			await sessions.read(own.path, (read) => lines.push(...read.map((l) => l.text ?? "")));
			expect(lines).toHaveLength(1);
		} finally {
			rmSync(outside, { recursive: true, force: true });
		}
	});

	it("a FIFO where the legacy message folder should be names each session's messages as unread; the database's sessions and the legacy ones are still listed", async () => {
		withDatabase();
		withStorage();
		rmSync(join(data, "storage", "message"), { recursive: true });
		execFileSync("mkfifo", [join(data, "storage", "message")]);
		const passed: PassedOver[] = [];
		const found = await new OpencodeSessions(data).scan([], passed);
		expect(found.some((f) => f.projectDir === "storage")).toBe(true);
		expect(found.some((f) => f.projectDir !== "storage")).toBe(true);
		expect(passed.length).toBeGreaterThan(0);
		expect(passed.every((p) => p.path.startsWith(join(data, "storage", "message")) && p.reason.startsWith("not read: a file stands where a folder"))).toBe(true);
	});

	it("stamps a session no later than its database's last write when its row says later by more than a day; a row within the day keeps its own", async () => {
		withDatabase();
		const rows = await new OpencodeSessions(data).scan([]);
		const latest = Math.max(...rows.map((f) => f.mtimeMs));
		// The files last written two days before the rows say they were updated (a row that says 2999 is the same case).
		const written = new Date(latest - 2 * 86_400_000);
		for (const name of readdirSync(data).filter((n) => n.startsWith("opencode.db"))) utimesSync(join(data, name), written, written);
		await closeDatabases();
		const found = await new OpencodeSessions(data).scan([]);
		expect(found.length).toBe(rows.length);
		// A file's time in milliseconds is a float of its nanoseconds: equal within one.
		expect(Math.max(...found.map((f) => f.mtimeMs))).toBeCloseTo(written.getTime(), -1);
		expect(found.filter((f) => f.mtimeMs < written.getTime() - 1).length).toBe(rows.filter((f) => f.mtimeMs < written.getTime() - 1).length);
		// Written a moment before its rows say (a file's time lags the clock): every row keeps its own stamp, which tells a change.
		const moment = new Date(latest - 5);
		for (const name of readdirSync(data).filter((n) => n.startsWith("opencode.db"))) utimesSync(join(data, name), moment, moment);
		await closeDatabases();
		expect((await new OpencodeSessions(data).scan([])).map((f) => f.mtimeMs)).toEqual(rows.map((f) => f.mtimeMs));
	});

	it("lists other release channels' databases too", async () => {
		mkdirSync(data, { recursive: true });
		cpSync(join(FIXTURES, "1.18.33", "data", "opencode.db"), join(data, "opencode-beta.db"));
		const files = await new OpencodeSessions(data).scan([]);
		expect(files).toHaveLength(9);
		expect(new Set(files.map((f) => f.projectDir))).toEqual(new Set(["opencode-beta.db"]));
	});

	it("a database it cannot read is one transcript that fails with the reason; its known sessions stay", async () => {
		withDatabase();
		const sessions = new OpencodeSessions(data);
		const first = await sessions.scan([]);
		writeFileSync(join(data, "opencode.db"), "garbage");
		const files = await sessions.scan(first);
		expect(files.filter((f) => f.fileId !== "")).toEqual(first);
		const failed = files.find((f) => f.fileId === "")!;
		expect(failed.path).toBe(join(data, "opencode.db"));
		expect(sessions.owns(failed.path)).toBe(true);
		await expect(sessions.read(failed.path, () => undefined)).rejects.toThrow("not an SQLite database");
	});

	it("a session gone since the scan is said to be gone", async () => {
		withStorage();
		const sessions = new OpencodeSessions(data);
		const file = (await sessions.scan([]))[0]!;
		rmSync(join(data, "storage"), { recursive: true });
		await expect(sessions.read(file.path, () => undefined)).rejects.toThrow(/no longer in .*the next sync looks again/);
	});
});

describe("sessionsLines", () => {
	it("in one pass over the tables gives each session asked for the lines a batch gives it, for every session of the database or a few", async () => {
		withDatabase();
		await readDatabase(join(data, "opencode.db"), async (db) => {
			const ids = (await listSessions(db)).map((s) => s.id);
			const batched = await sessionsLines(db, ids);
			const all = await sessionsLines(db, ids, true);
			const few = await sessionsLines(db, ids.slice(0, 2), true);
			expect(ids.length).toBeGreaterThan(2);
			expect([...all.keys()].sort()).toEqual([...ids].sort());
			for (const id of ids) expect(all.get(id)!(), id).toEqual(batched.get(id)!());
			expect([...few.keys()]).toEqual(ids.slice(0, 2));
			for (const id of ids.slice(0, 2)) expect(few.get(id)!()).toEqual(batched.get(id)!());
			expect(batched.get(ids[0]!)!().lines.length).toBeGreaterThan(1);
		});
	});
});
