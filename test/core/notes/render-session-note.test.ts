import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { noteBody, quoteLines, renderConversation, renderSessionNote } from "../../../src/core/notes/render-session-note";
import { mergeNote, newNoteParts } from "../../../src/core/notes/note-regions";
import { digestSession } from "../../../src/core/digest/session-digest";
import { printable } from "../../../src/core/text/printable";
import { parseTranscript } from "../../fixtures/parse-transcript";
import { assistant, jsonl, text, userText } from "../../fixtures/lines";

/** The rule, written the plain way: every line ending (CRLF, CR, LF) ends a line; an empty line quotes as `>`. */
const byLines = (text: string): string =>
	text
		.split(/\r\n|\r|\n/)
		.map((l) => (l === "" ? ">" : `> ${l}`))
		.join("\n");

describe("quoteLines", () => {
	it.each([
		["a\n\nb", "> a\n>\n> b"],
		["\r\na\r\rb\r\n", ">\n> a\n>\n> b\n>"],
		["x > \n> ", "> x > \n> > "],
		["a\r\n\nb", "> a\n>\n> b"],
	])("quotes every line, empty ones as `>`, whatever the line endings: %j", (text, quoted) => {
		expect(quoteLines(text)).toBe(quoted);
	});

	it("gives what splitting into lines gives, for any text of line endings, spaces and `>`", () => {
		const piece = fc.constantFrom("\r", "\n", "\r\n", " ", ">", "> ", "a", "\u2028", "");
		fc.assert(fc.property(fc.array(piece, { maxLength: 24 }).map((p) => p.join("")), (text) => {
			expect(quoteLines(text)).toBe(byLines(text));
		}), { numRuns: 5000 });
	});

	it("leaves no line of the text outside the quote", () => {
		fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), (text) => {
			for (const line of quoteLines(text).split(/\r\n|\r|\n/)) expect(line.startsWith(">")).toBe(true);
		}));
	});
});

describe("renderSessionNote with the conversation as bytes", () => {
	const env = { cwd: "/work/app", sessionId: "c0ffee00-1111-4222-8333-444455556666" };
	const model = parseTranscript(jsonl([userText("Traduis le README — et en 日本語 🎌", env), assistant(text("Voilà\u202e : README.fr.md \u001b[31mfait\u001b[0m."), { ...env, timestamp: "2026-11-20T10:00:09.000Z" })]), env.sessionId);
	const session = { file: { path: "/p/x.jsonl", fileId: env.sessionId, kind: "session" as const, projectDir: "-work-app", size: 1, mtimeMs: 0, ino: 0 }, model, subagents: [] };
	const input = (conversation?: string | Uint8Array) => ({ session, digest: digestSession(model), project: "app", tags: ["ai/x"], detail: "full" as const, index: { path: "AI Conversations/app/app.md", title: "app" }, conversation });

	it("gives the note the text would give: bytes kept apart, the body before them, a line break after", () => {
		const conversation = printable(renderConversation(session, "full"));
		const asText = renderSessionNote(input(conversation));
		const asBytes = renderSessionNote(input(new TextEncoder().encode(conversation)));
		expect(asBytes.conversation).toBeInstanceOf(Uint8Array);
		expect(asBytes.body.endsWith("## Conversation\n\n")).toBe(true);
		expect(asBytes.frontmatter).toBe(asText.frontmatter);
		expect(noteBody(asBytes)).toBe(asText.body);
		expect(asText.conversation).toBeUndefined();
		// Written whole as parts, the new note is the one `mergeNote` makes of the text.
		const parts = newNoteParts(asBytes.frontmatter, asBytes.body, asBytes.conversation!);
		const joined = parts.map((p) => (typeof p === "string" ? p : new TextDecoder().decode(p))).join("");
		expect(mergeNote(null, asText.frontmatter, asText.body)).toEqual({ ok: true, text: joined });
		expect(joined).toContain("日本語 🎌");
	});

	it("leaves an empty conversation out, as empty text is", () => {
		expect(renderSessionNote(input(new Uint8Array(0)))).toEqual(renderSessionNote(input("")));
	});

	it("makes only the note's text of the bytes: the digest detail has no conversation", () => {
		const digestOnly = renderSessionNote({ ...input(new TextEncoder().encode("x")), detail: "digest" });
		expect(digestOnly.conversation).toBeUndefined();
		expect(digestOnly.body).not.toContain("## Conversation");
	});
});
