/**
 * One contract suite per port of src/core/ports.ts, run against every implementation: the
 * adapters in node/ and obsidian/ and the fakes the core's tests use. The cases restate the
 * interfaces' doc comments; a fake that passes them is a fair stand-in for the adapter.
 */
import { spawnSync } from "node:child_process";
import { appendFile, chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryFolder, NoteStore, ProjectFiles, StoredTranscript, TranscriptSource, TranscriptStore } from "../../src/core/ports";
import { splitCompleteLines, type RawLine } from "../../src/core/transcript/jsonl-lines";
import { foldLines } from "../../src/core/transcript/fold";
import { createSession, serializeSession } from "../../src/core/transcript/session-model";
import type { TailCursor, TranscriptFile } from "../../src/core/transcript/transcript-files";
import { emptySyncState } from "../../src/core/sync/sync-state";
import { ClaudeMemoryFolder } from "../../src/node/claude-memory-folder";
import { ProjectFolderFiles } from "../../src/node/project-files";
import { StateFolder } from "../../src/node/state-folder";
import { nodeTranscriptSource } from "../../src/node/transcript-source";
import { VaultFolder } from "../../src/node/vault-folder";
import { appendToPack } from "../../src/node/model-pack";
import { VaultNoteStore } from "../../src/obsidian/vault-note-store";
import { tempDir, TRICKY_TEXTS } from "../contracts/cases";
import { FakeMemoryFolder } from "../fakes/memory-folder";
import { MemoryNotes } from "../fakes/memory-notes";
import { MemoryProjects } from "../fakes/memory-projects";
import { MemoryTranscriptStore } from "../fakes/memory-transcript-store";
import { MemoryTranscripts } from "../fakes/memory-transcripts";
import { assistant, jsonl, text, userText } from "../fixtures/lines";
import { FileManager, TFile, Vault } from "../stubs/obsidian";

/** Runs once per case: a fresh implementation, and whatever the cases need beside it. */
type Make<H> = () => Promise<H & { cleanup?: () => Promise<void> }>;

/** The running case's harness: made before each case of the suite, cleaned up after it. */
function harness<H>(make: Make<H>): () => H & { cleanup?: () => Promise<void> } {
	let current: (H & { cleanup?: () => Promise<void> }) | undefined;
	beforeEach(async () => {
		current = await make();
	});
	afterEach(async () => {
		await current?.cleanup?.();
		current = undefined;
	});
	return () => {
		if (!current) throw new Error("no harness outside a case");
		return current;
	};
}

// ---------------------------------------------------------------------------------------------
// NoteStore

interface NoteStoreHarness {
	store: NoteStore;
	/** Another writer (the user, Obsidian, a sync client) changing the vault behind the store's back. */
	other: {
		/** What the note holds, as the other writer sees it (null: none). */
		read(path: string): Promise<string | null>;
		write(path: string, text: string): Promise<void>;
		remove(path: string): Promise<void>;
		/** Deletes a folder and all in it (where the options say it can). */
		removeFolder?: (folder: string) => Promise<void>;
	};
	/** On disk: the folder the vault sits in, for paths that try to leave the vault (`../name`). */
	outside?: { write(name: string, text: string): Promise<void>; read(name: string): Promise<string | null> };
}

interface NoteStoreOptions {
	/** The store rewrites links to a moved note itself (the vault folder; Obsidian does it for the plugin). */
	followsLinks?: boolean;
	/** On disk: paths outside the vault must be refused (the harness gives `outside`). */
	onDisk?: boolean;
	/** The other writer can delete folders (the harness gives `removeFolder`). */
	foldersCanGo?: boolean;
}

