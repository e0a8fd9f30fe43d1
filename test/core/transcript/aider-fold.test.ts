import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TranscriptIndex } from "../../../src/core/ingest/transcript-index";
import fc from "fast-check";
import { aiderSessionStart, isAutoAnswer } from "../../../src/core/transcript/aider-fold";
import { serializeSession, type SessionModel } from "../../../src/core/transcript/session-model";
import { promptsOf, shellCommandsOf, toolCallsOf } from "../../../src/core/transcript/session-queries";
import { digestSession } from "../../../src/core/digest/session-digest";
import { MemoryTranscriptStore } from "../../fakes/memory-transcript-store";
import { MemoryTranscripts } from "../../fakes/memory-transcripts";

/**
 * Aider cannot run here (a Python program, and PyPI is out of reach): the fixture is written by
 * hand the way its source appends to `.aider.chat.history.md` (aider/io.py, base_coder.py at
 * 0.86; see docs/agents/aider-format.md), three sessions of one repository.
 */
const HISTORY = readFileSync(join(__dirname, "..", "..", "fixtures", "agents", "aider", "0.86", "project", ".aider.chat.history.md"));
const PROJECT = "/home/dev/shop";

/** The sessions of a history, read by the transcript index in the reads given (each a byte count to add), the store reopened between them. */
async function sessionsOf(bytes: Buffer, cuts: number[] = []): Promise<SessionModel[]> {
	const transcripts = new MemoryTranscripts();
	let store = new MemoryTranscriptStore();
	const ends = [...cuts, bytes.length];
	const path = transcripts.putAiderHistory(PROJECT, bytes.subarray(0, ends[0]));
	await new TranscriptIndex(transcripts, store).refresh();
	for (let i = 1; i < ends.length; i++) {
		transcripts.append(path, bytes.subarray(ends[i - 1], ends[i]));
		store = store.reopen();
		await new TranscriptIndex(transcripts, store).refresh();
	}
	const index = new TranscriptIndex(transcripts, store.reopen());
	await index.refresh();
	return (await index.sessions()).map((s) => s.model);
}

const texts = (model: SessionModel, kind: "text" | "thinking") => model.events.flatMap((e) => (e.kind === kind ? [e.text] : []));

