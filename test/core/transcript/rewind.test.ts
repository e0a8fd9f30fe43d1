import { beforeEach, describe, expect, it } from "vitest";
import { foldLine } from "../../../src/core/transcript/fold";
import { restoreSession, serializeSession } from "../../../src/core/transcript/session-model";
import { promptsOf } from "../../../src/core/transcript/session-queries";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, system, text, toolResult, toolUse, userText } from "../../fixtures/lines";

/** A fold in one pass takes a few seconds on a busy machine; one that looks back at every line would take minutes. */
const ONE_PASS_MS = 30_000;

const parse = (records: unknown[]) => parseTranscript(jsonl(records), SESSION);
const u = (uuid: string, parentUuid: string | null, prompt: string) => userText(prompt, { uuid, parentUuid });
const a = (uuid: string, parentUuid: string, reply: string) => assistant(text(reply), { uuid, parentUuid, messageId: `m-${uuid}` });

beforeEach(() => resetIds());

// The shape of an edited prompt in a real transcript: the new prompt's parent is the edited one's.
const before = [u("u1", null, "sketch the parser"), a("a1", "u1", "A sketch."), u("u2", "a1", "use a regex"), a("a2", "u2", "Regexes."), u("u3", "a2", "add a cache"), a("a3", "u3", "Cached.")];
const edited = [u("u4", "a1", "write a tokenizer instead"), a("a4", "u4", "A tokenizer.")];

describe("a rewind (an earlier prompt edited)", () => {
	it("follows the branch kept and keeps the left prompts in one rewound event", () => {
		const m = parse([...before, ...edited]);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["sketch the parser", "write a tokenizer instead"]);
		expect(m.events.map((e) => e.kind)).toEqual(["prompt", "text", "rewound", "prompt", "text"]);
		expect(m.events[2]).toMatchObject({ kind: "rewound", prompts: ["use a regex", "add a cache"] });
		expect(m.counts.prompts).toBe(2);
	});

	it("does the same when the model was stored between the left branch and the new prompt", () => {
		const first = parse(before);
		const restored = restoreSession(structuredClone(serializeSession(first)));
		edited.forEach((line, i) => foldLine(restored, { no: before.length + i + 1, text: JSON.stringify(line) }));
		expect(restored.events).toEqual(parse([...before, ...edited]).events);
	});

	it("keeps the prompts of an earlier rewind that a later one leaves", () => {
		const m = parse([...before, ...edited, u("u5", "a1", "no, a hand-written lexer")]);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["sketch the parser", "no, a hand-written lexer"]);
		expect(m.events[2]).toMatchObject({ kind: "rewound", prompts: ["use a regex", "add a cache", "write a tokenizer instead"] });
	});

	it("leaves a session alone whose next prompt follows a record written out of order", () => {
		// Claude Code wrote a turn's `turn_duration` before the reply it follows (shared corpus).
		const m = parse([u("u1", null, "first"), system("turn_duration", { uuid: "s1", parentUuid: "a1" }), a("a1", "u1", "One."), u("u2", "s1", "second")]);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["first", "second"]);
		expect(m.events.some((e) => e.kind === "rewound")).toBe(false);
	});

	it("leaves a prompt alone that shares its parent with a slash command the client ran itself", () => {
		// `/status` and `/doctor` are written with a parent but are no link of the chain (shared corpus).
		const m = parse([u("u1", null, "first"), a("a1", "u1", "One."), u("c1", "a1", "<command-name>/status</command-name>\n<command-message>status</command-message>\n<command-args></command-args>"), u("u2", "a1", "second")]);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["first", "/status", "second"]);
	});

	it("reads 100,000 prompts that each name another parent in one pass (a scan per prompt never ended)", () => {
		const lines = Array.from({ length: 100_000 }, (_, i) => u(`u${i}`, `elsewhere-${i}`, `prompt ${i}`));
		const m = parse(lines);
		expect(m.counts.prompts).toBe(100_000);
		expect(m.events.some((e) => e.kind === "rewound")).toBe(false);
	}, ONE_PASS_MS);

	it("reads many rewinds the same whole or stored at any line between", () => {
		// Prompts whose parents come back: each one that names the parent of an earlier kept prompt is a rewind.
		const lines: unknown[] = [];
		let seed = 7;
		const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		for (let i = 0; i < 120; i++) {
			const parent = i === 0 ? null : next() < 0.3 ? `a${Math.floor(next() * i)}` : `a${i - 1}`;
			lines.push(u(`u${i}`, parent, `prompt ${i}`), a(`a${i}`, `u${i}`, `reply ${i}`));
		}
		const whole = parse(lines);
		expect(whole.events.filter((e) => e.kind === "rewound").length).toBeGreaterThan(2);
		for (const cut of [1, 17, 60, 133, 200, 239]) {
			const first = parse(lines.slice(0, cut));
			const restored = restoreSession(structuredClone(serializeSession(first)));
			lines.slice(cut).forEach((line, i) => foldLine(restored, { no: cut + i + 1, text: JSON.stringify(line) }));
			expect(restored.events, `stored after line ${cut}`).toEqual(whole.events);
		}
	});

	it("reads 100,000 prompts rewound at one point in one pass, each kept once in one list", () => {
		const lines = [u("u0", null, "first"), a("a0", "u0", "One."), ...Array.from({ length: 100_000 }, (_, i) => u(`r${i}`, "a0", `try ${i}`))];
		const m = parse(lines);
		expect(m.events.map((e) => e.kind)).toEqual(["prompt", "text", "rewound", "prompt"]);
		const rewound = m.events[2]!;
		expect(rewound.kind === "rewound" && rewound.prompts.length).toBe(99_999);
		expect(rewound.kind === "rewound" && rewound.prompts.slice(0, 2)).toEqual(["try 0", "try 1"]);
		expect(m.counts.prompts).toBe(2);
	}, ONE_PASS_MS);
});