function noteStoreContract(name: string, make: Make<NoteStoreHarness>, options: NoteStoreOptions = {}): void {
	describe(`NoteStore contract: ${name}`, () => {
		const h = harness(make);
		const store = () => h().store;

		it("tells a folder that is there from one that is not, when it can (list gives none for both)", async () => {
			const isFolder = store().isFolder?.bind(store());
			if (!isFolder) return;
			expect(await isFolder("facts")).toBe(false);
			await store().write("facts/a.md", "x", null);
			expect(await isFolder("facts")).toBe(true);
			expect(await isFolder("facts/a.md")).toBe(false);
		});

		it("reads null for a note that does not exist, also in a folder that does not exist", async () => {
			await store().write("f/there.md", "x", null);
			expect(await store().read("f/missing.md")).toBeNull();
			expect(await store().read("nowhere/deep/missing.md")).toBeNull();
		});

		it("creates a note, and its folders, when expected is null", async () => {
			expect(await store().write("AI Conversations/proj/2026/a.md", "one", null)).toBe(true);
			expect(await store().read("AI Conversations/proj/2026/a.md")).toBe("one");
			expect(await store().list("AI Conversations/proj/2026")).toEqual(["AI Conversations/proj/2026/a.md"]);
		});

		it("gives back every text byte for byte", async () => {
			for (const [i, { what, text: body }] of TRICKY_TEXTS.entries()) {
				expect(await store().write(`t/${i}.md`, body, null), what).toBe(true);
				expect(await store().read(`t/${i}.md`), what).toBe(body);
				// What was read is what the next compare-and-swap expects.
				expect(await store().write(`t/${i}.md`, `${body}+`, body), what).toBe(true);
			}
		});

		it("creates a note from text and UTF-8 bytes in order, when it can, as one text written whole", async () => {
			const create = store().create?.bind(store());
			if (!create) return;
			const utf8 = new TextEncoder();
			expect(await create("AI Conversations/p/new.md", ["head — ", utf8.encode("日本語 🎌\n"), "", utf8.encode(""), "tail\n"])).toBe(true);
			expect(await store().read("AI Conversations/p/new.md")).toBe("head — 日本語 🎌\ntail\n");
			expect(await store().list("AI Conversations/p")).toEqual(["AI Conversations/p/new.md"]);
			// What was read is what the next compare-and-swap expects.
			expect(await store().write("AI Conversations/p/new.md", "v2", "head — 日本語 🎌\ntail\n")).toBe(true);
		});

		it("refuses to create a note, writing nothing, when one is there (another writer made it meanwhile)", async () => {
			const create = store().create?.bind(store());
			if (!create) return;
			await h().other.write("taken.md", "theirs");
			expect(await create("taken.md", ["ours"])).toBe(false);
			expect(await h().other.read("taken.md")).toBe("theirs");
		});

		it("replaces a note that still holds the expected text", async () => {
			await store().write("n.md", "v1", null);
			expect(await store().write("n.md", "v2", "v1")).toBe(true);
			expect(await store().read("n.md")).toBe("v2");
		});

		it("refuses, writing nothing, when the note holds other text than expected", async () => {
			await store().write("n.md", "v1", null);
			expect(await store().write("n.md", "v2", "not v1")).toBe(false);
			expect(await store().read("n.md")).toBe("v1");
		});

		it("refuses, writing nothing, when expected is null but the note exists", async () => {
			await store().write("n.md", "v1", null);
			expect(await store().write("n.md", "v2", null)).toBe(false);
			expect(await store().read("n.md")).toBe("v1");
		});

		it("refuses, creating nothing, when a text is expected but the note does not exist", async () => {
			expect(await store().write("new/n.md", "v1", "v0")).toBe(false);
			expect(await store().read("new/n.md")).toBeNull();
			expect(await store().list("new")).toEqual([]);
			expect(await store().write("new/n.md", "v1", "")).toBe(false);
			expect(await store().read("new/n.md")).toBeNull();
		});

		it("refuses when another writer changed the note since it was read", async () => {
			await store().write("f/n.md", "v1", null);
			const read = await store().read("f/n.md");
			await h().other.write("f/n.md", "edited by the user");
			expect(await store().write("f/n.md", "v2", read)).toBe(false);
			expect(await store().read("f/n.md")).toBe("edited by the user");
		});

		it("refuses, creating nothing, when another writer deleted the note since it was read", async () => {
			await store().write("f/n.md", "v1", null);
			await h().other.remove("f/n.md");
			expect(await store().write("f/n.md", "v2", "v1")).toBe(false);
			expect(await store().read("f/n.md")).toBeNull();
		});

		it("reads a note another writer created after the store looked in its folder", async () => {
			expect(await store().read("f/n.md")).toBeNull();
			await store().write("f/other.md", "x", null);
			await h().other.write("f/n.md", "made by the user");
			expect(await store().read("f/n.md")).toBe("made by the user");
		});

		it("refuses expected null for a note another writer created after the store looked in its folder", async () => {
			expect(await store().read("f/n.md")).toBeNull();
			await store().write("f/other.md", "x", null);
			await h().other.write("f/n.md", "made by the user");
			expect(await store().write("f/n.md", "ours", null)).toBe(false);
			expect(await h().other.read("f/n.md")).toBe("made by the user");
		});

		if (options.foldersCanGo) {
			it("makes the folders again when another writer deleted them", async () => {
				const removeFolder = h().other.removeFolder;
				if (!removeFolder) throw new Error("harness has no removeFolder");
				await store().write("gone/sub/a.md", "a", null);
				await removeFolder("gone");
				expect(await store().read("gone/sub/a.md")).toBeNull();
				expect(await store().write("gone/sub/b.md", "b", null)).toBe(true);
				expect(await store().read("gone/sub/b.md")).toBe("b");
			});
		}

		it("lists only the files directly in a folder, sorted, as vault paths", async () => {
			for (const path of ["AI Memory/p/b.md", "AI Memory/p/a.md", "AI Memory/p/c.json", "AI Memory/p/_inbox/x.md", "AI Memory/p2/y.md", "AI Memory/z.md"]) {
				await store().write(path, path, null);
			}
			expect(await store().list("AI Memory/p")).toEqual(["AI Memory/p/a.md", "AI Memory/p/b.md", "AI Memory/p/c.json"]);
			expect(await store().list("AI Memory")).toEqual(["AI Memory/z.md"]);
		});

		it("lists nothing for a folder that does not exist", async () => {
			await store().write("AI Memory/p/a.md", "a", null);
			expect(await store().list("AI Memory/none")).toEqual([]);
			expect(await store().list("AI Memory/p/a.md/x")).toEqual([]);
		});

		it("lists what was written, removed and moved since the last listing", async () => {
			await store().write("f/a.md", "a", null);
			expect(await store().list("f")).toEqual(["f/a.md"]);
			await store().write("f/b.md", "b", null);
			expect(await store().list("f")).toEqual(["f/a.md", "f/b.md"]);
			await store().remove("f/a.md", "a");
			expect(await store().list("f")).toEqual(["f/b.md"]);
			await store().move([{ from: "f/b.md", to: "g/b.md" }]);
			expect(await store().list("f")).toEqual([]);
			expect(await store().list("g")).toEqual(["g/b.md"]);
			await h().other.write("f/c.md", "c");
			expect(await store().list("f")).toEqual(["f/c.md"]);
		});

		it("removes a note only while it holds the expected text", async () => {
			await store().write("f/a.md", "a", null);
			expect(await store().remove("f/a.md", "changed meanwhile")).toBe(false);
			expect(await store().read("f/a.md")).toBe("a");
			expect(await store().remove("f/a.md", "a")).toBe(true);
			expect(await store().read("f/a.md")).toBeNull();
			expect(await store().list("f")).toEqual([]);
		});

		it("removes a note another writer changed only with its new text", async () => {
			await store().write("f/a.md", "a", null);
			await h().other.write("f/a.md", "edited");
			expect(await store().remove("f/a.md", "a")).toBe(false);
			expect(await store().read("f/a.md")).toBe("edited");
			expect(await store().remove("f/a.md", "edited")).toBe(true);
		});

		it("does not remove a note that does not exist", async () => {
			expect(await store().remove("f/none.md", "")).toBe(false);
			expect(await store().remove("f/none.md", "x")).toBe(false);
		});

		it("creates a note again where one was removed", async () => {
			await store().write("f/a.md", "first", null);
			await store().remove("f/a.md", "first");
			expect(await store().write("f/a.md", "second", "first")).toBe(false);
			expect(await store().write("f/a.md", "second", null)).toBe(true);
			expect(await store().read("f/a.md")).toBe("second");
		});

		it("moves notes, making the target folders, and returns the moves made", async () => {
			await store().write("old/a.md", "A", null);
			await store().write("old/b.md", "B", null);
			const moves = [
				{ from: "old/a.md", to: "new/deep/a.md" },
				{ from: "old/b.md", to: "old/b2.md" },
			];
			expect(await store().move(moves)).toEqual(moves);
			expect(await store().read("old/a.md")).toBeNull();
			expect(await store().read("new/deep/a.md")).toBe("A");
			expect(await store().read("old/b.md")).toBeNull();
			expect(await store().read("old/b2.md")).toBe("B");
			// The moved note is an ordinary note at its new path.
			expect(await store().write("new/deep/a.md", "A2", "A")).toBe(true);
		});

		it("moves the text byte for byte", async () => {
			const moves = TRICKY_TEXTS.map((_, i) => ({ from: `m/${i}.md`, to: `n/${i}.md` }));
			for (const [i, { text: body }] of TRICKY_TEXTS.entries()) await store().write(`m/${i}.md`, body, null);
			expect(await store().move(moves)).toEqual(moves);
			for (const [i, { what, text: body }] of TRICKY_TEXTS.entries()) expect(await store().read(`n/${i}.md`), what).toBe(body);
		});

		it("skips a move whose note is gone and one whose target exists, leaving both notes as they were", async () => {
			await store().write("f/a.md", "A", null);
			await store().write("f/b.md", "B", null);
			await store().write("f/c.md", "C", null);
			const made = await store().move([
				{ from: "f/gone.md", to: "g/gone.md" },
				{ from: "f/a.md", to: "f/b.md" },
				{ from: "f/c.md", to: "g/c.md" },
			]);
			expect(made).toEqual([{ from: "f/c.md", to: "g/c.md" }]);
			expect(await store().read("f/a.md")).toBe("A");
			expect(await store().read("f/b.md")).toBe("B");
			expect(await store().read("g/gone.md")).toBeNull();
			expect(await store().read("g/c.md")).toBe("C");
		});

		it("makes no move for an empty list", async () => {
			await store().write("f/a.md", "A", null);
			expect(await store().move([])).toEqual([]);
			expect(await store().read("f/a.md")).toBe("A");
		});

		if (options.followsLinks) {
			it("rewrites the links that name a moved note by its path", async () => {
				await store().write("old/a.md", "A", null);
				await store().write("index.md", "see [[old/a]], [[old/a.md#H|alias]] and [[a]]\r\n[x](old/a.md), [y](<old/a.md>), [z](old/a.md#h)\r\n", null);
				expect(await store().move([{ from: "old/a.md", to: "new/a.md" }])).toHaveLength(1);
				expect(await store().read("index.md")).toBe("see [[new/a]], [[new/a.md#H|alias]] and [[a]]\r\n[x](new/a.md), [y](<new/a.md>), [z](new/a.md#h)\r\n");
			});

			it("rewrites the links of a move a killed sync made before it rewrote them (the note at its new place, none at its old one)", async () => {
				await store().write("new/a.md", "A", null);
				await store().write("index.md", "see [[old/a]]\n", null);
				expect(await store().move([{ from: "old/a.md", to: "new/a.md" }])).toEqual([]);
				expect(await store().read("index.md")).toBe("see [[new/a]]\n");
				expect(await store().read("new/a.md")).toBe("A");
			});
		}

		it("lists the Markdown notes below a folder recursively, sorted, hidden folders left out", async () => {
			for (const path of ["AI/p/b.md", "AI/p/a.md", "AI/p/sub/c.md", "AI/data.json", "AI/.hidden/h.md", "AI/p/.cache/h.md", "AI2/other.md", ".obsidian/x.md", "top.md"]) {
				await store().write(path, path, null);
			}
			expect(await store().listTree!("AI")).toEqual(["AI/p/a.md", "AI/p/b.md", "AI/p/sub/c.md"]);
			expect(await store().listTree!("")).toEqual(["AI/p/a.md", "AI/p/b.md", "AI/p/sub/c.md", "AI2/other.md", "top.md"]);
		});

		it("lists no notes below a folder that does not exist", async () => {
			await store().write("AI/p/a.md", "a", null);
			expect(await store().listTree!("none")).toEqual([]);
		});

		it("lists in the tree neither removed notes nor old paths of moved ones", async () => {
			await store().write("f/a.md", "a", null);
			await store().write("f/b.md", "b", null);
			await store().remove("f/a.md", "a");
			await store().move([{ from: "f/b.md", to: "g/b.md" }]);
			expect(await store().listTree!("")).toEqual(["g/b.md"]);
		});

		if (options.onDisk) {
			const outside = () => {
				const o = h().outside;
				if (!o) throw new Error("an on-disk harness gives `outside`");
				return o;
			};

			it("refuses to read, write or remove outside the vault", async () => {
				await outside().write("secret.md", "outside");
				expect(await store().read("../secret.md").catch(() => null)).toBeNull();
				expect(await store().write("../made.md", "x", null).catch(() => false)).toBe(false);
				expect(await store().write("../secret.md", "x", "outside").catch(() => false)).toBe(false);
				expect(await store().write("a/../../made.md", "x", null).catch(() => false)).toBe(false);
				if (store().create) expect(await store().create!("../made.md", ["x", new Uint8Array([0x79])]).catch(() => false)).toBe(false);
				expect(await store().remove("../secret.md", "outside").catch(() => false)).toBe(false);
				expect(await store().list("..").catch(() => [])).toEqual([]);
				expect(await store().listTree!("..").catch(() => [])).toEqual([]);
				expect(await outside().read("made.md")).toBeNull();
				expect(await outside().read("secret.md")).toBe("outside");
			});

			it("refuses to move a note out of the vault, and still returns the moves it made", async () => {
				await store().write("f/a.md", "A", null);
				await store().write("f/b.md", "B", null);
				const made = await store().move([
					{ from: "f/a.md", to: "g/a.md" },
					{ from: "f/b.md", to: "../b.md" },
				]);
				expect(made).toEqual([{ from: "f/a.md", to: "g/a.md" }]);
				expect(await store().read("f/b.md")).toBe("B");
				expect(await outside().read("b.md")).toBeNull();
			});
		}
	});
}

