import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldFor, sessionFor } from "../../src/core/transcript/fold-for";
import { splitCompleteLines, type RawLine, type Utf8Decoder } from "../../src/core/transcript/jsonl-lines";
import type { TranscriptFile } from "../../src/core/transcript/transcript-files";
import { serializeSession } from "../../src/core/transcript/session-model";
import { bulkSkippingDecoder } from "../../src/node/bulk-fields";
import { readWholeBytes } from "../../src/node/transcript-tail";

/** The lines a read hands out are lent for the call: copied to be kept. */
const copies = (batch: readonly RawLine[]): RawLine[] => batch.map((l) => ({ ...l }));

const plain = (buffer: Buffer) => (_b: Uint8Array, start: number, stop: number) => buffer.toString("utf8", start, stop);
const checked = (buffer: Buffer) => (_b: Uint8Array, start: number, stop: number) => {
	const part = buffer.subarray(start, stop);
	return part.toString("utf8") === new TextDecoder("utf-8", { fatal: false }).decode(part) && !part.toString("utf8").includes("\ufffd") ? part.toString("utf8") : null;
};

/** Each line of `text` as the decoder gives it. */
function decoded(text: string | Buffer, decodePart: (buffer: Buffer) => Utf8Decoder = plain): (string | null)[] {
	const buffer = typeof text === "string" ? Buffer.from(text) : text;
	return splitCompleteLines(buffer, 1, bulkSkippingDecoder(buffer, decodePart(buffer))).lines.map((l) => l.text);
}

/** A decoded line, parsed, as these tests read it. */
interface Parsed {
	toolUseResult?: unknown;
	timestamp?: string;
	note?: string;
	message: { content: { content: { source: { data: string } }[] }[] };
}
const parse = (text: string | null | undefined) => JSON.parse(text!) as Parsed;

const big = "x".repeat(2000);
const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const toolResultLine = (toolUseResult: unknown) => line({ type: "user", uuid: "u1", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] }, toolUseResult, timestamp: "2026-12-01T10:00:00Z" });

