import { beforeEach, describe, expect, it } from "vitest";
import { foldLine } from "../../../src/core/transcript/fold";
import { restoreSession, serializeSession } from "../../../src/core/transcript/session-model";
import { promptsOf } from "../../../src/core/transcript/session-queries";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, text, userText } from "../../fixtures/lines";

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