async function ensureStubFolders(vault: Vault, folder: string): Promise<void> {
	const parts = folder.split("/").filter(Boolean);
	for (let i = 1; i <= parts.length; i++) {
		const path = parts.slice(0, i).join("/");
		if (!vault.getFolderByPath(path)) await vault.createFolder(path);
	}
}

noteStoreContract(
	"VaultFolder (node/)",
	async () => {
		const dir = await tempDir("contract-vault");
		const root = join(dir.path, "vault");
		await mkdir(root);
		const readOrNull = (path: string) => readFile(path, "utf8").catch(() => null);
		return {
			store: new VaultFolder(root),
			other: {
				read: (path) => readOrNull(join(root, path)),
				async write(path, body) {
					await mkdir(dirname(join(root, path)), { recursive: true });
					await writeFile(join(root, path), body);
				},
				remove: (path) => rm(join(root, path)),
				removeFolder: (folder) => rm(join(root, folder), { recursive: true }),
			},
			outside: {
				write: (name, body) => writeFile(join(dir.path, name), body),
				read: (name) => readOrNull(join(dir.path, name)),
			},
			cleanup: dir.cleanup,
		};
	},
	{
		followsLinks: true,
		onDisk: true,
		foldersCanGo: true,
	},
);

noteStoreContract(
	"VaultNoteStore (obsidian/, over the stub vault)",
	async () => {
		const vault = new Vault();
		const manager = new FileManager(vault);
		return {
			store: new VaultNoteStore(
				vault as never,
				(file) => manager.trashFile(file),
				(file, to) => manager.renameFile(file, to),
			),
			other: {
				read: async (path) => vault.cachedText(path) ?? null,
				async write(path, body) {
					const file = vault.getFileByPath(path);
					if (file) await vault.process(file, () => body);
					else {
						await ensureStubFolders(vault, path.split("/").slice(0, -1).join("/"));
						await vault.create(path, body);
					}
				},
				async remove(path) {
					const file = vault.getFileByPath(path);
					if (!(file instanceof TFile)) throw new Error(`no note ${path}`);
					await manager.trashFile(file);
				},
				// The stub vault cannot delete folders.
			},
		};
	},
);

noteStoreContract(
	"MemoryNotes (test fake)",
	async () => {
		const notes = new MemoryNotes();
		return {
			store: notes,
			other: {
				read: async (path) => notes.files.get(path) ?? null,
				write: async (path, body) => void notes.files.set(path, body),
				remove: async (path) => void notes.files.delete(path),
				removeFolder: async (folder) => {
					for (const path of [...notes.files.keys()]) if (path.startsWith(`${folder}/`)) notes.files.delete(path);
				},
			},
		};
	},
	{
		foldersCanGo: true,
	},
);

// ---------------------------------------------------------------------------------------------
// MemoryFolder

interface MemoryFolderHarness {
	folder: MemoryFolder;
	/** Another writer (Claude Code, the user) changing the folder behind its back. */
	other: {
		write(name: string, text: string): Promise<void>;
		remove(name: string): Promise<void>;
		removeFolder(): Promise<void>;
	};
}

