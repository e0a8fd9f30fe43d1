import { beforeEach, describe, expect, it } from "vitest";
import { foldLine } from "../../../src/core/transcript/fold";
import { restoreSession, serializeSession } from "../../../src/core/transcript/session-model";
import { promptsOf } from "../../../src/core/transcript/session-queries";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, resetIds, SESSION, system, text, userText } from "../../fixtures/lines";

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