describe("the Aider fold, on a history written the way Aider's source writes it", () => {
	it("one session per start, in the file's order, each with its start (local time) and Aider's version", async () => {
		const sessions = await sessionsOf(HISTORY);
		expect(sessions.map((s) => s.startedAt)).toEqual(["2026-11-30T09:12:03.000Z", "2026-11-30T14:40:55.000Z", "2026-12-01T08:05:10.000Z"]);
		expect(sessions.map((s) => s.fileId)).toEqual(["aider-app-2026-11-30-09-12-03", "aider-app-2026-11-30-14-40-55", "aider-app-2026-12-01-08-05-10"]);
		for (const s of sessions) {
			expect(s.agent).toBe("aider");
			expect(s.cwd).toBe(PROJECT);
			expect(s.versions).toEqual(["0.86.1"]);
			expect(s.counts.malformed).toBe(0);
			expect(s.counts.unknownRecords).toBe(0);
		}
		expect(sessions.map((s) => s.models)).toEqual([["anthropic/claude-sonnet-4-20250514"], ["deepseek/deepseek-reasoner"], ["gpt-4.1"]]);
	});

	it("prompts (a request of several lines is one), commands, replies, edits, commits and commands run", async () => {
		const [first] = await sessionsOf(HISTORY);
		const model = first!;
		expect(promptsOf(model).map((p) => [p.kind, p.text])).toEqual([
			["prompt", "The cart total ignores the discount.\nFix it and add a test for a 10% discount."],
			["command", "/run python -m pytest -q"],
			["command", "/add src/totals.py"],
			["prompt", "Use the money helper in src/rounding.py for the rounding too."],
			["command", "/exit"],
		]);
		expect(model.counts).toMatchObject({ prompts: 2, slashCommands: 3, assistantMessages: 2, malformed: 0 });
		const replies = texts(model, "text");
		expect(replies).toHaveLength(2);
		// A reply keeps its blank lines and code; the output after it is not part of it.
		expect(replies[0]).toMatch(/^I'll apply the discount after summing the items, and add a test\.\n\nsrc\/cart\.py\n```python\n<<<<<<< SEARCH\n/);
		expect(replies[0]).toMatch(/```bash\npython -m pytest -q\n```$/);
		expect(model.files.edited).toEqual([`${PROJECT}/tests/test_cart.py`, `${PROJECT}/src/cart.py`]);
		expect(model.files.read).toEqual([`${PROJECT}/src/cart.py`, `${PROJECT}/src/totals.py`, `${PROJECT}/src/rounding.py`]);
		expect(shellCommandsOf(model).map((c) => c.input.command)).toEqual([
			'git commit -m "fix: Apply the cart discount after summing the items"',
			"python -m pytest -q",
			"python -m pytest -q",
			'git commit -m "refactor: Round cart totals with the money helper"',
		]);
		expect(toolCallsOf(model).filter((c) => c.name === "Edit").map((c) => c.input.file_path)).toEqual([`${PROJECT}/tests/test_cart.py`, `${PROJECT}/src/cart.py`, `${PROJECT}/src/cart.py`]);
		const digest = digestSession(model);
		// Newest first, as `git log` tells them.
		expect(digest.done.slice(0, 2)).toEqual(["commit 5d6e7f8: refactor: Round cart totals with the money helper", "commit 1a2b3c4: fix: Apply the cart discount after summing the items"]);
		expect(digest.title).toMatch(/cart total ignores the discount/i);
	});

	it("tokens and cost: a usage report of two lines (cache write and hit) and one of one line, the session's cost last", async () => {
		const [first, second] = await sessionsOf(HISTORY);
		// 4.2k sent holds the 2.0k written to the cache and the 1.6k read from it; 5.1k the 4.0k read.
		expect(first!.tokens).toEqual({ input: 600 + 1100, output: 512 + 120, cacheCreation: 2000, cacheRead: 1600 + 4000, costUsd: 0.03 });
		expect(second!.tokens).toEqual({ input: 2300, output: 190, cacheCreation: 0, cacheRead: 0, costUsd: 0.001 });
	});

	it("ask mode, reasoning, a quote and a heading inside a reply, an API error, a blank input and an interrupt", async () => {
		const [, second] = await sessionsOf(HISTORY);
		const model = second!;
		expect(promptsOf(model).map((p) => [p.kind, p.text])).toEqual([["prompt", "why does the checkout round twice?"]]);
		expect(texts(model, "thinking")).toEqual(["The user asks about double rounding. `Cart.total` rounds with `money`, and `checkout` rounds the total again."]);
		const [reply] = texts(model, "text");
		expect(reply).toMatch(/^`checkout\(\)` calls/);
		expect(reply).toContain("\n\n> Rounding should happen once, at the edge.\n\n#### Suggestion\n\nRemove the `round` call in `checkout()`.");
		expect(model.counts).toMatchObject({ thinking: 1, assistantMessages: 1, apiErrors: 1, interruptions: 1, prompts: 1, slashCommands: 0 });
		// ^C is also how Aider is quit: counted, never taken for work the user stopped.
		expect(model.interruptedAt).toBeUndefined();
		const error = model.events.find((e) => e.kind === "error");
		expect(error?.kind === "error" && error.source === "api" && error.text.startsWith("litellm.APIConnectionError")).toBe(true);
	});

	it("a shell command typed with `!` is a command and a command run; a last request still unanswered", async () => {
		const [, , third] = await sessionsOf(HISTORY);
		expect(promptsOf(third!).map((p) => p.text)).toEqual(["!git status", "Rename Item.qty to quantity everywhere."]);
		expect(shellCommandsOf(third!).map((c) => c.input.command)).toEqual(["git status"]);
		expect(digestSession(third!).open).toEqual(["unanswered: Rename Item.qty to quantity everywhere."]);
	});

	it("read in pieces (cut at every 97th byte, mid-line and mid-reply), the store reopened each time: the same sessions as one read", async () => {
		const whole = (await sessionsOf(HISTORY)).map((m) => JSON.stringify(serializeSession(m)));
		const cuts = Array.from({ length: Math.floor(HISTORY.length / 97) }, (_, i) => (i + 1) * 97);
		const pieces = (await sessionsOf(HISTORY, cuts)).map((m) => JSON.stringify(serializeSession(m)));
		expect(pieces).toEqual(whole);
	});

	it("the last line half-written waits for its end", async () => {
		const cut = HISTORY.indexOf("Rename Item.qty") + 10;
		const transcripts = new MemoryTranscripts();
		const path = transcripts.putAiderHistory(PROJECT, HISTORY.subarray(0, cut));
		const index = new TranscriptIndex(transcripts);
		await index.refresh();
		let last = (await index.sessions()).at(-1)!.model;
		expect(promptsOf(last).map((p) => p.text)).toEqual(["!git status"]);
		transcripts.append(path, HISTORY.subarray(cut));
		await index.refresh();
		last = (await index.sessions()).at(-1)!.model;
		expect(promptsOf(last).map((p) => p.text)).toEqual(["!git status", "Rename Item.qty to quantity everywhere."]);
	});

	it("odd encodings: CRLF line ends and a byte-order mark read alike; a line of Latin-1 is read with U+FFFD for its byte (its prompt was lost)", async () => {
		const lf = (await sessionsOf(HISTORY)).map((m) => promptsOf(m).map((p) => p.text));
		const crlf = Buffer.from(`\uFEFF${HISTORY.toString("utf8").replace(/\n/g, "\r\n")}`, "utf8");
		expect((await sessionsOf(crlf)).map((m) => promptsOf(m).map((p) => p.text))).toEqual(lf);
		const at = HISTORY.indexOf("#### /add src/totals.py");
		const latin1 = Buffer.concat([HISTORY.subarray(0, at), Buffer.from("#### caf\xe9 au lait  \n", "latin1"), HISTORY.subarray(at)]);
		const [first] = await sessionsOf(latin1);
		expect(first!.malformedLines).toEqual([]);
		expect(promptsOf(first!).some((p) => p.text.startsWith("caf\uFFFD au lait"))).toBe(true);
	});

	it("a history in UTF-16 (Aider's `--encoding utf-16`) is lines with NUL bytes: none read, each counted with why, so the sync names the file", async () => {
		const [only, ...rest] = await sessionsOf(Buffer.from(`\uFEFF${HISTORY.toString("utf8")}`, "utf16le"));
		expect(rest).toEqual([]);
		expect(only!.counts.records).toBe(0);
		// Its first line starts with the byte-order mark's 0xFF 0xFE: not UTF-8 at all.
		expect(only!.malformedLines.slice(0, 2)).toEqual([{ line: 1, reason: "invalid UTF-8" }, { line: 2, reason: "NUL bytes in line" }]);
	});

	it("a stray NUL in a line of text leaves the line read: only a line that is mostly NULs is no text", async () => {
		const [first] = await sessionsOf(Buffer.from(HISTORY.toString("utf8").replace("#### The cart total ignores the discount.  ", "#### The cart total\u0000 ignores the discount.  ")));
		expect(first!.malformedLines).toEqual([]);
		expect(promptsOf(first!)[0]?.text).toContain("ignores the discount");
	});

	it("the zero bytes a crash left before a line (a file system's hole) are no part of it: the prompt after them is read", async () => {
		const at = HISTORY.indexOf("#### The cart total ignores the discount.");
		const [first] = await sessionsOf(Buffer.concat([HISTORY.subarray(0, at), Buffer.alloc(4096), HISTORY.subarray(at)]));
		expect(first!.malformedLines).toEqual([]);
		expect(promptsOf(first!)[0]?.text).toContain("ignores the discount");
	});

	it("a history without a start line (its top cut, or written without one) is a session all the same, named `no start`, with no time", async () => {
		const headless = HISTORY.toString("utf8").split("# aider chat started at 2026-11-30 14:40:55")[0]!.replace("# aider chat started at 2026-11-30 09:12:03\n", "");
		const transcripts = new MemoryTranscripts();
		const path = transcripts.putAiderHistory(PROJECT, headless);
		const index = new TranscriptIndex(transcripts, new MemoryTranscriptStore());
		await index.refresh();
		const [only, ...rest] = await index.sessions();
		expect(rest).toEqual([]);
		expect(only!.file).toMatchObject({ path: `${path}#no start`, fileId: "aider-app-no-start" });
		expect(only!.model).toMatchObject({ startedAt: undefined, counts: { unknownRecords: 0 }, unknownTypes: {} });
		expect(promptsOf(only!.model)[0]?.text).toBe("The cart total ignores the discount.\nFix it and add a test for a 10% discount.");
		expect(only!.model.versions).toEqual(["0.86.1"]);
		// Lines before the first start of a history that has starts: a session of their own, the others as they were.
		const sessions = await sessionsOf(Buffer.concat([Buffer.from("#### a request whose start was cut  \n\nThe reply.\n"), HISTORY]));
		expect(sessions.map((s) => s.fileId)).toEqual(["aider-app-no-start", "aider-app-2026-11-30-09-12-03", "aider-app-2026-11-30-14-40-55", "aider-app-2026-12-01-08-05-10"]);
		expect(promptsOf(sessions[0]!).map((p) => p.text)).toEqual(["a request whose start was cut"]);
		expect(texts(sessions[0]!, "text")).toEqual(["The reply."]);
		// A start line without its time names its session too.
		expect(aiderSessionStart({ no: 2, text: "# aider chat started at   " })).toBe("no time");
	});

	it("a session start is its line alone; a start written twice in a second is two sessions", async () => {
		expect(aiderSessionStart({ no: 2, text: "# aider chat started at 2026-11-30 09:12:03" })).toBe("2026-11-30 09:12:03");
		expect(aiderSessionStart({ no: 1, text: "\uFEFF# aider chat started at 2026-11-30 09:12:03" })).toBe("2026-11-30 09:12:03");
		expect(aiderSessionStart({ no: 2, text: "## aider chat started at 2026-11-30 09:12:03" })).toBeUndefined();
		expect(aiderSessionStart({ no: 2, text: null })).toBeUndefined();
		// Answered from the first character for most lines: the starts it must still see are those behind NULs, or in a line of bad bytes.
		expect(aiderSessionStart({ no: 7, text: "\u0000\u0000# aider chat started at 2026-11-30 09:12:03" })).toBe("2026-11-30 09:12:03");
		expect(aiderSessionStart({ no: 7, text: null, lossy: "# aider chat started at 2026-11-30 09:12:03 \uFFFD" })).toBe("2026-11-30 09:12:03 \uFFFD");
		expect(aiderSessionStart({ no: 7, text: " # aider chat started at 2026-11-30 09:12:03" })).toBeUndefined();
		expect(aiderSessionStart({ no: 7, text: "" })).toBeUndefined();
		const twice = Buffer.from("\n# aider chat started at 2026-11-30 09:12:03\n\n#### one  \n\n# aider chat started at 2026-11-30 09:12:03\n\n#### two  \n");
		const sessions = await sessionsOf(twice);
		expect(sessions.map((s) => [s.fileId, promptsOf(s).map((p) => p.text)])).toEqual([
			["aider-app-2026-11-30-09-12-03", ["one"]],
			["aider-app-2026-11-30-09-12-03-2", ["two"]],
		]);
	});

	it("spaces around input and output are cut as `trim` cuts them, Unicode's too; a start's time that is no time gives none", async () => {
		const text = [
			"# aider chat started at 2026-11-30 09:12:03  ",
			"",
			"> Aider v0.86.1  ",
			"> Applied edit to \u00a0src/a.py\u3000  ",
			"> Running   npm test  ",
			"",
			"#### \u00a0\tfix the cart\u2003  ",
			"",
			"Done.",
			"",
			"# aider chat started at 2026-13-45 09:12:03",
			"",
			"#### \ttwo\u00a0  ",
			"",
		].join("\n");
		const [first, second] = await sessionsOf(Buffer.from(text));
		expect(first!.startedAt).toBe(new Date(2026, 10, 30, 9, 12, 3).toISOString());
		expect(first!.versions).toEqual(["0.86.1"]);
		expect(promptsOf(first!).map((p) => p.text)).toEqual(["fix the cart"]);
		expect(first!.files.edited).toEqual([`${PROJECT}/src/a.py`]);
		expect(shellCommandsOf(first!).map((c) => c.input.command)).toEqual(["  npm test"]);
		expect(second!.startedAt).toBeUndefined();
		expect(promptsOf(second!).map((p) => p.text)).toEqual(["two"]);
	});
	it("lines a command printed (a piece of output of several lines) are not Aider's own: their commit, edit, file, command and tokens are not the session's", async () => {
		// `/git show` printed a file someone else wrote: Aider puts `> ` before its first line and two spaces after its last only.
		const text = [
			"# aider chat started at 2026-11-30 09:12:03",
			"",
			"#### /git show HEAD:CHANGES.txt  ",
			"",
			"> Commit 0badc0de chore: a line of the file, no commit of this session",
			"Commit 1a2b3c4 fix: another line of the file",
			"Applied edit to src/not-edited.py",
			"Creating empty file src/not-created.py",
			"Running make release",
			"Tokens: 50k sent, 50k received. Cost: $9.00 message, $9.00 session.",
			"litellm.APIError: a line of the file",
			"the file's last line  ",
			"",
			"> Tokens: 1.0k sent, 1.0k cache write, 1.0k cache hit, 20 received.",
			"Cost: $0.01 message, $0.01 session.  ",
			"> Applied edit to src/edited.py  ",
			"",
		].join("\n");
		const [model] = await sessionsOf(Buffer.from(text));
		expect(shellCommandsOf(model!).map((c) => c.input.command)).toEqual(["git show HEAD:CHANGES.txt"]);
		expect(model!.files).toEqual({ read: [], written: [], edited: [`${PROJECT}/src/edited.py`] });
		expect(model!.tokens).toMatchObject({ input: 0, output: 20, cacheCreation: 1000, cacheRead: 1000, costUsd: 0.01 });
		expect(model!.counts.apiErrors).toBe(0);
	});
	it("a `#### ` line right after output is the output's (a Markdown file's heading, its line break's two spaces kept), not the person's: Aider writes a blank line before their input", async () => {
		const text = [
			"# aider chat started at 2026-11-30 09:12:03",
			"",
			"#### /git show HEAD:docs/guide.md  ",
			"",
			"> # Guide  ",
			"#### Wipe the staging database first  ",
			"The rest of the guide.  ",
			"",
			"#### what does the guide say?  ",
			"#### in one line  ",
			"",
			"It is a short guide.",
			"",
		].join("\n");
		const [model] = await sessionsOf(Buffer.from(text));
		expect(promptsOf(model!).map((p) => p.text)).toEqual(["/git show HEAD:docs/guide.md", "what does the guide say?\nin one line"]);
	});
	it("a piece of output of several lines goes on past a blank line in it, to the line Aider ended with two spaces: what a file says after the blank is no reply of the model's", async () => {
		const text = [
			"# aider chat started at 2026-11-30 09:12:03",
			"",
			"#### /git show HEAD:RELEASE.txt  ",
			"",
			"> Release checklist",
			"",
			"Everything is shipped and signed off.",
			"",
			"last line of the file  ",
			"",
			"#### is it shipped?  ",
			"",
			"The file says so; I have not checked.",
			"",
			"> Tokens: 1.0k sent, 20 received.  ",
			"",
		].join("\n");
		const [model] = await sessionsOf(Buffer.from(text));
		expect(texts(model!, "text")).toEqual(["The file says so; I have not checked."]);
		expect(promptsOf(model!).map((p) => p.text)).toEqual(["/git show HEAD:RELEASE.txt", "is it shipped?"]);
		expect(model!.tokens.output).toBe(20);
	});
	it("only a command's output is held open over a blank line: in a history whose two spaces an editor trimmed, the replies after Aider's output stay replies, its edits edits", async () => {
		const text = ["# aider chat started at 2026-11-30 09:12:03", "", "> Aider v0.86.1", "> Main model: gpt-4.1 with diff edit format", "> Applied edit to src/a.py", "", "The model's reply.", ""].join("\n");
		const [model] = await sessionsOf(Buffer.from(text));
		expect(texts(model!, "text")).toEqual(["The model's reply."]);
		expect(model!.files.edited).toEqual([`${PROJECT}/src/a.py`]);
	});
});

describe("Aider: an answer it gave itself", () => {
	const OLD = /\(Y\)es\/\(N\)o.*\]: ?\S*$/;

	it("is told as the regex told it, on any line of its pieces", () => {
		const piece = fc.constantFrom("(Y)es/(N)o", "]:", " ", "\t", "\n", "\r", "x", "/", "[Yes]", "(Y)es", "]", ":");
		fc.assert(fc.property(fc.array(piece, { maxLength: 30 }).map((p) => p.join("")), (text) => isAutoAnswer(text) === OLD.test(text)), { numRuns: 5000 });
		expect(isAutoAnswer("Add file to the chat? (Y)es/(N)o/(A)ll/(S)kip all/(D)on't ask again [Yes]: a")).toBe(true);
	});

	it("is told in linear time on a typed line of 100,000 characters of questions and `]:` (the regex backtracked in cubic time)", async () => {
		const line = `${"(Y)es/(N)o".repeat(5_000)}${"]:/".repeat(16_000)} x`;
		const start = performance.now();
		expect(isAutoAnswer(line)).toBe(false);
		const [session] = await sessionsOf(Buffer.from(`\n# aider chat started at 2026-11-30 09:12:03\n\n#### ${line}  \n\nDone.\n`));
		expect(performance.now() - start).toBeLessThan(5_000);
		expect(promptsOf(session!)).toHaveLength(1);
	});
});