describe("a compaction's replay (earlier turns written again with new uuids)", () => {
	const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, "0")}:00.000Z`;
	const ut = (uuid: string, parentUuid: string | null, prompt: string, minute: number) => userText(prompt, { uuid, parentUuid, timestamp: at(minute) });
	const at2 = (uuid: string, parentUuid: string, reply: string, minute: number, messageId = `m-${uuid}`) =>
		assistant(text(reply), { uuid, parentUuid, messageId, timestamp: at(minute), usage: { input_tokens: 100, output_tokens: 10 } });
	const calls = (uuid: string, parentUuid: string, minute: number) =>
		assistant(toolUse("t1", "Bash", { command: "npm test" }), { uuid, parentUuid, messageId: "m-tool", timestamp: at(minute), usage: { input_tokens: 100, output_tokens: 10 } });
	const result = (uuid: string, parentUuid: string, minute: number) => toolResult("t1", "1 failed", { uuid, parentUuid, timestamp: at(minute), isError: true });

	// Two turns (the second runs a tool), then the compaction: its boundary, its summary.
	const turns = [
		ut("u1", null, "parse the config file", 1),
		at2("a1", "u1", "Parsed.", 2),
		ut("u2", "a1", "run the tests", 3),
		calls("a2", "u2", 4),
		result("r2", "a2", 5),
		at2("a3", "r2", "One test fails.", 6),
	];
	const compaction = [
		system("compact_boundary", { compactMetadata: { trigger: "auto", preTokens: 150000 }, logicalParentUuid: "a3" }, { uuid: "b1", parentUuid: null, timestamp: at(7) }),
		userText("This session is being continued from a previous conversation.", { uuid: "s1", parentUuid: "b1", timestamp: at(7), isCompactSummary: true }),
	];
	// Each copy keeps its original's parent, time and content; only its uuid is new.
	const replay = turns.map((line) => ({ ...line, uuid: `copy-${String(line.uuid)}` }));
	const next = [ut("u3", "s1", "fix the failing test", 8), at2("a4", "u3", "Fixed.", 9)];
	const lines = [...turns, ...compaction, ...replay, ...next];

	it("counts the replayed turns once and tells no rewind", () => {
		const m = parse(lines);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["parse the config file", "run the tests", "fix the failing test"]);
		expect(m.events.map((e) => e.kind)).toEqual(["prompt", "text", "prompt", "tool", "text", "compaction", "prompt", "text"]);
		expect(m.counts).toMatchObject({ prompts: 3, toolCalls: 1, toolErrors: 1, assistantMessages: 4 });
		expect(m.tokens.input).toBe(400);
		expect(m.index.replaying).toBeUndefined();
	});

	it("reads the same when the model was stored before the compaction, or in the middle of the replay", () => {
		const whole = parse(lines);
		for (const cut of [turns.length, turns.length + compaction.length + 1, turns.length + compaction.length + 4]) {
			const first = parse(lines.slice(0, cut));
			const restored = restoreSession(structuredClone(serializeSession(first)));
			lines.slice(cut).forEach((line, i) => foldLine(restored, { no: cut + i + 1, text: JSON.stringify(line) }));
			expect(restored.events, `stored after line ${cut}`).toEqual(whole.events);
			expect(restored.counts, `stored after line ${cut}`).toEqual(whole.counts);
		}
	});

	it("stores a model read past the replay as before the mark was kept, and reads on from one", () => {
		const stored = serializeSession(parse(lines.slice(0, -1)));
		expect("replaying" in stored).toBe(false);
		const restored = restoreSession(structuredClone(stored));
		foldLine(restored, { no: lines.length, text: JSON.stringify(lines.at(-1)) });
		expect(restored.events).toEqual(parse(lines).events);
	});

	it("still takes the same prompt sent again later for a rewind", () => {
		// Esc Esc, then the same words typed again: a new time, so the turn after it is left.
		const m = parse([...turns, ut("u4", "a1", "run the tests", 10), at2("a5", "u4", "All pass now.", 11)]);
		expect(m.events.map((e) => e.kind)).toEqual(["prompt", "text", "rewound", "prompt", "text"]);
		expect(m.events[2]).toMatchObject({ kind: "rewound", prompts: ["run the tests"] });
		expect(m.counts.prompts).toBe(2);
	});

	it("still takes another prompt at the same time for a rewind", () => {
		const m = parse([...turns, ut("u4", "a1", "run the linter", 3)]);
		expect(m.events.map((e) => e.kind)).toEqual(["prompt", "text", "rewound", "prompt"]);
	});

	it("leaves the turn a rewind right after the replay goes back past, when it names the copy of the reply it goes back to", () => {
		// Esc Esc to just after the first turn: the client holds the copies, so the new prompt hangs under copy-a1.
		const redo = [ut("u5", "copy-a1", "skip the tests, document the config", 10), at2("a6", "u5", "Documented.", 11)];
		const m = parse([...turns, ...compaction, ...replay, ...redo]);
		expect(promptsOf(m).map((p) => p.text)).toEqual(["parse the config file", "skip the tests, document the config"]);
		expect(m.events.map((e) => e.kind)).toEqual(["prompt", "text", "rewound", "prompt", "text"]);
		expect(m.events[2]).toMatchObject({ kind: "rewound", prompts: ["run the tests"] });
		// Stored in the middle of the replay, the same; and a second rewind to the copy finds the first's prompt.
		const cut = turns.length + compaction.length + 3;
		const all = [...turns, ...compaction, ...replay, ...redo, ut("u6", "copy-a1", "document it in the README", 12)];
		const restored = restoreSession(structuredClone(serializeSession(parse(all.slice(0, cut)))));
		all.slice(cut).forEach((line, i) => foldLine(restored, { no: cut + i + 1, text: JSON.stringify(line) }));
		expect(promptsOf(restored).map((p) => p.text)).toEqual(["parse the config file", "document it in the README"]);
		expect(restored.counts.prompts).toBe(2);
	});

	it("ends the replay at a reply of its own: a new message after copied prompt is kept", () => {
		const m = parse([...turns.slice(0, 2), ...compaction, ...replay.slice(0, 1), at2("a9", "copy-u1", "Parsed again, differently.", 8)]);
		expect(m.events.map((e) => e.kind)).toEqual(["prompt", "text", "compaction", "text"]);
		expect(m.index.replaying).toBeUndefined();
	});
});
