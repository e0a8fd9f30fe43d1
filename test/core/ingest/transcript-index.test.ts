import { describe, expect, it } from "vitest";
import { TranscriptIndex } from "../../../src/core/ingest/transcript-index";
import { foldWholeTranscript, type FoldedWhole } from "../../../src/core/ingest/fold-whole";
import type { TranscriptFile } from "../../../src/core/transcript/transcript-files";
import type { RedactionSpec } from "../../../src/core/ingest/redaction-policy";
import { MemoryTranscriptStore } from "../../fakes/memory-transcript-store";
import { MemoryTranscripts } from "../../fakes/memory-transcripts";
import { assistant, jsonl, system, text, toolResult, toolUse, userText } from "../../fixtures/lines";
import { redactMeta } from "../../../src/core/ingest/redact-model";
import { redactorFor } from "../../../src/core/ingest/redaction-policy";
import { foldRevision } from "../../../src/core/transcript/fold-revision";

const id = "00000000-eeee-4000-8000-000000000001";
const env = { sessionId: id, cwd: "/r/app", timestamp: "2026-10-01T10:00:00.000Z" };
const spec = (extraPatterns: string[]): RedactionSpec => ({ enabled: true, extraPatterns, offFor: [] });
const stored = (store: MemoryTranscriptStore) => [...store.shelf.models.values()].join("\n");