function memoryFolderContract(name: string, make: Make<MemoryFolderHarness>): void {
	describe(`MemoryFolder contract: ${name}`, () => {
		const h = harness(make);
		const folder = () => h().folder;

		it("has a path to name in messages", async () => {
			expect(typeof folder().path).toBe("string");
			expect(folder().path.length).toBeGreaterThan(0);
		});

		it("lists nothing when there is no folder, and says it is not there when it can", async () => {
			expect([...(await folder().list())]).toEqual([]);
			if (folder().exists) expect(await folder().exists!()).toBe(false);
			await folder().write("a.md", "fact a\n", null);
			if (folder().exists) expect(await folder().exists!()).toBe(true);
		});

		it("creates a file, and the folder, when expected is null, and lists it by file name", async () => {
			expect(await folder().write("MEMORY.md", "- [a](a.md)\n", null)).toBe(true);
			expect(await folder().write("a.md", "fact a\n", null)).toBe(true);
			const listed = await folder().list();
			expect([...listed].sort()).toEqual([
				["MEMORY.md", "- [a](a.md)\n"],
				["a.md", "fact a\n"],
			]);
		});

		it("gives back every text byte for byte", async () => {
			for (const [i, { what, text: body }] of TRICKY_TEXTS.entries()) {
				expect(await folder().write(`t${i}.md`, body, null), what).toBe(true);
				expect((await folder().list()).get(`t${i}.md`), what).toBe(body);
				expect(await folder().write(`t${i}.md`, `${body}+`, body), what).toBe(true);
			}
		});

		it("replaces a file that still holds the expected text", async () => {
			await folder().write("a.md", "v1", null);
			expect(await folder().write("a.md", "v2", "v1")).toBe(true);
			expect((await folder().list()).get("a.md")).toBe("v2");
		});

		it("refuses, writing nothing, when the file holds other text than expected", async () => {
			await folder().write("a.md", "v1", null);
			expect(await folder().write("a.md", "v2", "not v1")).toBe(false);
			expect((await folder().list()).get("a.md")).toBe("v1");
		});

		it("refuses, writing nothing, when expected is null but the file exists", async () => {
			await folder().write("a.md", "v1", null);
			expect(await folder().write("a.md", "v2", null)).toBe(false);
			expect((await folder().list()).get("a.md")).toBe("v1");
		});

		it("refuses, creating nothing, when a text is expected but the file does not exist", async () => {
			expect(await folder().write("a.md", "v1", "v0")).toBe(false);
			expect(await folder().write("a.md", "v1", "")).toBe(false);
			expect([...(await folder().list())]).toEqual([]);
		});

		it("refuses when another writer changed the file since it was listed", async () => {
			await folder().write("a.md", "v1", null);
			const listed = (await folder().list()).get("a.md") ?? null;
			await h().other.write("a.md", "edited by Claude Code");
			expect(await folder().write("a.md", "v2", listed)).toBe(false);
			expect((await folder().list()).get("a.md")).toBe("edited by Claude Code");
		});

		it("lists the files another writer added or removed", async () => {
			await folder().write("a.md", "a", null);
			await h().other.write("b.md", "b");
			expect([...(await folder().list()).keys()].sort()).toEqual(["a.md", "b.md"]);
			await h().other.remove("a.md");
			expect([...(await folder().list()).keys()]).toEqual(["b.md"]);
			expect(await folder().write("b.md", "b2", null)).toBe(false);
		});

		it("lists only the .md files directly in the folder", async () => {
			await folder().write("a.md", "a", null);
			await h().other.write("notes.txt", "not a fact");
			await h().other.write("sub/deep.md", "in a subfolder");
			expect([...(await folder().list()).keys()]).toEqual(["a.md"]);
		});

		it("removes a file only while it holds the expected text", async () => {
			await folder().write("a.md", "a", null);
			expect(await folder().remove("a.md", "changed meanwhile")).toBe(false);
			expect((await folder().list()).get("a.md")).toBe("a");
			expect(await folder().remove("a.md", "a")).toBe(true);
			expect([...(await folder().list())]).toEqual([]);
			expect(await folder().write("a.md", "again", null)).toBe(true);
		});

		it("does not remove a file that does not exist", async () => {
			expect(await folder().remove("none.md", "")).toBe(false);
			expect(await folder().remove("none.md", "x")).toBe(false);
		});

		it("makes the folder again when another writer deleted it", async () => {
			await folder().write("a.md", "a", null);
			await h().other.removeFolder();
			expect([...(await folder().list())]).toEqual([]);
			expect(await folder().write("b.md", "b", null)).toBe(true);
			expect([...(await folder().list())]).toEqual([["b.md", "b"]]);
		});
	});
}

memoryFolderContract("ClaudeMemoryFolder (node/)", async () => {
	const dir = await tempDir("contract-memory");
	// Not made yet: the first write makes it.
	const path = join(dir.path, "-home-dev-shop-api", "memory");
	return {
		folder: new ClaudeMemoryFolder(path),
		other: {
			async write(name, body) {
				await mkdir(dirname(join(path, name)), { recursive: true });
				await writeFile(join(path, name), body);
			},
			remove: (name) => rm(join(path, name)),
			removeFolder: () => rm(path, { recursive: true }),
		},
		cleanup: dir.cleanup,
	};
});

memoryFolderContract(
	"FakeMemoryFolder (test fake)",
	async () => {
		const fake = new FakeMemoryFolder();
		return {
			folder: fake,
			other: {
				write: async (name, body) => void fake.files.set(name, body),
				remove: async (name) => void fake.files.delete(name),
				removeFolder: async () => fake.files.clear(),
			},
		};
	},
);

// ---------------------------------------------------------------------------------------------
// ProjectFiles

/** A state in which the implementation cannot write, and the error it must throw. */
interface Unwritable {
	what: string;
	projectPath: string;
	fileName: string;
	/** What the file holds (null: missing), and so what the write expects and what must stay. */
	holds: string | null;
	message: RegExp;
	restore?: () => Promise<void>;
}

interface ProjectFilesHarness {
	files: ProjectFiles;
	/** A project folder that exists. */
	project(name: string): Promise<string>;
	/** Another writer (the user's editor) changing a file behind its back. */
	other: { write(projectPath: string, fileName: string, text: string): Promise<void> };
	/** On disk: the file's permission bits. */
	mode?: (projectPath: string, fileName: string) => Promise<number>;
	chmod?: (projectPath: string, fileName: string, mode: number) => Promise<void>;
	/** On disk: states it cannot write in (each skipped where this machine cannot arrange it). */
	unwritable?(): Promise<Unwritable[]>;
}

