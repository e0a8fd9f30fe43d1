import { describe, expect, it } from "vitest";
import type { StoredDigest } from "../../../src/core/digest/session-digest";
import { conversationDoc } from "../../../src/core/search/conversation-doc";
import type { SessionEvent } from "../../../src/core/transcript/session-model";

const digest = { title: "Sketch the parser", asked: ["Sketch the parser"], tasks: [], done: [], open: [], decisions: [], filesTouched: [] } as unknown as StoredDigest;

describe("conversationDoc", () => {
	it("finds what the person typed on a branch a rewind left, with the turn it is shown after", () => {
		const events: SessionEvent[] = [
			{ kind: "prompt", promptKind: "prompt", text: "Sketch the parser", images: 0 },
			{ kind: "text", text: "A sketch." },
			{ kind: "rewound", prompts: ["use a regex for the tokenizer", "add a cache"] },
			{ kind: "prompt", promptKind: "prompt", text: "Write a hand-written lexer instead", images: 0 },
			{ kind: "text", text: "A lexer." },
		];
		const doc = conversationDoc("s", digest, [], events);
		expect(doc.turns.map((t) => t.turn)).toEqual([0, 1, 2]);
		expect(doc.turns[1]!.text).toBe("Sketch the parser\n\nA sketch.\n\nuse a regex for the tokenizer\n\nadd a cache");
		expect(doc.turns[2]!.text).toBe("Write a hand-written lexer instead\n\nA lexer.");
	});
});