describe("bulkSkippingDecoder", () => {
	it("cuts a large toolUseResult object to {} and keeps the rest of the line as it was", () => {
		const [text] = decoded(toolResultLine({ type: "text", file: { filePath: "/a", content: big } }));
		const parsed = parse(text);
		expect(parsed.toolUseResult).toEqual({});
		expect(parsed.message.content[0]).toEqual({ type: "tool_result", tool_use_id: "t1", content: "ok" });
		expect(parsed.timestamp).toBe("2026-12-01T10:00:00Z");
	});

	it("keeps what the fold reads: an object with an agentId, a string that starts with Error", () => {
		const agent = { agentId: "a1", content: [{ type: "text", text: big }] };
		expect(parse(decoded(toolResultLine(agent))[0]).toolUseResult).toEqual(agent);
		expect(parse(decoded(toolResultLine(`Error: ${big}`))[0]).toolUseResult).toBe(`Error: ${big}`);
	});

	it("cuts another large string to an empty one and an array to an empty one", () => {
		expect(parse(decoded(toolResultLine(big))[0]).toolUseResult).toBe("");
		expect(parse(decoded(toolResultLine([{ type: "text", text: big }]))[0]).toolUseResult).toEqual([]);
	});

	it("leaves small values, nested copies and text that only quotes the key as they are", () => {
		const small = toolResultLine({ stdout: "hi" });
		expect(decoded(small)[0]).toBe(small.trimEnd());
		// A progress record carries a whole message, its toolUseResult one level down.
		const nested = line({ type: "progress", data: { message: { type: "user", toolUseResult: { stdout: big } } } });
		expect(decoded(nested)[0]).toBe(nested.trimEnd());
		const quoted = line({ type: "assistant", message: { content: [{ type: "text", text: `see "toolUseResult": {${big}}` }] } });
		expect(decoded(quoted)[0]).toBe(quoted.trimEnd());
	});

	it("finds the line's own key after strings that end in escaped quotes and backslashes", () => {
		const text = toolResultLine({ stdout: big }).replace('"uuid":"u1"', '"uuid":"u\\\\","note":"a\\"b\\\\\\"{["');
		const parsed = parse(decoded(text)[0]);
		expect(parsed.toolUseResult).toEqual({});
		expect(parsed.note).toBe('a"b\\"{[');
	});

	it("empties base64 image data, in a prompt and inside a tool result, and keeps the image block", () => {
		const image = { type: "image", source: { type: "base64", media_type: "image/png", data: "A".repeat(5000) } };
		const prompt = line({ type: "user", message: { role: "user", content: [image, { type: "text", text: "look" }] } });
		expect(parse(decoded(prompt)[0]).message.content).toEqual([{ ...image, source: { ...image.source, data: "" } }, { type: "text", text: "look" }]);
		const result = line({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t", content: [image] }] } });
		expect(parse(decoded(result)[0]).message.content[0]?.content[0]?.source.data).toBe("");
	});

	it("cuts in every line of a buffer, and decodes a line whose value does not close whole", () => {
		const two = toolResultLine({ a: big }) + toolResultLine({ b: big });
		expect(decoded(two).map((t) => parse(t).toolUseResult)).toEqual([{}, {}]);
		const open = `{"type":"user","toolUseResult":{"a":"${big}\n`;
		expect(decoded(open)[0]).toBe(open.trimEnd());
	});

	it("reads a line whose only invalid bytes were in what is cut, and not one with invalid bytes elsewhere", () => {
		const bad = Buffer.concat([Buffer.from(`{"type":"user","toolUseResult":{"a":"${big}`), Buffer.from([0xff, 0xfe]), Buffer.from('"},"uuid":"u"}\n')]);
		expect(parse(decoded(bad, checked)[0])).toEqual({ type: "user", toolUseResult: {}, uuid: "u" });
		const elsewhere = Buffer.concat([Buffer.from('{"type":"user","uuid":"'), Buffer.from([0xff]), Buffer.from(`","toolUseResult":{"a":"${big}"}}\n`)]);
		expect(decoded(elsewhere, checked)[0]).toBeNull();
	});
});

/** The real transcripts in ../shared (never copied into this repo). */
const CORPORA = ["claude-transcripts", "claude-transcripts-2"].map((c) => join(__dirname, "..", "..", "..", "shared", "corpus", c)).filter((c) => existsSync(c));

describe.skipIf(CORPORA.length === 0)("bulkSkippingDecoder on the real transcripts", () => {
	it("every Claude Code transcript folds into the same model with the bulk cut as without it", () => {
		const files = CORPORA.flatMap((root) => (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".jsonl")).map((f) => join(root, f)));
		expect(files.length).toBeGreaterThan(50);
		let cut = 0;
		for (const path of files) {
			const bytes = readFileSync(path);
			const file: TranscriptFile = { path, projectDir: "p", fileId: "s", kind: "session", size: bytes.length, mtimeMs: 0, ino: 1 };
			const fold = (skipBulk: boolean) => {
				const model = sessionFor(file, false);
				const lines: RawLine[] = [];
				readWholeBytes(bytes, 1, (batch) => lines.push(...copies(batch)), true, 0, false, skipBulk);
				foldFor(file)(model, lines);
				cut += skipBulk ? lines.reduce((n, l) => n + (l.text?.length ?? 0), 0) : -lines.reduce((n, l) => n + (l.text?.length ?? 0), 0);
				return JSON.stringify(serializeSession(model));
			};
			// Compared whole, reported by file (a diff of two models is pages long).
			expect(fold(true) === fold(false), `${path}: another model with the bulk cut`).toBe(true);
		}
		// The cut is real: the corpora hold files read whole, edited files and screenshots.
		expect(-cut).toBeGreaterThan(1_000_000);
	});
});
