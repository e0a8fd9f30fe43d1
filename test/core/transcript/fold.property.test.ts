import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldLines } from "../../../src/core/transcript/fold";
import { splitCompleteLines } from "../../../src/core/transcript/jsonl-lines";
import { parseLine } from "../../../src/core/transcript/parse-line";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { createSession, serializeSession, type SessionModel } from "../../../src/core/transcript/session-model";

const KNOWN_TYPES = ["user", "assistant", "system", "summary", "ai-title", "custom-title", "file-history-snapshot", "queue-operation", "progress", "attachment", "permission-mode", "last-prompt", "pr-link", "cost-state", "weird"];

/** Any JSON object whose `type` is a known one, with arbitrary (often wrong) field values. */
const hostileRecord = fc.record(
	{
		type: fc.constantFrom(...KNOWN_TYPES),
		uuid: fc.oneof(fc.constantFrom("u1", "u2", "u3"), fc.jsonValue()),
		message: fc.oneof(
			fc.jsonValue(),
			fc.record({ id: fc.jsonValue(), content: fc.oneof(fc.jsonValue(), fc.array(fc.record({ type: fc.constantFrom("text", "tool_use", "tool_result", "image", "thinking", "x"), text: fc.jsonValue(), id: fc.jsonValue(), tool_use_id: fc.jsonValue(), input: fc.jsonValue(), content: fc.jsonValue() }, { requiredKeys: ["type"] }))), usage: fc.jsonValue() }, { requiredKeys: [] }),
		),
		toolUseResult: fc.jsonValue(),
		data: fc.jsonValue(),
		attachment: fc.jsonValue(),
		snapshot: fc.jsonValue(),
		compactMetadata: fc.jsonValue(),
		isSidechain: fc.jsonValue(),
		parentUuid: fc.jsonValue(),
		cwd: fc.jsonValue(),
		subtype: fc.jsonValue(),
		error: fc.jsonValue(),
	},
	{ requiredKeys: ["type"] },
);

const ids = fc.constantFrom("toolu_1", "toolu_2", "toolu_3");
const unicodeText = fc.oneof(fc.string(), fc.constantFrom("한국어 프롬프트", "前回の続き", "之前的工作", "emoji 🎉 ok", "line\u2028sep", "<command-name>/init</command-name>", "[Request interrupted by user]"));
const ts = fc.integer({ min: 0, max: 86_399 }).map((s) => new Date(Date.UTC(2026, 10, 20) + s * 1000).toISOString());

/** Realistic lines (valid records of every kind) mixed with broken ones. */
const line = fc.oneof(
	fc.record({ t: unicodeText, u: fc.constantFrom("a", "b", "c", "d", "e", "f"), ts, side: fc.boolean() }).map(({ t, u, ts: time, side }) => JSON.stringify({ type: "user", uuid: u, timestamp: time, isSidechain: side, parentUuid: null, cwd: "/p", message: { role: "user", content: t } })),
	fc.record({ t: unicodeText, id: fc.constantFrom("m1", "m2"), out: fc.nat(50), u: fc.uuid() }).map(({ t, id, out, u }) => JSON.stringify({ type: "assistant", uuid: u, message: { id, model: "claude-x", content: [{ type: "text", text: t }], usage: { input_tokens: 1, output_tokens: out } } })),
	fc.record({ id: ids, name: fc.constantFrom("Read", "Write", "Edit", "Bash", "Task"), path: fc.constantFrom("/p/a.ts", "/p/b.md"), u: fc.uuid() }).map(({ id, name, path, u }) => JSON.stringify({ type: "assistant", uuid: u, message: { id: "m3", content: [{ type: "tool_use", id, name, input: { file_path: path, command: "ls", prompt: "do" } }] } })),
	fc.record({ id: ids, err: fc.boolean(), u: fc.uuid(), agent: fc.option(fc.constantFrom("a1", "a2")) }).map(({ id, err, u, agent }) => JSON.stringify({ type: "user", uuid: u, message: { content: [{ type: "tool_result", tool_use_id: id, content: "out", is_error: err }] }, toolUseResult: agent ? { agentId: agent } : "ok" })),
	fc.constant(JSON.stringify({ type: "system", subtype: "compact_boundary", uuid: "cb", compactMetadata: { trigger: "auto", preTokens: 5 } })),
	fc.constant(JSON.stringify({ type: "user", isCompactSummary: true, uuid: "cs", message: { content: "summary" } })),
	fc.constant(JSON.stringify({ type: "summary", summary: "title", leafUuid: "a" })),
	hostileRecord.map((r) => JSON.stringify(r)),
	fc.constantFrom("{broken", '{"a":1}{"b":2}', "", "   ", "\u0000\u0000", "[]", "null"),
	fc.string(),
);