function projectFilesContract(name: string, make: Make<ProjectFilesHarness>, options: { onDisk?: boolean } = {}): void {
	describe(`ProjectFiles contract: ${name}`, () => {
		const h = harness(make);
		const files = () => h().files;

		it("reads null for a file that does not exist", async () => {
			const p = await h().project("p");
			expect(await files().read(p, "CLAUDE.md")).toBeNull();
		});

		it("creates a missing file when expected is null", async () => {
			const p = await h().project("p");
			expect(await files().write(p, "CLAUDE.md", "# Project\n", null)).toBe(true);
			expect(await files().read(p, "CLAUDE.md")).toBe("# Project\n");
		});

		it("gives back every text byte for byte", async () => {
			const p = await h().project("p");
			for (const [i, { what, text: body }] of TRICKY_TEXTS.entries()) {
				expect(await files().write(p, `F${i}.md`, body, null), what).toBe(true);
				expect(await files().read(p, `F${i}.md`), what).toBe(body);
				expect(await files().write(p, `F${i}.md`, `${body}+`, body), what).toBe(true);
			}
		});

		it("replaces a file that still holds the expected text", async () => {
			const p = await h().project("p");
			await files().write(p, "CLAUDE.md", "v1", null);
			expect(await files().write(p, "CLAUDE.md", "v2", "v1")).toBe(true);
			expect(await files().read(p, "CLAUDE.md")).toBe("v2");
		});

		it("refuses, writing nothing, when the file holds other text than expected", async () => {
			const p = await h().project("p");
			await files().write(p, "CLAUDE.md", "v1", null);
			expect(await files().write(p, "CLAUDE.md", "v2", "not v1")).toBe(false);
			expect(await files().read(p, "CLAUDE.md")).toBe("v1");
		});

		it("refuses, writing nothing, when expected is null but the file exists", async () => {
			const p = await h().project("p");
			await files().write(p, "CLAUDE.md", "v1", null);
			expect(await files().write(p, "CLAUDE.md", "v2", null)).toBe(false);
			expect(await files().read(p, "CLAUDE.md")).toBe("v1");
		});

		it("refuses, creating nothing, when a text is expected but the file does not exist", async () => {
			const p = await h().project("p");
			expect(await files().write(p, "CLAUDE.md", "v1", "v0")).toBe(false);
			expect(await files().write(p, "CLAUDE.md", "v1", "")).toBe(false);
			expect(await files().read(p, "CLAUDE.md")).toBeNull();
		});

		it("refuses when another writer changed the file since it was read", async () => {
			const p = await h().project("p");
			await files().write(p, "CLAUDE.md", "v1", null);
			const read = await files().read(p, "CLAUDE.md");
			await h().other.write(p, "CLAUDE.md", "edited by the user");
			expect(await files().write(p, "CLAUDE.md", "v2", read)).toBe(false);
			expect(await files().read(p, "CLAUDE.md")).toBe("edited by the user");
		});

		it("keeps each project's files, and each file name, apart", async () => {
			const a = await h().project("a");
			const b = await h().project("b");
			await files().write(a, "CLAUDE.md", "a", null);
			await files().write(a, "CLAUDE.local.md", "a local", null);
			expect(await files().read(b, "CLAUDE.md")).toBeNull();
			expect(await files().write(b, "CLAUDE.md", "b", null)).toBe(true);
			expect(await files().read(a, "CLAUDE.md")).toBe("a");
			expect(await files().read(a, "CLAUDE.local.md")).toBe("a local");
			expect(await files().read(b, "CLAUDE.md")).toBe("b");
		});

		if (options.onDisk) {
			it("keeps the file's mode", async () => {
				const { mode, chmod: setMode } = h();
				if (!mode || !setMode) throw new Error("an on-disk harness gives mode and chmod");
				const p = await h().project("p");
				for (const [i, bits] of [0o640, 0o755, 0o600].entries()) {
					await files().write(p, "CLAUDE.md", `v${i}`, i === 0 ? null : `v${i - 1}x`);
					await setMode(p, "CLAUDE.md", bits);
					expect(await files().write(p, "CLAUDE.md", `v${i}x`, `v${i}`)).toBe(true);
					expect(await mode(p, "CLAUDE.md"), bits.toString(8)).toBe(bits);
					expect(await files().read(p, "CLAUDE.md")).toBe(`v${i}x`);
				}
			});

			it("throws a clear error, writing nothing, when it cannot write", async () => {
				const states = (await h().unwritable?.()) ?? [];
				expect(states.length).toBeGreaterThan(0);
				for (const s of states) {
					try {
						await expect(files().write(s.projectPath, s.fileName, "ours\n", s.holds), s.what).rejects.toThrow(s.message);
					} finally {
						await s.restore?.();
					}
					expect(await files().read(s.projectPath, s.fileName).catch(() => null), s.what).toBe(s.holds);
				}
			});
		}
	});
}

projectFilesContract(
	"ProjectFolderFiles (node/)",
	async () => {
		const dir = await tempDir("contract-projects");
		const asRoot = process.getuid?.() === 0;
		// Root ignores permission bits: a folder is made immutable instead, where the file system lets chattr.
		const lock = (folder: string, on: boolean) =>
			asRoot ? spawnSync("chattr", [on ? "+i" : "-i", folder]).status === 0 : spawnSync("chmod", [on ? "555" : "755", folder]).status === 0;
		return {
			files: new ProjectFolderFiles(),
			async project(name) {
				const path = join(dir.path, name);
				await mkdir(path, { recursive: true });
				return path;
			},
			other: { write: (p, f, body) => writeFile(join(p, f), body) },
			mode: async (p, f) => (await stat(join(p, f))).mode & 0o777,
			chmod: (p, f, bits) => chmod(join(p, f), bits),
			async unwritable() {
				const states: Unwritable[] = [{ what: "the project folder is missing", projectPath: join(dir.path, "gone"), fileName: "CLAUDE.md", holds: null, message: /the project folder .*gone does not exist/ }];
				const ro = join(dir.path, "ro-file");
				await mkdir(ro);
				await writeFile(join(ro, "CLAUDE.md"), "locked\n");
				await chmod(join(ro, "CLAUDE.md"), 0o444);
				states.push({ what: "the file is read-only", projectPath: ro, fileName: "CLAUDE.md", holds: "locked\n", message: /CLAUDE\.md is read-only/ });
				const locked = join(dir.path, "ro-folder");
				await mkdir(locked);
				if (lock(locked, true)) {
					states.push({ what: "the folder is read-only", projectPath: locked, fileName: "CLAUDE.md", holds: null, message: /cannot write in .*ro-folder: the folder is read-only/, restore: async () => void lock(locked, false) });
				}
				return states;
			},
			async cleanup() {
				await chmod(join(dir.path, "ro-file", "CLAUDE.md"), 0o644).catch(() => undefined);
				lock(join(dir.path, "ro-folder"), false);
				await dir.cleanup();
			},
		};
	},
	{ onDisk: true },
);

projectFilesContract("MemoryProjects (test fake)", async () => {
	const fake = new MemoryProjects();
	return {
		files: fake,
		project: async (name) => `/home/dev/${name}`,
		other: { write: async (p, f, body) => void fake.files.set(`${p}/${f}`, body) },
	};
});

// ---------------------------------------------------------------------------------------------
// TranscriptSource

interface TranscriptSourceHarness {
	source: TranscriptSource;
	/** Claude Code starts a session: a new file `<projectDir>/<sessionId>.jsonl`; returns its path. */
	put(projectDir: string, sessionId: string, content: string | Uint8Array): Promise<string>;
	/** Claude Code appends to it (bytes only where the harness has `rawBytes`). */
	append(path: string, content: string | Uint8Array): Promise<void>;
	/** Another file now at the path (written beside it, renamed over it). */
	replace(path: string, content: string): Promise<void>;
	/** The same file rewritten in place (truncated, then written); a fake may make it another file. */
	rewrite(path: string, content: string): Promise<void>;
	/** Purged (Claude Code's retention). */
	remove(path: string): Promise<void>;
	/** A 2.1.2+ sub-agent, `<projectDir>/<sessionId>/subagents/agent-<id>.jsonl`, with its `.meta.json` text if given. */
	putSubagent?: (projectDir: string, sessionId: string, agentId: string, content: string, meta?: string) => Promise<string>;
}

interface TranscriptSourceOptions {
	/** Files can hold any bytes, not only UTF-8 text (the harness takes Uint8Array). */
	rawBytes?: boolean;
	/** Sub-agent files and their meta (the harness has `putSubagent`). */
	subagents?: boolean;
}

