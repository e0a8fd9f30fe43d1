import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scanTranscripts, type PassedOver } from "../../src/node/transcript-scanner";

const ID = "aaaaaaaa-1111-4000-8000-000000000001";
let root: string;

beforeEach(async () => {
	root = await mkdtemp(join(tmpdir(), "scanner-"));
	await mkdir(join(root, "projects", "-p"), { recursive: true });
	await mkdir(join(root, "elsewhere", "-q"), { recursive: true });
	await writeFile(join(root, "projects", "-p", `${ID}.jsonl`), "{}\n");
	await writeFile(join(root, "elsewhere", "secret.jsonl"), '{"type":"user","message":{"content":"secret"}}\n');
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("scanTranscripts: what it does not read", () => {
	it("reads no link and no FIFO where a transcript or a project folder would be, and says which and why", async () => {
		const projects = join(root, "projects");
		await symlink(join(root, "elsewhere", "secret.jsonl"), join(projects, "-p", "bbbbbbbb-2222-4000-8000-000000000002.jsonl"));
		await symlink(join(root, "elsewhere", "-q"), join(projects, "-q"));
		execFileSync("mkfifo", [join(projects, "-p", "cccccccc-3333-4000-8000-000000000003.jsonl")]);
		// Not a transcript's name: none of ours, nothing to say.
		await symlink(join(root, "elsewhere", "secret.jsonl"), join(projects, "-p", "notes.txt"));
		// A session's subagents folder that links out.
		await mkdir(join(root, "elsewhere", "subagents"));
		await writeFile(join(root, "elsewhere", "subagents", "agent-abc.jsonl"), "{}\n");
		await mkdir(join(projects, "-p", ID));
		await symlink(join(root, "elsewhere", "subagents"), join(projects, "-p", ID, "subagents"));
		const passed: PassedOver[] = [];
		const files = await scanTranscripts(projects, passed);
		expect(files.map((f) => f.path)).toEqual([join(projects, "-p", `${ID}.jsonl`)]);
		expect(passed.map((p) => [p.path.slice(projects.length + 1), p.reason]).sort()).toEqual([
			[`-p/${ID}/subagents`, "not read: a link (transcripts are read where the agent writes them, never through a link)"],
			["-p/bbbbbbbb-2222-4000-8000-000000000002.jsonl", "not read: a link (transcripts are read where the agent writes them, never through a link)"],
			["-p/cccccccc-3333-4000-8000-000000000003.jsonl", "not read: neither a file nor a folder (a FIFO, a socket or a device)"],
			["-q", "not read: a link (transcripts are read where the agent writes them, never through a link)"],
		]);
	});
});

describe("scanTranscripts: names that are not UTF-8", () => {
	it("names a transcript and a project folder whose names hold a byte that is not UTF-8, and reads one that holds U+FFFD itself", async () => {
		const projects = join(root, "projects");
		// Linux takes any byte but `/` and NUL; Node lists 0xE9 (Latin-1's é) as U+FFFD.
		await writeFile(Buffer.concat([Buffer.from(join(projects, "-p", "caf")), Buffer.from([0xe9]), Buffer.from(".jsonl")]), "{}\n");
		await mkdir(Buffer.concat([Buffer.from(join(projects, "-r")), Buffer.from([0xff])]));
		// The character itself, written as UTF-8, is a name like any other.
		await writeFile(join(projects, "-p", "bbbbbbbb-2222-4000-8000-00000000000\uFFFD.jsonl"), "{}\n");
		const passed: PassedOver[] = [];
		const files = await scanTranscripts(projects, passed);
		expect(files.map((f) => f.path.slice(projects.length + 1)).sort()).toEqual([`-p/${ID}.jsonl`, "-p/bbbbbbbb-2222-4000-8000-00000000000\uFFFD.jsonl"]);
		expect(passed.map((p) => p.path.slice(projects.length + 1)).sort()).toEqual(["-p/caf\uFFFD.jsonl", "-r\uFFFD"]);
		expect(passed.every((p) => p.reason.includes("not UTF-8"))).toBe(true);
	});
});

describe("scanTranscripts: a file-sync tool's copies", () => {
	it("reads one file per session where a conflict copy lies beside a transcript, and names the other", async () => {
		const dir = join(root, "projects", "-p");
		// The session went on in the copy: it begins with all of the original.
		await writeFile(join(dir, `${ID}.sync-conflict-20261104-101010-ABCDEFG.jsonl`), "{}\n{}\n");
		await writeFile(join(dir, `._${ID}.jsonl`), "\u0000\u0005\u0016\u0007");
		await mkdir(join(dir, ID, "subagents"), { recursive: true });
		await writeFile(join(dir, ID, "subagents", "agent-a1.jsonl"), "{}\n");
		await writeFile(join(dir, ID, "subagents", "agent-a1 (conflicted copy).jsonl"), "{}\n");
		const passed: PassedOver[] = [];
		const found = await scanTranscripts(join(root, "projects"), passed);
		expect(found.map((f) => [f.path.slice(dir.length + 1), f.fileId]).sort()).toEqual([
			[`${ID}.sync-conflict-20261104-101010-ABCDEFG.jsonl`, ID],
			[join(ID, "subagents", "agent-a1.jsonl"), "agent-a1"],
		]);
		expect(passed.map((p) => p.path.slice(dir.length + 1)).sort()).toEqual([`${ID}.jsonl`, join(ID, "subagents", "agent-a1 (conflicted copy).jsonl")]);
	});

	it("reads the original where a longer copy went its own way (two machines wrote on after they parted)", async () => {
		const dir = join(root, "projects", "-p");
		await writeFile(join(dir, `${ID}.jsonl`), '{}\n{"mine":1}\n');
		await writeFile(join(dir, `${ID} (conflicted copy).jsonl`), '{}\n{"theirs":1}\n{"theirs":2}\n');
		const passed: PassedOver[] = [];
		expect((await scanTranscripts(join(root, "projects"), passed)).map((f) => f.path)).toEqual([join(dir, `${ID}.jsonl`)]);
		expect(passed).toEqual([{ path: join(dir, `${ID} (conflicted copy).jsonl`), reason: expect.stringContaining("merge them by hand") as unknown }]);
	});

	it("names an iCloud Drive placeholder of a session's transcript, with the transcript it stands for", async () => {
		const dir = join(root, "projects", "-p");
		const evicted = "bbbbbbbb-2222-4000-8000-000000000002";
		await writeFile(join(dir, `.${evicted}.jsonl.icloud`), "bplist00");
		await writeFile(join(dir, ".notes.txt.icloud"), "bplist00");
		const passed: PassedOver[] = [];
		expect((await scanTranscripts(join(root, "projects"), passed)).map((f) => f.fileId)).toEqual([ID]);
		expect(passed).toEqual([{ path: join(dir, `.${evicted}.jsonl.icloud`), reason: expect.stringContaining("iCloud Drive keeps this transcript in the cloud only") as unknown, standsFor: join(dir, `${evicted}.jsonl`) }]);
	});
});