describe("the transcript index and redaction", () => {
	it("a pattern added later redacts what is stored already, in the model and on the shelf", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Close ticket-4711 for me", env), assistant(text("Closed ticket-4711."), { ...env, messageId: "msg_1" })]));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		expect(stored(store)).toContain("ticket-4711");

		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec(["ticket-[0-9]+"]));
		await later.refresh();
		const entry = await later.get(path);
		expect(JSON.stringify(entry!.model.events)).not.toContain("ticket-4711");
		expect(JSON.stringify(entry!.model.events)).toContain("[redacted:custom]");
		expect(stored(store)).not.toContain("ticket-4711");
	});

	it("a pattern added while the index lives on (the plugin's) redacts the models it holds, and the store, at the next refresh", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Close ticket-4711 for me", env), assistant(text("Closed ticket-4711."), { ...env, messageId: "msg_1" })]));
		const store = new MemoryTranscriptStore();
		let patterns: string[] = [];
		const index = new TranscriptIndex(transcripts, store, () => spec(patterns));
		await index.refresh();
		patterns = ["ticket-[0-9]+"];
		await index.refresh();
		expect(JSON.stringify((await index.get(path))!.model.events)).not.toContain("ticket-4711");
		expect(stored(store)).not.toContain("ticket-4711");
		// Held without a store (kept in memory only): redacted there.
		const memoryOnly = new TranscriptIndex(transcripts, undefined, () => spec(patterns));
		patterns = [];
		await memoryOnly.refresh();
		patterns = ["Closed"];
		await memoryOnly.refreshPaths([path]);
		expect(JSON.stringify((await memoryOnly.get(path))!.model.events)).not.toContain("Closed");
	});

	it("a model stored under an older release's built-in rules is redacted again with today's when loaded", async () => {
		const transcripts = new MemoryTranscripts();
		const token = `${Buffer.from("198622483471925248").toString("base64url")}.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWsAbCdEfGh`;
		const path = transcripts.put("-r-app", id, jsonl([userText(`Log the bot in with ${token} please`, env)]));
		const store = new MemoryTranscriptStore();
		// Stored with redaction off, then labelled as an older release labelled a redacted model (no rule set in its key).
		await new TranscriptIndex(transcripts, store, () => ({ ...spec([]), enabled: false })).refresh();
		const entry = JSON.parse(store.shelf.models.get(path)!) as { redaction: string };
		store.shelf.models.set(path, JSON.stringify({ ...entry, redaction: "on:[]" }));
		expect(stored(store)).toContain(token);
		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		await later.refresh();
		expect(JSON.stringify((await later.get(path))!.model.events)).toContain("[redacted:discord-bot-token]");
		expect(stored(store)).not.toContain(token);
	});

	it("a compaction summary read in a later sync than its boundary is redacted too", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Start", env), system("compact_boundary", { compactMetadata: { trigger: "auto", preTokens: 1000 } }, env)]));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		transcripts.append(path, jsonl([{ ...userText("The key was sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA and the work went on", env), isCompactSummary: true }]));
		await index.refresh();
		const compaction = (await index.get(path))!.model.events.find((e) => e.kind === "compaction");
		expect(compaction).toBeDefined();
		expect(JSON.stringify(compaction)).toContain("went on");
		expect(JSON.stringify(compaction)).not.toContain("sk-ant-api03");
	});

	it("an excluded project's sessions are folded for the run, and never stored", async () => {
		const transcripts = new MemoryTranscripts();
		const secret = "the whole conversation of a private project";
		const path = transcripts.put("-r-private", id, jsonl([userText(secret, { ...env, cwd: "/r/private" })]));
		transcripts.put("-r-app", "00000000-eeee-4000-8000-000000000002", jsonl([userText("a public one", env)]));
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => ({ ...spec([]), excluded: ["/r/private"] }));
		await index.refresh();
		expect(JSON.stringify((await index.get(path))!.model.events)).toContain(secret);
		expect(stored(store)).not.toContain(secret);
		expect(stored(store)).toContain("a public one");
	});

	it("a session that went on in an excluded project (resumed there, or the agent cd'd into it) is never stored, nor what it said there", async () => {
		const transcripts = new MemoryTranscripts();
		const there = "the payroll numbers typed in the private project";
		const resumed = transcripts.put("-r-private", id, jsonl([userText("plan the app work", env), userText(there, { ...env, cwd: "/r/private" })]));
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => ({ ...spec([]), excluded: ["/r/private"] }));
		await index.refresh();
		expect(JSON.stringify((await index.get(resumed))!.model.events)).toContain(there);
		expect(stored(store)).not.toContain(there);
		// Stored while it stayed in the app; the words typed after the cd are not.
		const later = "00000000-eeee-4000-8000-000000000003";
		const path = transcripts.put("-r-app", later, jsonl([userText("refactor the app", { ...env, sessionId: later })]));
		await index.refresh();
		expect(stored(store)).toContain("refactor the app");
		transcripts.append(path, jsonl([userText("read the private ledger", { ...env, sessionId: later, cwd: "/r/private/books" })]));
		await index.refresh();
		expect(stored(store)).not.toContain("private ledger");
	});

	it("nothing of a secret is stored from a prompt still queued, a token glued to a name by - or _, or a model's name", async () => {
		const token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij";
		const key = "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put(
			"-r-app",
			id,
			jsonl([
				userText("Deploy it", env),
				{ type: "queue-operation", operation: "enqueue", sessionId: id, timestamp: env.timestamp, content: `then rotate ${key}` },
				assistant(toolUse("toolu_1", "mcp__vault__put", { [`key_${token}`]: "v", label: `tag-${token}` }), { ...env, messageId: "msg_1", model: `claude-${token}` }),
			]),
		);
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => spec([]));
		await index.refresh();
		expect((await index.get(path))!.model.index.queued).toEqual(["then rotate [redacted:anthropic-api-key]"]);
		expect(stored(store)).not.toContain(token);
		expect(stored(store)).not.toContain(key);
		expect(stored(store)).toContain("key_[redacted:github-token]");
	});

	it("the folders a session moved to are redacted; the first, the project's identity, stays", async () => {
		const token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij";
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Start", env), userText("Go on", { ...env, cwd: `/r/app/${token}` })]));
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => spec([]));
		await index.refresh();
		const model = (await index.get(path))!.model;
		expect(model.cwd).toBe("/r/app");
		expect(model.cwds).toEqual(["/r/app", "/r/app/[redacted:github-token]"]);
		expect(stored(store)).not.toContain(token);
	});

	it("names the transcript gives are redacted too: the branch, file paths and PR links", async () => {
		const token = "ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij";
		const transcripts = new MemoryTranscripts();
		const branch = { ...env, gitBranch: `fix/${token}` };
		const path = transcripts.put(
			"-r-app",
			id,
			jsonl([
				userText("Read the notes", branch),
				assistant(toolUse("toolu_1", "Read", { file_path: `/r/app/tmp/${token}.txt` }), { ...branch, messageId: "msg_1" }),
				toolResult("toolu_1", "done", branch),
				{ type: "pr-link", sessionId: id, prNumber: 7, prUrl: `https://github.com/acme/app/pull/7?token=${token}`, prRepository: "acme/app", timestamp: env.timestamp },
			]),
		);
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => spec([]));
		await index.refresh();
		const model = (await index.get(path))!.model;
		expect(model.files.read).toHaveLength(1);
		for (const value of [model.gitBranch, ...model.branches, ...model.files.read, ...model.prLinks]) {
			expect(value).toContain("[redacted:");
			expect(value).not.toContain(token);
		}
		expect(stored(store)).not.toContain(token);
	});

	it("a sub-agent's meta.json description is redacted", () => {
		const meta = redactMeta({ agentType: "general-purpose", description: "Log in with sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }, redactorFor(spec([]), "/r/app"));
		expect(meta?.description).toBe("Log in with [redacted:anthropic-api-key]");
		expect(meta?.agentType).toBe("general-purpose");
	});
});