async function readAll(source: TranscriptSource, path: string, cursor?: TailCursor) {
	const events: ("restart" | RawLine[])[] = [];
	const result = await source.readAppended(
		path,
		cursor,
		// The lines are lent for the call: copied to be kept.
		(lines) => events.push(lines.map((l) => ({ ...l }))),
		() => events.push("restart"),
	);
	const lines = events.flatMap((e) => (e === "restart" ? [] : e));
	return {
		...result,
		lines,
		texts: lines.map((l) => l.text),
		nos: lines.map((l) => l.no),
		restarted: events.includes("restart"),
		/** onRestart came before any line. */
		restartedFirst: events[0] === "restart" && events.lastIndexOf("restart") === 0,
	};
}

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

function transcriptSourceContract(name: string, make: Make<TranscriptSourceHarness>, options: TranscriptSourceOptions = {}): void {
	describe(`TranscriptSource contract: ${name}`, () => {
		const h = harness(make);
		const source = () => h().source;

		it("scans the session transcripts, with their stamps", async () => {
			const a = await h().put("-home-dev-shop", "s-1", '{"n":1}\n');
			const b = await h().put("-home-dev-shop", "s-2", '{"n":1}\n{"n":2}\n');
			const c = await h().put("-home-dev-web", "s-3", "");
			const scanned = [...(await source().scan())].sort((x, y) => x.path.localeCompare(y.path));
			expect(scanned.map((f) => ({ path: f.path, projectDir: f.projectDir, kind: f.kind, fileId: f.fileId, size: f.size }))).toEqual(
				[
					{ path: a, projectDir: "-home-dev-shop", kind: "session", fileId: "s-1", size: 8 },
					{ path: b, projectDir: "-home-dev-shop", kind: "session", fileId: "s-2", size: 16 },
					{ path: c, projectDir: "-home-dev-web", kind: "session", fileId: "s-3", size: 0 },
				].sort((x, y) => x.path.localeCompare(y.path)),
			);
			for (const f of scanned) {
				expect(Number.isFinite(f.mtimeMs)).toBe(true);
				expect(Number.isFinite(f.ino)).toBe(true);
				// The stamps are the ones stat gives.
				expect(await source().stat(f)).toEqual(f);
			}
			expect(new Set(scanned.map((f) => f.ino)).size).toBe(3);
		});

		it("scans nothing when there are no transcripts", async () => {
			expect(await source().scan()).toEqual([]);
		});

		it("re-stats a file: its size after an append, undefined once it is gone", async () => {
			const path = await h().put("p", "s", '{"n":1}\n');
			const [file] = await source().scan();
			if (!file) throw new Error("not scanned");
			await h().append(path, '{"n":2}\n');
			const now = await source().stat(file);
			expect(now).toMatchObject({ path, projectDir: "p", kind: "session", fileId: "s", size: 16, ino: file.ino });
			await h().remove(path);
			expect(await source().stat(file)).toBeUndefined();
			expect(await source().scan()).toEqual([]);
		});

		it("hands over complete lines only, numbered from 1; a half-written last line waits", async () => {
			const path = await h().put("p", "s", '{"n":1}\n{"n":2}\n{"n":');
			const read = await readAll(source(), path);
			expect(read.texts).toEqual(['{"n":1}', '{"n":2}']);
			expect(read.nos).toEqual([1, 2]);
			expect(read.restarted).toBe(false);
			expect(read.cursor.offset).toBe(16);
			expect(read.cursor.nextLineNo).toBe(3);
		});

		it("reads nothing, and no line, from a file without a complete line", async () => {
			const empty = await h().put("p", "empty", "");
			const half = await h().put("p", "half", '{"n":');
			for (const path of [empty, half]) {
				const read = await readAll(source(), path);
				expect(read.lines).toEqual([]);
				expect(read.cursor.offset).toBe(0);
				expect(read.cursor.nextLineNo).toBe(1);
			}
		});

		it("continues from the cursor where it stopped, numbering on, without restarting a short file that grew", async () => {
			const path = await h().put("p", "s", '{"n":1}\n{"n":');
			const first = await readAll(source(), path);
			expect(first.texts).toEqual(['{"n":1}']);
			await h().append(path, '2}\n{"n":3}\n');
			const second = await readAll(source(), path, first.cursor);
			expect(second.restarted).toBe(false);
			expect(second.texts).toEqual(['{"n":2}', '{"n":3}']);
			expect(second.nos).toEqual([2, 3]);
			expect(second.cursor.offset).toBe(bytes('{"n":1}\n{"n":2}\n{"n":3}\n'));
			expect(second.cursor.nextLineNo).toBe(4);
		});

		it("continues from a cursor stored as JSON between runs", async () => {
			const path = await h().put("p", "s", '{"n":1}\n');
			const first = await readAll(source(), path);
			await h().append(path, '{"n":2}\n');
			const stored = JSON.parse(JSON.stringify(first.cursor)) as TailCursor;
			const second = await readAll(source(), path, stored);
			expect(second.restarted).toBe(false);
			expect(second.texts).toEqual(['{"n":2}']);
			expect(second.nos).toEqual([2]);
		});

		it("hands over no line when nothing was appended", async () => {
			const path = await h().put("p", "s", '{"n":1}\n{"n":2}\n');
			const first = await readAll(source(), path);
			expect(first.bytesRead).toBe(16);
			const again = await readAll(source(), path, first.cursor);
			expect(again.lines).toEqual([]);
			expect(again.restarted).toBe(false);
			expect(again.bytesRead).toBe(0);
			expect(again.cursor).toEqual(first.cursor);
		});

		it("drops the CR of CRLF, keeps empty lines, and decodes non-ASCII", async () => {
			const path = await h().put("p", "s", '{"t":"café 日本 🚀"}\r\n\n{"t":"ü"}\n');
			const read = await readAll(source(), path);
			expect(read.texts).toEqual(['{"t":"café 日本 🚀"}', "", '{"t":"ü"}']);
			expect(read.nos).toEqual([1, 2, 3]);
			expect(read.cursor.offset).toBe(bytes('{"t":"café 日本 🚀"}\r\n\n{"t":"ü"}\n'));
		});

		it("reads a line longer than any read buffer", async () => {
			const long = `{"t":"${"é".repeat(400_000)}"}`;
			const path = await h().put("p", "s", `{"n":1}\n${long}\n{"n":3}\n`);
			const read = await readAll(source(), path);
			expect(read.texts).toEqual(['{"n":1}', long, '{"n":3}']);
			expect(read.nos).toEqual([1, 2, 3]);
		});

		if (options.rawBytes) {
			it("decodes a character cut between two reads whole, and gives null for a line that is not UTF-8", async () => {
				const euro = Buffer.from("€", "utf8");
				const path = await h().put("p", "s", Buffer.concat([Buffer.from('{"t":"'), euro.subarray(0, 1)]));
				const first = await readAll(source(), path);
				expect(first.lines).toEqual([]);
				await h().append(path, Buffer.concat([euro.subarray(1), Buffer.from('"}\n'), Buffer.from([0xff, 0xfe, 0x7b]), Buffer.from("\n")]));
				const second = await readAll(source(), path, first.cursor);
				expect(second.lines).toEqual([
					{ no: 1, text: '{"t":"€"}' },
					{ no: 2, text: null },
				]);
			});
		}

		it("calls onRestart, then reads from the start, when the file was truncated", async () => {
			const path = await h().put("p", "s", '{"n":1}\n{"n":2}\n{"n":3}\n');
			const first = await readAll(source(), path);
			await h().rewrite(path, '{"n":1}\n');
			const second = await readAll(source(), path, first.cursor);
			expect(second.restartedFirst).toBe(true);
			expect(second.texts).toEqual(['{"n":1}']);
			expect(second.nos).toEqual([1]);
			expect(second.cursor.offset).toBe(8);
			expect(second.cursor.nextLineNo).toBe(2);
		});

		it("calls onRestart, then reads from the start, when another file replaced it", async () => {
			const path = await h().put("p", "s", '{"n":1}\n');
			const first = await readAll(source(), path);
			await h().replace(path, '{"other":1}\n{"other":2}\n{"other":3}\n');
			const second = await readAll(source(), path, first.cursor);
			expect(second.restartedFirst).toBe(true);
			expect(second.texts).toEqual(['{"other":1}', '{"other":2}', '{"other":3}']);
			expect(second.nos).toEqual([1, 2, 3]);
		});

		it("calls onRestart, then reads from the start, when the file was rewritten in place with other first bytes", async () => {
			const path = await h().put("p", "s", '{"n":1}\n{"n":2}\n');
			const first = await readAll(source(), path);
			await h().rewrite(path, '{"x":1}\n{"x":2}\n{"x":3}\n');
			const second = await readAll(source(), path, first.cursor);
			expect(second.restartedFirst).toBe(true);
			expect(second.texts).toEqual(['{"x":1}', '{"x":2}', '{"x":3}']);
			expect(second.nos).toEqual([1, 2, 3]);
		});

		it("fails to read a file that is gone", async () => {
			const path = await h().put("p", "s", '{"n":1}\n');
			await h().remove(path);
			await expect(source().readAppended(path, undefined, () => undefined, () => undefined)).rejects.toThrow();
		});

		it("reads no meta for a file that is not there", async () => {
			expect(await source().readMeta("/nowhere/agent-x.meta.json")).toBeUndefined();
		});

		if (options.subagents) {
			it("scans sub-agent transcripts beside their session, and reads their meta", async () => {
				const putSubagent = h().putSubagent;
				if (!putSubagent) throw new Error("harness has no putSubagent");
				await h().put("p", "s", '{"n":1}\n');
				const agent = await putSubagent("p", "s", "a1", '{"n":1}\n', JSON.stringify({ agentType: "Explore", description: "Find the bug", worktreePath: 7 }));
				const found = (await source().scan()).find((f) => f.path === agent);
				expect(found).toMatchObject({ kind: "subagent", projectDir: "p", fileId: "agent-a1", agentId: "a1", parentSessionId: "s" });
				if (!found?.metaPath) throw new Error("no meta path");
				expect(await source().readMeta(found.metaPath)).toEqual({ agentType: "Explore", description: "Find the bug" });
			});

			it("reads no meta from a damaged meta file", async () => {
				const putSubagent = h().putSubagent;
				if (!putSubagent) throw new Error("harness has no putSubagent");
				const agent = await putSubagent("p", "s", "a1", '{"n":1}\n', '{"agentType": "Expl');
				const found = (await source().scan()).find((f) => f.path === agent);
				expect(await source().readMeta(found?.metaPath ?? "")).toBeUndefined();
			});
		}
	});
}

