import { readFileSync, writeFileSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFact } from "../../../src/core/memory/fact-file";
import { migrateSettings } from "../../../src/core/settings";
import { VaultSync } from "../../../src/node/vault-sync";
import { MemoryNotes } from "../../fakes/memory-notes";
import { assistant, jsonl, resetIds, text, userText } from "../../fixtures/lines";

/** Facts proposed from what the user typed: into the project's inbox, once, linked both ways. */
const A = "aaaaaaaa-1111-4000-8000-000000000001";
let root: string;
let projects: string;
let notes: MemoryNotes;
const cwd = "/home/dev/shop-api";
const transcript = () => join(projects, "-home-dev-shop-api", `${A}.jsonl`);
const sync = () => new VaultSync(projects, join(root, "state"), notes).run(migrateSettings({}).settings);
const inbox = () => [...notes.files.keys()].filter((p) => p.startsWith("AI Memory/shop-api/_inbox/")).sort();

beforeEach(async () => {
	resetIds();
	root = await mkdtemp(join(tmpdir(), "proposals-"));
	projects = join(root, "projects");
	await mkdir(join(projects, "-home-dev-shop-api"), { recursive: true });
	const env = { sessionId: A, cwd, timestamp: "2026-11-20T10:00:00.000Z" };
	await writeFile(
		transcript(),
		jsonl([
			userText("Add a cart endpoint. From now on, always use pnpm instead of npm in this repo.", env),
			assistant(text("Added the endpoint; I will use pnpm from now on."), { ...env, messageId: "m1" }),
			userText("앞으로는 커밋하기 전에 항상 테스트를 돌려 줘.", { ...env, timestamp: "2026-11-20T10:07:00.000Z" }),
			assistant(text("네, 그렇게 하겠습니다."), { ...env, messageId: "m2" }),
		]),
	);
	notes = new MemoryNotes();
});
afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe("proposed facts", () => {
	it("that could not be written (a full disk) are proposed again by the next sync", async () => {
		notes.beforeWrite = (path) => {
			if (path.includes("/_inbox/")) throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
		};
		const full = await sync();
		expect(full.errors).toHaveLength(2);
		expect(full.errors[0]).toMatch(/_inbox\/.*: not written, the disk is full \(ENOSPC\); the next sync tries again/);
		expect(inbox()).toEqual([]);
		// A refusal that is a sentence of its own, naming the note, is said as it is, not after "not written,".
		notes.beforeWrite = (path) => {
			if (path.includes("/_inbox/")) throw new Error(`The note ${path} is not a plain file (a folder); it is neither read nor written`);
		};
		const refused = await sync();
		expect(refused.errors[0]).toMatch(/^The note .*_inbox\/.* is not a plain file \(a folder\); it is neither read nor written; the next sync tries again$/);
		notes.beforeWrite = undefined;
		const next = await sync();
		expect(next.errors).toEqual([]);
		expect(inbox()).toHaveLength(2);
		const note = [...notes.files].find(([p]) => p.startsWith("AI Conversations/shop-api/2026"))![1];
		for (const path of inbox()) expect(note).toContain(path.split("/").pop()!.replace(/\.md$/, ""));
	});

	it("written by a sync that stopped before it saved the state (kill -9, a full disk) are linked by the next one", async () => {
		await sync();
		const paths = inbox();
		expect(paths).toHaveLength(2);
		// The notes and proposals were written; the state, last, was not.
		await rm(join(root, "state"), { recursive: true, force: true });
		const next = await sync();
		expect(next.errors).toEqual([]);
		expect(inbox()).toEqual(paths);
		const note = [...notes.files].find(([p]) => p.startsWith("AI Conversations/shop-api/2026-11-20"))![1];
		const names = paths.map((p) => p.split("/").pop()!.replace(/\.md$/, ""));
		expect(note).toContain(`Facts: ${names.map((n) => `[[${n}]]`).join(", ")}`);
		// Another session's proposal of the same statement is not taken for this one's.
		const other = notes.files.get(paths[0]!)!.replace(/Source: \[\[AI Conversations\/shop-api\/[^|\]]*/, "Source: [[AI Conversations/shop-api/2026-11-19 Another session");
		notes.files.set(paths[0]!, other);
		await rm(join(root, "state"), { recursive: true, force: true });
		await sync();
		const after = [...notes.files].find(([p]) => p.startsWith("AI Conversations/shop-api/2026-11-20"))![1];
		expect(after).toContain(`Facts: [[${names[1]}]]`);
		expect(after).not.toContain(`[[${names[0]}]]`);
	});

	it("give their prompt's local time, as the note's `started` does (an unmarked UTC time read hours off beside it)", async () => {
		process.env.TZ = "Asia/Kolkata";
		try {
			await sync();
		} finally {
			process.env.TZ = "UTC";
		}
		expect(notes.files.get(inbox().find((p) => !/pnpm/.test(p))!)).toContain("prompt 2 (2026-11-20 15:37)");
	});

	it("go to the project's inbox with their source, and the session note links them", async () => {
		const r = await sync();
		expect(r.errors).toEqual([]);
		const paths = inbox();
		expect(paths).toHaveLength(2);
		const english = notes.files.get(paths.find((p) => /pnpm/.test(p))!)!;
		expect(readFact("x.md", english)).toMatchObject({ type: "feedback" });
		expect(english).toContain("always use pnpm instead of npm");
		expect(english).toMatch(/Source: \[\[AI Conversations\/shop-api\/2026-11-20 Add a cart endpoint[^\]]*\]\], prompt 1 \(2026-11-20 10:00\)/);
		const korean = notes.files.get(paths.find((p) => !/pnpm/.test(p))!)!;
		expect(korean).toContain("prompt 2 (2026-11-20 10:07)");
		const note = [...notes.files].find(([p]) => p.startsWith("AI Conversations/shop-api/2026-11-20"))![1];
		const names = paths.map((p) => p.split("/").pop()!.replace(/\.md$/, ""));
		expect(note).toContain(`Facts: ${names.map((n) => `[[${n}]]`).join(", ")}`);
	});

	it("hold no control character or bidirectional override of the prompt they come from", async () => {
		const env = { sessionId: A, cwd, timestamp: "2026-11-21T10:00:00.000Z" };
		await appendFile(transcript(), jsonl([userText("From now on, always run the \u202elinter\u202c before you commit.\u0007\u0000", env), assistant(text("Will do."), { ...env, messageId: "m3" })]));
		await sync();
		const lint = inbox().map((p) => notes.files.get(p)!).find((t) => t.includes("linter"));
		expect(lint).toContain("always run the linter before you commit");
		expect([...lint!].filter((c) => (c < " " && c !== "\n") || c === "\u202e" || c === "\u202c")).toEqual([]);
	});

	it("are proposed once: a rejected (deleted) proposal does not come back when the session grows", async () => {
		await sync();
		const [first] = inbox();
		notes.files.delete(first!);
		await appendFile(transcript(), jsonl([userText("Thanks, that is all for today.", { sessionId: A, cwd, timestamp: "2026-11-20T10:20:00.000Z" })]));
		const r = await sync();
		expect(r.transcriptsRead).toBe(1);
		expect(inbox()).toHaveLength(1);
		expect(r.memoryWritten).toEqual([]);
	});

	it("are remembered by a hash of their statement, never its text: a secret in a deleted proposal leaves no trace in the state", async () => {
		await sync();
		const state = () => readFileSync(join(root, "state", "sync-state.json"), "utf8");
		const proposed = () => (JSON.parse(state()) as { proposed: Record<string, string[]> }).proposed;
		expect(Object.values(proposed()).flat()).toHaveLength(2);
		expect(Object.values(proposed()).flat().every((k) => /^#[0-9a-z]+$/.test(k))).toBe(true);
		expect(state()).not.toMatch(/pnpm/);
		// A state an older release wrote kept the statements as text: hashed when read, and still never proposed again.
		const key = Object.keys(proposed())[0]!;
		writeFileSync(join(root, "state", "sync-state.json"), state().replace(/"proposed":\{[^}]*\}/, `"proposed":{${JSON.stringify(key)}:["always use pnpm instead of npm in this repo"]}`));
		expect(state()).toContain('["always use pnpm instead of npm in this repo"]');
		for (const p of inbox()) notes.files.delete(p);
		await appendFile(transcript(), jsonl([userText("From now on, always use pnpm instead of npm in this repo.", { sessionId: A, cwd, timestamp: "2026-11-20T10:20:00.000Z" })]));
		await sync();
		expect(inbox()).toEqual([]);
		expect(state()).not.toMatch(/pnpm/);
	});

	it("come from the prompts typed since the last sync when a session grows, numbered in the whole session", async () => {
		await sync();
		expect(inbox()).toHaveLength(2);
		await appendFile(transcript(), jsonl([userText("Remember that the staging database is read-only on Fridays.", { sessionId: A, cwd, timestamp: "2026-11-20T10:30:00.000Z" })]));
		const r = await sync();
		const added = r.memoryWritten.filter((p) => p.includes("/_inbox/"));
		expect(added).toHaveLength(1);
		expect(notes.files.get(added[0]!)).toMatch(/, prompt 3 \(2026-11-20 10:30\)/);
	});

	it("are not proposed when the memory holds the fact already", async () => {
		notes.files.set("AI Memory/shop-api/use-pnpm.md", "---\nname: use-pnpm\ndescription: Always use pnpm instead of npm in this repo\nmetadata:\n  type: feedback\n---\nUse pnpm.\n");
		await sync();
		expect(inbox().some((p) => /pnpm/.test(p))).toBe(false);
	});
});