describe("the transcript index and a file of several sessions (Aider's chat history)", () => {
	const start = (time: string) => `\n# aider chat started at ${time}\n\n`;
	const ask = (text: string) => `\n#### ${text}  \n`;
	const key = "sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

	it("each session is an entry of its own, read on from the file's cursor: only the sessions that grew are read again", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.putAiderHistory("/r/app", start("2026-11-30 09:00:00") + ask("first") + start("2026-11-30 10:00:00") + ask("second"));
		const store = new MemoryTranscriptStore();
		const first = await new TranscriptIndex(transcripts, store).refresh();
		expect(first.updated.map((e) => e.file.path)).toEqual([`${path}#2026-11-30 09:00:00`, `${path}#2026-11-30 10:00:00`]);
		expect(first.updated.every((e) => e.file.kind === "session" && e.file.within === path)).toBe(true);
		transcripts.append(path, "\nDone.\n\n");
		const index = new TranscriptIndex(transcripts, store.reopen());
		const second = await index.refresh();
		// The last session went on; the earlier one was not touched, the file's bytes read once.
		expect(second.updated.map((e) => e.file.path)).toEqual([`${path}#2026-11-30 10:00:00`]);
		expect(second.bytesRead).toBe("\nDone.\n\n".length);
		transcripts.append(path, start("2026-11-30 11:00:00") + ask("third"));
		const third = await index.refreshPaths([path]);
		expect(third.updated.map((e) => e.file.path)).toEqual([`${path}#2026-11-30 11:00:00`]);
		const sessions = await index.sessions();
		expect(sessions.map((s) => s.model.events.map((e) => (e.kind === "prompt" || e.kind === "text" ? e.text : e.kind)))).toEqual([["first"], ["second", "Done."], ["third"]]);
	});

	it("a stored model of another shape is as none: the file is read again from its start, not failed at every sync", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("First question", env), assistant(text("First answer."), { ...env, messageId: "msg_1" })]));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store).refresh();
		const entry = JSON.parse(store.shelf.models.get(path)!) as { model: Record<string, unknown> };
		for (const damage of [{ seenUuids: 1e308 }, { usageByMessage: [-1] }]) {
			store.shelf.models.set(path, JSON.stringify({ ...entry, model: { ...entry.model, ...damage } }));
			transcripts.append(path, jsonl([userText("Second question", { ...env, timestamp: "2026-10-01T11:00:00.000Z" })]));
			const index = new TranscriptIndex(transcripts, store.reopen());
			await index.refresh();
			const prompts = (await index.get(path))!.model.events.flatMap((e) => (e.kind === "prompt" ? [e.text] : []));
			expect(prompts[0]).toBe("First question");
			expect(prompts.at(-1)).toBe("Second question");
		}
	});

	it("only the file's last session keeps where its fold stands: the others never go on", async () => {
		const transcripts = new MemoryTranscripts();
		transcripts.putAiderHistory("/r/app", start("2026-11-30 09:00:00") + ask("first") + start("2026-11-30 10:00:00") + ask("second"));
		const read = await new TranscriptIndex(transcripts, new MemoryTranscriptStore()).refresh();
		expect(read.updated.map((e) => e.model.openBlock?.kind)).toEqual([undefined, "prompt"]);
	});

	it("a reply that goes on in a later read is redacted again as a whole: nothing of a secret is stored", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.putAiderHistory("/r/app", `${start("2026-11-30 09:00:00")}${ask("set up the client")}\nUse this key:\n`);
		const store = new MemoryTranscriptStore();
		const index = new TranscriptIndex(transcripts, store, () => spec([]));
		await index.refresh();
		transcripts.append(path, `${key}\n\n`);
		await new TranscriptIndex(transcripts, store.reopen(), () => spec([])).refresh();
		expect(stored(store)).not.toContain(key);
		expect(stored(store)).toContain("Use this key:\\n[redacted:anthropic-api-key]");
		void index;
	});

	it("a truncated or rewritten file starts over: its sessions are folded anew, none twice", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.putAiderHistory("/r/app", start("2026-11-30 09:00:00") + ask("first") + start("2026-11-30 10:00:00") + ask("second"));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store).refresh();
		transcripts.rewrite(path, start("2026-11-30 09:00:00") + ask("first, edited"));
		const index = new TranscriptIndex(transcripts, store.reopen());
		const read = await index.refresh();
		expect(read.updated.map((e) => e.file.path)).toEqual([`${path}#2026-11-30 09:00:00`]);
		const prompts = (await index.sessions()).map((s) => s.model.events.flatMap((e) => (e.kind === "prompt" ? [e.text] : [])));
		// The session gone from the file keeps what was read of it (as a purged transcript keeps its note).
		expect(prompts).toEqual([["first, edited"], ["second"]]);
	});

	it("an excluded project's history is read for the run and never stored; forgetting one of its sessions reads the file again", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.putAiderHistory("/r/private", start("2026-11-30 09:00:00") + ask("a private request"));
		const store = new MemoryTranscriptStore();
		const excluded = new TranscriptIndex(transcripts, store, () => ({ ...spec([]), excluded: ["/r/private"] }));
		expect((await excluded.refresh()).updated).toHaveLength(1);
		expect(stored(store)).not.toContain("a private request");
		const index = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		expect((await index.refresh()).updated).toHaveLength(1);
		expect(stored(store)).toContain("a private request");
		await index.forget([`${path}#2026-11-30 09:00:00`]);
		expect(store.shelf.files.has(path)).toBe(false);
		expect((await index.refresh()).updated.map((e) => e.file.path)).toEqual([`${path}#2026-11-30 09:00:00`]);
	});
});