transcriptSourceContract(
	"nodeTranscriptSource (node/)",
	async () => {
		const dir = await tempDir("contract-transcripts");
		const root = join(dir.path, "projects");
		await mkdir(root);
		let n = 0;
		return {
			source: nodeTranscriptSource(root),
			async put(projectDir, sessionId, content) {
				const path = join(root, projectDir, `${sessionId}.jsonl`);
				await mkdir(dirname(path), { recursive: true });
				await writeFile(path, content);
				return path;
			},
			append: (path, content) => appendFile(path, content),
			async replace(path, content) {
				const temp = `${path}.${++n}.tmp`;
				await writeFile(temp, content);
				await rename(temp, path);
			},
			rewrite: (path, content) => writeFile(path, content),
			remove: (path) => rm(path),
			async putSubagent(projectDir, sessionId, agentId, content, meta) {
				const folder = join(root, projectDir, sessionId, "subagents");
				await mkdir(folder, { recursive: true });
				if (meta !== undefined) await writeFile(join(folder, `agent-${agentId}.meta.json`), meta);
				await writeFile(join(folder, `agent-${agentId}.jsonl`), content);
				return join(folder, `agent-${agentId}.jsonl`);
			},
			cleanup: dir.cleanup,
		};
	},
	{ rawBytes: true, subagents: true },
);

transcriptSourceContract(
	"MemoryTranscripts (test fake)",
	async () => {
		const fake = new MemoryTranscripts();
		const text = (content: string | Uint8Array) => {
			if (typeof content !== "string") throw new Error("MemoryTranscripts holds text only");
			return content;
		};
		const where = (path: string) => {
			const match = /\/projects\/([^/]+)\/([^/]+)\.jsonl$/.exec(path);
			if (!match?.[1] || !match[2]) throw new Error(`not a fake transcript path: ${path}`);
			return { projectDir: match[1], sessionId: match[2] };
		};
		return {
			source: fake,
			put: async (projectDir, sessionId, content) => fake.put(projectDir, sessionId, text(content)),
			append: async (path, content) => fake.append(path, text(content)),
			replace: async (path, content) => void fake.put(where(path).projectDir, where(path).sessionId, content),
			// The fake has no inodes to keep: a rewrite is another file, which must restart all the same.
			rewrite: async (path, content) => void fake.put(where(path).projectDir, where(path).sessionId, content),
			remove: async (path) => fake.purge(path),
		};
	},
);

// ---------------------------------------------------------------------------------------------
// TranscriptStore

interface TranscriptStoreHarness {
	/** The store as a run opens it; every call is another run over the same stored data. */
	open(): TranscriptStore;
	/** What a run does at its end so that what it saved lasts (the state folder: flush). */
	persist(store: TranscriptStore): Promise<void>;
}

interface TranscriptStoreOptions {
	/** Has packFolder and saved: a source may write the stored form itself. */
	savesElsewhere?: boolean;
}

function transcriptFile(path: string, extra: Partial<TranscriptFile> = {}): TranscriptFile {
	const fileId = path.split("/").pop()?.replace(/\.jsonl$/, "") ?? "s";
	return { path, projectDir: "-home-dev-shop", kind: "session", fileId, size: 100, mtimeMs: 1_700_000_000_123.5, ino: 4242, ...extra };
}

/** A stored transcript with a real folded model, as plain data (what a store gets and gives back). */
function storedTranscript(file: TranscriptFile, prompt = "fix the login bug", meta?: StoredTranscript["meta"]): StoredTranscript {
	const model = createSession(file.fileId, file.agentId);
	const body = jsonl([userText(prompt, { cwd: "/home/dev/shop" }), assistant(text(`Done: ${prompt}`))]);
	const split = splitCompleteLines(Buffer.from(body, "utf8"), 1);
	foldLines(model, split.lines);
	const cursor: TailCursor = { offset: split.consumed, nextLineNo: split.lines.length + 1, ino: file.ino, head: Buffer.from(body.slice(0, 64)).toString("base64") };
	const entry: StoredTranscript = { file, cursor, model: serializeSession(model), ...(meta ? { meta } : {}) };
	return JSON.parse(JSON.stringify(entry)) as StoredTranscript;
}