const transcriptOf = (maxLength: number) => fc.array(line, { maxLength }).map((lines) => new TextEncoder().encode(lines.map((l) => l.replace(/\n/g, " ")).join("\n") + "\n"));
const transcript = transcriptOf(25);

/** Folds bytes delivered in pieces, as the tail reader does: an unterminated rest waits for the next piece. */
function foldInPieces(bytes: Uint8Array, cuts: number[]): SessionModel {
	const model = createSession("s");
	let carry = new Uint8Array(0);
	let lineNo = 1;
	let from = 0;
	for (const cut of [...cuts, bytes.length]) {
		const piece = bytes.subarray(from, cut);
		from = cut;
		const buffer = new Uint8Array(carry.length + piece.length);
		buffer.set(carry);
		buffer.set(piece, carry.length);
		const split = splitCompleteLines(buffer, lineNo);
		foldLines(model, split.lines);
		lineNo += split.lines.length;
		carry = buffer.slice(split.consumed);
	}
	return model;
}

describe("properties of the parser and the fold", () => {
	it("parseLine never throws, on any string or any JSON", () => {
		fc.assert(fc.property(fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)), hostileRecord.map((r) => JSON.stringify(r))), (text) => {
			const r = parseLine(text);
			expect(typeof r.ok).toBe("boolean");
		}), { numRuns: 2000 });
	});

	it("folding never throws and counts every non-blank line", () => {
		fc.assert(fc.property(transcript, (bytes) => {
			const model = parseTranscript(bytes, "s");
			const nonBlank = new TextDecoder().decode(bytes).split("\n").filter((l) => l.trim() !== "").length;
			expect(model.counts.lines).toBe(nonBlank);
			// A line of several objects back to back gives a record each.
			expect(model.counts.records + model.counts.malformed + model.counts.duplicates).toBeGreaterThanOrEqual(nonBlank);
			expect(model.counts.malformed).toBeLessThanOrEqual(nonBlank);
		}), { numRuns: 500 });
	});

	it("incremental folding equals whole-file folding at every split point", { timeout: 60_000 }, () => {
		fc.assert(fc.property(transcriptOf(8), (bytes) => {
			const whole = JSON.stringify(serializeSession(foldInPieces(bytes, [])));
			for (let cut = 0; cut <= bytes.length; cut++) {
				const pieces = JSON.stringify(serializeSession(foldInPieces(bytes, [cut])));
				if (pieces !== whole) expect(pieces).toBe(whole);
			}
		}), { numRuns: 40 });
	});

	it("incremental folding equals whole-file folding for any number of pieces", () => {
		fc.assert(fc.property(transcript.chain((bytes) => fc.tuple(fc.constant(bytes), fc.uniqueArray(fc.nat(bytes.length), { maxLength: 12 }).map((c) => c.sort((a, b) => a - b)))), ([bytes, cuts]) => {
			expect(serializeSession(foldInPieces(bytes, cuts))).toEqual(serializeSession(foldInPieces(bytes, [])));
		}), { numRuns: 500 });
	});
});