describe("the transcript index and the fold's revision", () => {
	it("reads again from its start, once, a file whose model an older release's fold made; one no longer there keeps its model", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Add a cart endpoint", env), assistant(text("Added."), { ...env, messageId: "msg_1" })]));
		const gone = transcripts.put("-r-app", "00000000-eeee-4000-8000-000000000002", jsonl([userText("Old work", { ...env, sessionId: "00000000-eeee-4000-8000-000000000002" })]));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		expect(store.shelf.files.get(path)?.folded).toBe(foldRevision({ agent: "claude-code" }));
		// As an older release left them: no revision on the stamps, and a model that lost the prompt (as its fold did with a TUI prompt).
		for (const [key, file] of store.shelf.files) store.shelf.files.set(key, { ...file, folded: undefined });
		for (const [key, json] of store.shelf.models) store.shelf.models.set(key, json.replace("Add a cart endpoint", "(lost)").replace("Old work", "(kept)"));
		transcripts.purge(gone);
		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		const read = await later.refresh();
		expect(read.updated.map((e) => e.file.path)).toEqual([path]);
		expect(JSON.stringify((await later.get(path))!.model.events)).toContain("Add a cart endpoint");
		expect(store.shelf.files.get(path)?.folded).toBe(foldRevision({ agent: "claude-code" }));
		expect([...store.shelf.models.values()].join("\n")).toContain("(kept)");
		expect((await new TranscriptIndex(transcripts, store.reopen(), () => spec([])).refresh()).updated).toEqual([]);
	});
	it("a file of several sessions (Aider's history) is stamped with its fold's revision: a sync after, nothing changed, stores nothing; one an older fold made is folded anew", async () => {
		const transcripts = new MemoryTranscripts();
		const history = (first: string) => `\n# aider chat started at 2026-11-30 09:00:00\n\n#### ${first}  \n\nDone.\n`;
		const path = transcripts.putAiderHistory("/r/app", history("Rename the cart module"));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		expect(store.shelf.files.get(path)?.folded).toBe(foldRevision({ agent: "aider" }));
		let saves = 0;
		const counting = store.reopen();
		const save = counting.save.bind(counting);
		counting.save = (entry, json) => {
			saves++;
			return save(entry, json);
		};
		expect((await new TranscriptIndex(transcripts, counting, () => spec([])).refresh()).updated).toEqual([]);
		expect(saves).toBe(0);
		// As an older fold left it: no revision on the stamp, and a session model that lost the prompt.
		for (const [key, file] of store.shelf.files) store.shelf.files.set(key, { ...file, folded: undefined });
		for (const [key, json] of store.shelf.models) store.shelf.models.set(key, json.replaceAll("Rename the cart module", "(lost)"));
		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		const read = await later.refresh();
		expect(read.updated.map((e) => e.file.path)).toEqual([`${path}#2026-11-30 09:00:00`]);
		expect(JSON.stringify(read.updated[0]!.model.events)).toContain("Rename the cart module");
		expect(store.shelf.files.get(path)?.folded).toBe(foldRevision({ agent: "aider" }));
	});
	it("a session an older release ended in 2999 (a line stamped past its file's last write) is read again and ends when its file was written", async () => {
		const transcripts = new MemoryTranscripts();
		const path = transcripts.put("-r-app", id, jsonl([userText("Tidy the imports", env), assistant(text("Tidied."), { ...env, messageId: "msg_1", timestamp: "2999-01-01T00:00:00.000Z" })]));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		// What the releases before the bound stored (Claude Code's fold at revision 1): the 2999 stamp was the session's end.
		for (const [key, file] of store.shelf.files) store.shelf.files.set(key, { ...file, folded: 1 });
		for (const [key, json] of store.shelf.models) store.shelf.models.set(key, json.replace(/"endedAt":"[^"]*"/, '"endedAt":"2999-01-01T00:00:00.000Z"'));
		expect(stored(store)).toContain('"endedAt":"2999-');
		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		expect((await later.refresh()).updated.map((e) => e.file.path)).toEqual([path]);
		expect((await later.get(path))!.model.endedAt).toBe(env.timestamp);
		expect(stored(store)).not.toContain('"endedAt":"2999-');
	});
});