function transcriptStoreContract(name: string, make: Make<TranscriptStoreHarness>, options: TranscriptStoreOptions = {}): void {
	describe(`TranscriptStore contract: ${name}`, () => {
		const h = harness(make);
		const later = async (store: TranscriptStore) => {
			await h().persist(store);
			return h().open();
		};

		it("knows no file and loads nothing at first", async () => {
			const store = h().open();
			expect(await store.known()).toEqual([]);
			expect(await store.load("/claude/projects/p/s.jsonl")).toBeUndefined();
		});

		it("loads what was saved, in the same run and in a later one", async () => {
			const store = h().open();
			const entry = storedTranscript(transcriptFile("/claude/projects/p/s.jsonl"));
			await store.save(entry);
			await h().persist(store);
			expect(await store.load(entry.file.path)).toEqual(entry);
			expect(await (await later(store)).load(entry.file.path)).toEqual(entry);
		});

		it("knows the saved files with their stamps, in the same run and in a later one", async () => {
			const store = h().open();
			const a = transcriptFile("/claude/projects/p/a.jsonl");
			const b = transcriptFile("/claude/projects/p/b.jsonl", { size: 7, ino: 9, mtimeMs: 3 });
			await store.save(storedTranscript(a));
			await store.save(storedTranscript(b));
			const byPath = (files: TranscriptFile[]) => [...files].sort((x, y) => x.path.localeCompare(y.path));
			expect(byPath(await store.known())).toEqual([a, b]);
			expect(byPath(await (await later(store)).known())).toEqual([a, b]);
		});

		it("is not changed by a model folded further after its save", async () => {
			const store = h().open();
			const entry = storedTranscript(transcriptFile("/claude/projects/p/s.jsonl"));
			const expected = structuredClone(entry);
			await store.save(entry);
			entry.model.summaries.push({ text: "folded later" });
			entry.cursor.offset += 10;
			expect(await (await later(store)).load(expected.file.path)).toEqual(expected);
			expect(await (await later(store)).known()).toEqual([expected.file]);
		});

		it("replaces an earlier save of the same transcript with the later one", async () => {
			const store = h().open();
			const path = "/claude/projects/p/s.jsonl";
			const first = storedTranscript(transcriptFile(path, { size: 10 }), "first");
			const second = storedTranscript(transcriptFile(path, { size: 20 }), "second");
			// The first is large: written in the background, it must not land after the second.
			const padded = JSON.stringify({ ...first, model: { ...first.model, malformedLines: Array.from({ length: 200_000 }, (_, i) => ({ no: i, sample: "x".repeat(40) })) } });
			await store.save(first, padded);
			await store.save(second);
			const next = await later(store);
			const loaded = await next.load(path);
			// The cursor first: a diff of the padded model would take seconds to print.
			expect(loaded?.cursor).toEqual(second.cursor);
			expect(loaded).toEqual(second);
			expect(await next.known()).toEqual([second.file]);
		});

		it("forgets a transcript, its model and its stamp, and keeps the others", async () => {
			const store = h().open();
			const a = storedTranscript(transcriptFile("/claude/projects/p/a.jsonl"), "one");
			const b = storedTranscript(transcriptFile("/claude/projects/p/b.jsonl"), "two");
			await store.save(a);
			await store.save(b);
			await h().persist(store);
			const next = await later(store);
			await next.forget?.(a.file.path);
			const after = await later(next);
			expect(await after.load(a.file.path)).toBeUndefined();
			expect(await after.known()).toEqual([b.file]);
			expect(await after.load(b.file.path)).toEqual(b);
		});

		it("keeps transcripts apart, sub-agents and their meta too", async () => {
			const store = h().open();
			const entries = [
				storedTranscript(transcriptFile("/claude/projects/-home-dev-shop/s1.jsonl"), "one"),
				storedTranscript(transcriptFile("/claude/projects/-home-dev-shop/s2.jsonl"), "two"),
				storedTranscript(transcriptFile("/claude/projects/-home-dev-café/日本.jsonl", { projectDir: "-home-dev-café" }), "three"),
				storedTranscript(
					transcriptFile("/claude/projects/-home-dev-shop/s1/subagents/agent-a1.jsonl", { kind: "subagent", fileId: "agent-a1", agentId: "a1", parentSessionId: "s1" }),
					"four",
					{ agentType: "Explore", description: "look around" },
				),
			];
			for (const e of entries) await store.save(e);
			const next = await later(store);
			for (const e of entries) expect(await next.load(e.file.path)).toEqual(e);
			expect(await next.known()).toHaveLength(entries.length);
			expect(await next.load("/claude/projects/-home-dev-shop/s3.jsonl")).toBeUndefined();
		});

		it("stores the JSON it is handed as the entry", async () => {
			const store = h().open();
			const entry = storedTranscript(transcriptFile("/claude/projects/p/s.jsonl"));
			await store.save(entry, JSON.stringify(entry));
			expect(await (await later(store)).load(entry.file.path)).toEqual(entry);
		});

		it("has packFolder and saved together, or neither", async () => {
			const store = h().open();
			expect(typeof store.packFolder).toBe(typeof store.saved);
			expect(store.packFolder !== undefined).toBe(options.savesElsewhere === true);
		});

		if (options.savesElsewhere) {
			it("names one pack folder, the same in every run", async () => {
				expect(h().open().packFolder!()).toBe(h().open().packFolder!());
			});

			it("remembers a file whose stored form the source appended to a pack, and finds it there in a later run", async () => {
				const store = h().open();
				const entries = ["a", "b", "c"].map((n) => storedTranscript(transcriptFile(`/claude/projects/p/${n}.jsonl`), `prompt ${n}`));
				for (const entry of entries) await store.saved!(entry.file, appendToPack(store.packFolder!(), JSON.stringify(entry)));
				expect(await store.known()).toEqual(entries.map((e) => e.file));
				const next = await later(store);
				expect(await next.known()).toEqual(entries.map((e) => e.file));
				for (const entry of entries) expect(await next.load(entry.file.path)).toEqual(entry);
			});

			it("a packed model saved again is the saved one from then on, in this run and later ones", async () => {
				const store = h().open();
				const file = transcriptFile("/claude/projects/p/s.jsonl");
				await store.saved!(file, appendToPack(store.packFolder!(), JSON.stringify(storedTranscript(file, "first"))));
				const grown = storedTranscript({ ...file, size: 200 }, "first, then more");
				await store.save(grown);
				expect(await store.load(file.path)).toEqual(grown);
				expect(await (await later(store)).load(file.path)).toEqual(grown);
			});

			it("a packed model forgotten is gone", async () => {
				const store = h().open();
				const file = transcriptFile("/claude/projects/p/s.jsonl");
				await store.saved!(file, appendToPack(store.packFolder!(), JSON.stringify(storedTranscript(file))));
				await store.forget!(file.path);
				const next = await later(store);
				expect(await next.load(file.path)).toBeUndefined();
				expect(await next.known()).toEqual([]);
			});
		}
	});
}

transcriptStoreContract(
	"StateFolder (node/)",
	async () => {
		const dir = await tempDir("contract-state");
		return {
			open: () => new StateFolder(dir.path),
			persist: (store) => (store as StateFolder).flush(emptySyncState()),
			async cleanup() {
				await dir.cleanup();
			},
		};
	},
	{
		savesElsewhere: true,
	},
);

transcriptStoreContract("MemoryTranscriptStore (test fake)", async () => {
	const first = new MemoryTranscriptStore();
	return { open: () => first.reopen(), persist: async () => undefined };
});
