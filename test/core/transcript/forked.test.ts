import { beforeEach, describe, expect, it } from "vitest";
import { foldLine } from "../../../src/core/transcript/fold";
import { restoreSession, serializeSession } from "../../../src/core/transcript/session-model";
import { promptsOf } from "../../../src/core/transcript/session-queries";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, system, text, userText } from "../../fixtures/lines";

/** A fold in one pass takes a few seconds on a busy machine; one that looks back at every line would take minutes. */
const ONE_PASS_MS = 30_000;

const PARENT = "74a716ad-2fbf-4b8c-86cc-a8218d60b876";
const parse = (records: unknown[]) => parseTranscript(jsonl(records), SESSION);
const u = (uuid: string, parentUuid: string | null, prompt: string) => userText(prompt, { uuid, parentUuid });
// Claude Code 2.1.332's fork (`--resume A --fork-session`): each copied reply names A.
const copied = (uuid: string, parentUuid: string, reply: string) => assistant(text(reply), { uuid, parentUuid, messageId: `m-${uuid}`, requestSessionId: PARENT });
const own = (uuid: string, parentUuid: string, reply: string) => assistant(text(reply), { uuid, parentUuid, messageId: `m-${uuid}` });

beforeEach(() => resetIds());

const copies = [u("u1", null, "first"), copied("a1", "u1", "One."), u("u2", "a1", "second"), copied("a2", "u2", "Two.")];
const fork = [u("u3", "a2", "the fork's own"), own("a3", "u3", "Three.")];

describe("a forked session's copy of its parent's history", () => {
	it("gives way to one forked event: the fork's prompts, counts and tokens are its own", () => {
		const m = parse([...copies, ...fork]);
		expect(m.events.map((e) => e.kind)).toEqual(["forked", "prompt", "text"]);
		expect(m.events[0]).toMatchObject({ kind: "forked", from: PARENT, prompts: 2 });
		expect(promptsOf(m).map((p) => p.text)).toEqual(["the fork's own"]);
		expect(m.counts.prompts).toBe(1);
		expect(m.tokens).toMatchObject({ input: 10, output: 5 });
	});

	it("does the same when the model was stored between the copy and the fork's own prompt", () => {
		const restored = restoreSession(structuredClone(serializeSession(parse(copies))));
		fork.forEach((line, i) => foldLine(restored, { no: copies.length + i + 1, text: JSON.stringify(line) }));
		expect(restored.events).toEqual(parse([...copies, ...fork]).events);
	});

	it("reads the client's other fork mark (`forkedFrom`) alike", () => {
		const m = parse([u("u1", null, "first"), assistant(text("One."), { uuid: "a1", parentUuid: "u1", forkedFrom: { sessionId: PARENT, messageUuid: "a1" } }), ...fork]);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["the fork's own"]);
	});

	it("keeps 100 characters of a session id a line makes long", () => {
		const m = parse([u("u1", null, "first"), assistant(text("One."), { uuid: "a1", parentUuid: "u1", requestSessionId: "x".repeat(10_000) }), ...fork]);
		const mark = m.events[0];
		expect(mark?.kind === "forked" && mark.from?.length).toBe(101);
	});

	it("keeps a reply naming another session after the session's own replies, and one naming itself", () => {
		const m = parse([...fork, u("u4", "a3", "more"), copied("a4", "u4", "Four."), u("u5", "a4", "last"), assistant(text("Five."), { uuid: "a5", parentUuid: "u5", requestSessionId: SESSION })]);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["the fork's own", "more", "last"]);
		expect(m.events.some((e) => e.kind === "forked")).toBe(false);
	});

	it("reads 25,000 prompts, a reply, then 100,000 lines naming another session in one pass (a look per line never ended)", () => {
		const prompts = Array.from({ length: 25_000 }, (_, i) => u(`p${i}`, i === 0 ? null : `p${i - 1}`, `prompt ${i}`));
		const named = Array.from({ length: 100_000 }, (_, i) => copied(`c${i}`, i === 0 ? "a0" : `c${i - 1}`, "Copied?"));
		const m = parse([...prompts, own("a0", "p24999", "Mine."), ...named]);
		expect(m.events[0]).toMatchObject({ kind: "prompt", text: "prompt 0" });
		expect(m.counts.prompts).toBe(25_000);
	}, ONE_PASS_MS);
});

describe("a fork that compacts: the compaction writes the copied turns again with new uuids", () => {
	const day = (d: number, minute: number) => `2026-10-0${d}T09:${String(minute).padStart(2, "0")}:00.000Z`;
	// The other session's two turns, copied on day 1; the fork's own turn on day 4, then its compaction.
	const history = [
		userText("sketch the importer", { uuid: "h1", parentUuid: null, timestamp: day(1, 0) }),
		assistant(text("Importer sketched."), { uuid: "h2", parentUuid: "h1", timestamp: day(1, 1), messageId: "m-h2", requestSessionId: PARENT, usage: { input_tokens: 70, output_tokens: 7 } }),
		userText("add a dry-run flag", { uuid: "h3", parentUuid: "h2", timestamp: day(1, 2) }),
		assistant(text("Flag added."), { uuid: "h4", parentUuid: "h3", timestamp: day(1, 3), messageId: "m-h4", requestSessionId: PARENT, usage: { input_tokens: 70, output_tokens: 7 } }),
	];
	const mine = [
		userText("log what the dry run skips", { uuid: "f1", parentUuid: "h4", timestamp: day(4, 0) }),
		assistant(text("Logged."), { uuid: "f2", parentUuid: "f1", timestamp: day(4, 1), messageId: "m-f2", usage: { input_tokens: 30, output_tokens: 3 } }),
	];
	const compaction = [
		system("compact_boundary", { compactMetadata: { trigger: "manual", preTokens: 4000 }, logicalParentUuid: "f2" }, { uuid: "k1", parentUuid: null, timestamp: day(4, 5) }),
		userText("This session is being continued from a previous conversation.", { uuid: "k2", parentUuid: "k1", timestamp: day(4, 5), isCompactSummary: true }),
	];
	// The copies keep each line's parent, time and content, the fork's marks too; only the uuid is new.
	const replay = [...history, ...mine].map((line) => ({ ...line, uuid: `again-${String(line.uuid)}` }));
	const after = [
		userText("now write the changelog", { uuid: "n1", parentUuid: "k2", timestamp: day(4, 9) }),
		assistant(text("Written."), { uuid: "n2", parentUuid: "n1", timestamp: day(4, 9), messageId: "m-n2", usage: { input_tokens: 40, output_tokens: 4 } }),
	];
	const lines = [...history, ...mine, ...compaction, ...replay, ...after];

	it("tells the other session's turns neither as the fork's prompts nor its tokens", () => {
		const m = parse(lines);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["log what the dry run skips", "now write the changelog"]);
		expect(m.events.map((e) => e.kind)).toEqual(["forked", "prompt", "text", "compaction", "prompt", "text"]);
		expect(m.counts.prompts).toBe(2);
		expect(m.tokens).toMatchObject({ input: 70, output: 7 });
	});

	it("reads the same when the model was stored in the middle of the replay", () => {
		const whole = parse(lines);
		const cut = history.length + mine.length + compaction.length + 3;
		const restored = restoreSession(structuredClone(serializeSession(parse(lines.slice(0, cut)))));
		lines.slice(cut).forEach((line, i) => foldLine(restored, { no: cut + i + 1, text: JSON.stringify(line) }));
		expect(restored.events).toEqual(whole.events);
		expect(restored.counts).toEqual(whole.counts);
	});
});