describe("the transcript index and the threads that fold", () => {
	it("a file folded elsewhere is followed by another for elsewhere, not by the files this thread folds", async () => {
		// Files named small-… are folded here (slowly, a turn of the event loop each); the others elsewhere, at once.
		const calls: string[] = [];
		class Folding extends MemoryTranscripts {
			foldsHere(file: TranscriptFile): boolean {
				return file.fileId.startsWith("small-");
			}
			async foldWhole(file: TranscriptFile, spec: RedactionSpec | undefined): Promise<FoldedWhole> {
				calls.push(file.fileId);
				if (this.foldsHere(file)) for (let i = 0; i < 5; i++) await new Promise<void>((done) => setImmediate(done));
				return foldWholeTranscript(file, spec, (onLines, onRestart) => this.readAppended(file.path, undefined, onLines, onRestart));
			}
		}
		const transcripts = new Folding();
		// Bigger files (more lines) for elsewhere: they are taken biggest first.
		for (let i = 0; i < 8; i++) transcripts.put("-r-app", `big-${i}`, jsonl(Array.from({ length: 20 - i }, (_, n) => userText(`Prompt ${n}`, env))));
		for (let i = 0; i < 20; i++) transcripts.put("-r-app", `small-${String(i).padStart(2, "0")}`, jsonl([userText("Hi", env)]));
		const read = await new TranscriptIndex(transcripts).refresh();
		expect(read.updated).toHaveLength(28);
		// Every file for elsewhere was handed out before this thread was half through its own.
		const lastBig = calls.lastIndexOf("big-7");
		expect(calls.slice(0, lastBig).filter((c) => c.startsWith("small-")).length).toBeLessThan(10);
	});
});

describe("the transcript index and a damaged store", () => {
	it("names among what it passed over the store's files found damaged, so the sync says why it read everything again", async () => {
		const transcripts = new MemoryTranscripts();
		transcripts.put("-r-app", id, jsonl([userText("Sort the invoices", env)]));
		const store = Object.assign(new MemoryTranscriptStore(), { damaged: () => [{ path: "/state/transcripts.json", reason: "the list was cut short" }] });
		const read = await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		expect(read.passedOver).toContainEqual({ path: "/state/transcripts.json", reason: "the list was cut short" });
	});
});

describe("the transcript index and a resume copied into a new file", () => {
	// An older client's `--resume`: the new file starts with the earlier session's lines, the same
	// uuids, under the new id (or, `keepOld`, still under the earlier one), then the new turn.
	const first = "00000000-ffff-4000-8000-00000000000a";
	const second = "00000000-ffff-4000-8000-00000000000b";
	const at = (sessionId: string, n: number, timestamp: string) => ({ sessionId, cwd: "/r/app", timestamp, uuid: `00000000-0000-4000-9000-${String(n).padStart(12, "0")}` });
	const earlier = (sessionId: string) => [
		userText("Rename the billing module to invoicing", at(sessionId, 1, "2026-10-01T09:00:00.000Z")),
		assistant(text("Renamed it."), { ...at(sessionId, 2, "2026-10-01T09:02:00.000Z"), messageId: "msg_a1", usage: { input_tokens: 40, output_tokens: 4 } }),
		userText("Fix the imports that broke", at(sessionId, 3, "2026-10-01T09:05:00.000Z")),
		assistant(text("Fixed them."), { ...at(sessionId, 4, "2026-10-01T09:06:00.000Z"), messageId: "msg_a2", usage: { input_tokens: 60, output_tokens: 6 } }),
	];
	const copy = (keepOld: boolean) => [
		...earlier(keepOld ? first : second),
		userText("Add a changelog line for the rename", at(second, 11, "2026-10-02T14:00:00.000Z")),
		assistant(text("Added it."), { ...at(second, 12, "2026-10-02T14:01:00.000Z"), messageId: "msg_b1", usage: { input_tokens: 7, output_tokens: 1 } }),
	];
	const promptsOf = (entry: { model: { events: { kind: string; text?: string }[] } } | undefined) => entry!.model.events.flatMap((e) => (e.kind === "prompt" ? [e.text] : []));
	const expectOwnTurnOnly = (entry: Awaited<ReturnType<TranscriptIndex["get"]>>) => {
		expect(promptsOf(entry)).toEqual(["Add a changelog line for the rename"]);
		expect(entry!.model.counts.prompts).toBe(1);
		expect(entry!.model.tokens.input).toBe(7);
		expect(entry!.model.startedAt).toBe("2026-10-02T14:00:00.000Z");
		expect(entry!.model.events[0]).toMatchObject({ kind: "forked", from: first, prompts: 2 });
	};
	const expectWhole = (entry: Awaited<ReturnType<TranscriptIndex["get"]>>) => {
		expect(promptsOf(entry)).toEqual(["Rename the billing module to invoicing", "Fix the imports that broke"]);
		expect(entry!.model.tokens.input).toBe(100);
	};

	for (const keepOld of [false, true]) {
		const lines = keepOld ? " (its copied lines under the earlier id)" : "";
		it(`a copy read in the same refresh as its original, each on a thread of its own, starts at its own turn${lines}`, async () => {
			class Threads extends MemoryTranscripts {
				async foldWhole(file: TranscriptFile, spec: RedactionSpec | undefined): Promise<FoldedWhole> {
					return foldWholeTranscript(file, spec, (onLines, onRestart) => this.readAppended(file.path, undefined, onLines, onRestart));
				}
			}
			const transcripts = new Threads();
			const a = transcripts.put("-r-app", first, jsonl(earlier(first)));
			const b = transcripts.put("-r-app", second, jsonl(copy(keepOld)));
			const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
			const read = await index.refresh();
			expect(read.updated.map((e) => e.file.path).sort()).toEqual([a, b].sort());
			expectOwnTurnOnly(read.updated.find((e) => e.file.path === b));
			expectOwnTurnOnly(await index.get(b));
			expectWhole(await index.get(a));
		});
	}

	it("a copy read before its original appears is folded again when it does, and reported read", async () => {
		const transcripts = new MemoryTranscripts();
		const b = transcripts.put("-r-app", second, jsonl(copy(false)));
		const store = new MemoryTranscriptStore();
		const alone = new TranscriptIndex(transcripts, store, () => spec([]));
		await alone.refresh();
		expect(promptsOf(await alone.get(b))).toHaveLength(3);
		const a = transcripts.put("-r-app", first, jsonl(earlier(first)));
		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		const read = await later.refresh();
		expect(read.updated.map((e) => e.file.path).sort()).toEqual([a, b].sort());
		expect(read.updated.find((e) => e.file.path === b)?.readAnew).toBe(true);
		expectOwnTurnOnly(await later.get(b));
		expectWhole(await later.get(a));
		// Stored so: a run after it reads nothing again.
		expect((await new TranscriptIndex(transcripts, store.reopen(), () => spec([])).refresh()).updated).toEqual([]);
	});

	it("a copy whose original was purged goes on from where it was, and is still its own when folded again from its start", async () => {
		const transcripts = new MemoryTranscripts();
		const a = transcripts.put("-r-app", first, jsonl(earlier(first)));
		const b = transcripts.put("-r-app", second, jsonl(copy(false)));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		transcripts.purge(a);
		transcripts.append(b, jsonl([userText("Bump the version too", at(second, 13, "2026-10-02T14:05:00.000Z")), assistant(text("Bumped."), { ...at(second, 14, "2026-10-02T14:06:00.000Z"), messageId: "msg_b2", usage: { input_tokens: 3, output_tokens: 1 } })]));
		const later = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		expect((await later.refresh()).updated.map((e) => e.file.path)).toEqual([b]);
		const grown = await later.get(b);
		expect(promptsOf(grown)).toEqual(["Add a changelog line for the rename", "Bump the version too"]);
		expect(grown!.model.tokens.input).toBe(10);
		// The original's model stays, as a purged transcript's does.
		expectWhole(await later.get(a));
		// Rewritten in place (the same lines), the copy is read from its start without the original's file: its model tells it.
		transcripts.rewrite(b, `${jsonl(copy(false))}${jsonl([userText("Bump the version too", at(second, 13, "2026-10-02T14:05:00.000Z"))])}`);
		const again = new TranscriptIndex(transcripts, store.reopen(), () => spec([]));
		await again.refresh();
		expect(promptsOf(await again.get(b))).toEqual(["Add a changelog line for the rename", "Bump the version too"]);
	});

	// A resume of the copy: its own turn after the copy's lines.
	const third = "00000000-ffff-4000-8000-00000000000c";
	const ownOfThird = [userText("Now drop the old alias", at(third, 21, "2026-10-03T11:00:00.000Z")), assistant(text("Dropped."), { ...at(third, 22, "2026-10-03T11:01:00.000Z"), messageId: "msg_c1", usage: { input_tokens: 2, output_tokens: 1 } })];

	it("a resume of a resume names the session it went on from, and each tells only its own turn", async () => {
		const transcripts = new MemoryTranscripts();
		transcripts.put("-r-app", first, jsonl(earlier(first)));
		const b = transcripts.put("-r-app", second, jsonl(copy(false)));
		const c = transcripts.put("-r-app", third, jsonl([...copy(false).map((line) => ({ ...line, sessionId: third })), ...ownOfThird]));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		expectOwnTurnOnly(await index.get(b));
		const last = await index.get(c);
		expect(promptsOf(last)).toEqual(["Now drop the old alias"]);
		expect(last!.model.tokens.input).toBe(2);
		expect(last!.model.events[0]).toMatchObject({ kind: "forked", from: second, prompts: 3 });
	});

	// The earlier session resumed again later in its own file (a newer client resumes in place): it
	// now ends after its copy, and both are read for the first time together.
	const wentOn = (hour: string) => [
		userText("Now split the invoicing tests", at(first, 31, `${hour}:00:00.000Z`)),
		assistant(text("Split them."), { ...at(first, 32, `${hour}:01:00.000Z`), messageId: "msg_a3", usage: { input_tokens: 9, output_tokens: 1 } }),
	];

	it("an original that went on in its own file after its copy was made, both read first together, is still the original", async () => {
		const transcripts = new MemoryTranscripts();
		const a = transcripts.put("-r-app", first, jsonl([...earlier(first), ...wentOn("2026-10-05T08")]));
		const b = transcripts.put("-r-app", second, jsonl(copy(false)));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		expectOwnTurnOnly(await index.get(b));
		expect(promptsOf(await index.get(a))).toEqual(["Rename the billing module to invoicing", "Fix the imports that broke", "Now split the invoicing tests"]);
		expect((await index.get(a))!.model.index.copyOf).toBeUndefined();
	});

	it("a resume of a resume, its first session gone on between them, gives each session only its own turns", async () => {
		const transcripts = new MemoryTranscripts();
		// Gone on after the first copy's turn, before the second copy's.
		const a = transcripts.put("-r-app", first, jsonl([...earlier(first), ...wentOn("2026-10-02T20")]));
		const b = transcripts.put("-r-app", second, jsonl(copy(false)));
		const c = transcripts.put("-r-app", third, jsonl([...copy(false).map((line) => ({ ...line, sessionId: third })), ...ownOfThird]));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		expect(promptsOf(await index.get(a))).toHaveLength(3);
		expectOwnTurnOnly(await index.get(b));
		expect(promptsOf(await index.get(c))).toEqual(["Now drop the old alias"]);
	});

	it("a turn appended to a copy loads no other session's model (its group is as it was)", async () => {
		const transcripts = new MemoryTranscripts();
		const a = transcripts.put("-r-app", first, jsonl(earlier(first)));
		const b = transcripts.put("-r-app", second, jsonl(copy(false)));
		const store = new MemoryTranscriptStore();
		await new TranscriptIndex(transcripts, store, () => spec([])).refresh();
		transcripts.append(b, jsonl([userText("Bump the version too", at(second, 13, "2026-10-02T14:05:00.000Z"))]));
		const reopened = store.reopen();
		const loaded: string[] = [];
		const load = reopened.load.bind(reopened);
		reopened.load = (path) => {
			loaded.push(path);
			return load(path);
		};
		const later = new TranscriptIndex(transcripts, reopened, () => spec([]));
		expect((await later.refresh()).updated.map((e) => e.file.path)).toEqual([b]);
		expect(loaded).toEqual([b]);
		expect(promptsOf(await later.get(b))).toEqual(["Add a changelog line for the rename", "Bump the version too"]);
		expectWhole(await later.get(a));
	});

	it("a `--fork-session` copy (its copied replies marked, beside its parent) is told once, as the fork path tells it alone", async () => {
		const transcripts = new MemoryTranscripts();
		const a = transcripts.put("-r-app", first, jsonl(earlier(first)));
		// As Claude Code 2.1 writes a fork: the same uuids under the new id, each copied reply naming the session that made it, the copied prompts the fork's promptId.
		const forked = copy(false).map((line, i) => (i >= 4 ? line : line.type === "assistant" ? { ...line, requestSessionId: first } : { ...line, promptId: "p-fork" }));
		const b = transcripts.put("-r-app", second, jsonl(forked));
		const both = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await both.refresh();
		expectOwnTurnOnly(await both.get(b));
		expectWhole(await both.get(a));
		// The same as the fork read without its parent beside it.
		const aloneTranscripts = new MemoryTranscripts();
		const alone = aloneTranscripts.put("-r-app", second, jsonl(forked));
		const index = new TranscriptIndex(aloneTranscripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		expect((await both.get(b))!.model.events).toEqual((await index.get(alone))!.model.events);
	});

	it("replicas of one session (its very lines under other ids, nothing of their own) are each their own session", async () => {
		const transcripts = new MemoryTranscripts();
		const a = transcripts.put("-r-app", first, jsonl(earlier(first)));
		const b = transcripts.put("-r-app", second, jsonl(earlier(second)));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		expectWhole(await index.get(a));
		expectWhole(await index.get(b));
		// Read afresh with a turn of its own after those lines, it is a copy: told from its own turn.
		transcripts.append(b, jsonl(copy(false).slice(4)));
		const store = new MemoryTranscriptStore();
		const again = new TranscriptIndex(transcripts, store, () => spec([]));
		await again.refresh();
		expectOwnTurnOnly(await again.get(b));
		expectWhole(await again.get(a));
	});

	it("sessions made from one template (the same uuids, another prompt or time) are each their own", async () => {
		const transcripts = new MemoryTranscripts();
		const template = (sessionId: string, n: number) => [
			userText(`Fix the parser bug number ${n}`, at(sessionId, 1, `2026-10-0${n}T09:00:00.000Z`)),
			assistant(text(`Fixed bug ${n}.`), { ...at(sessionId, 2, `2026-10-0${n}T09:01:00.000Z`), messageId: "msg_1", usage: { input_tokens: 10, output_tokens: 1 } }),
		];
		const a = transcripts.put("-r-app", first, jsonl(template(first, 1)));
		const b = transcripts.put("-r-app", second, jsonl(template(second, 2)));
		const c = transcripts.put("-r-app", "00000000-ffff-4000-8000-00000000000c", jsonl(template("00000000-ffff-4000-8000-00000000000c", 3).map((line, i) => (i === 0 ? { ...line, timestamp: "2026-10-01T09:00:00.000Z" } : line))));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		expect(promptsOf(await index.get(a))).toEqual(["Fix the parser bug number 1"]);
		expect(promptsOf(await index.get(b))).toEqual(["Fix the parser bug number 2"]);
		// The same time as the first one's, another prompt.
		expect(promptsOf(await index.get(c))).toEqual(["Fix the parser bug number 3"]);
	});

	it("two sessions that only start with the same lines in different projects are left alone", async () => {
		const transcripts = new MemoryTranscripts();
		transcripts.put("-r-app", first, jsonl(earlier(first)));
		const b = transcripts.put("-r-other", second, jsonl(copy(false)));
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore(), () => spec([]));
		await index.refresh();
		expect(promptsOf(await index.get(b))).toHaveLength(3);
	});
});
