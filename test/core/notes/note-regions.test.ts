import { describe, expect, it } from "vitest";
import { generatedProperty, holdsOnlyGenerated, mergeNote, NOTE_MARKERS, SESSION_NOTE_KEYS, tagsInNote } from "../../../src/core/notes/note-regions";

const B = NOTE_MARKERS.begin;
const E = NOTE_MARKERS.end;
const fm = (tags: string) => `---\nsession_id: s1\ntags:\n${tags}---\n`;

function merged(existing: string | null, body = "new body\n"): string {
	const r = mergeNote(existing, fm("  - ai/x\n"), body);
	if (!r.ok) throw new Error(r.reason);
	return r.text;
}

describe("mergeNote", () => {
	it("writes a new note as properties, then the generated region", () => {
		expect(merged(null)).toBe(`${fm("  - ai/x\n")}${B}\nnew body\n${E}\n`);
	});

	it("replaces our properties and region, keeping the user's text and properties byte for byte", () => {
		const existing = `---\nsession_id: old\nrating: 5\nnote: "mine: yes"\ntags:\n  - ai/old\n---\nIntro I wrote.  \n${B}\nold body\n${E}\n\n## My notes\n\n- keep *this*\n`;
		expect(merged(existing)).toBe(`---\nsession_id: s1\ntags:\n  - ai/x\nrating: 5\nnote: "mine: yes"\n---\nIntro I wrote.  \n${B}\nnew body\n${E}\n\n## My notes\n\n- keep *this*\n`);
	});

	it("keeps a note the user converted to CRLF in CRLF", () => {
		const existing = `---\r\nsession_id: s1\r\ntags:\r\n  - ai/x\r\n---\r\n${B}\r\nold\r\n${E}\r\nmine\r\n`;
		expect(merged(existing, "a\nb\n")).toBe(`---\r\nsession_id: s1\r\ntags:\r\n  - ai/x\r\n---\r\n${B}\r\na\r\nb\r\n${E}\r\nmine\r\n`);
	});

	it("keeps each property line of the person's with its own ending when the note's lines mix them (round 48b: the first line's was given to all)", () => {
		// A CRLF note whose first line ends in LF: ours take the first line's ending, the person's keep theirs, the last one's before `---` too.
		const existing = `---\nsession_id: s1\r\nrating: 5\r\n# why\nmine: yes\r\ntags:\r\n  - ai/x\r\nmood: calm\r\n---\r\n${B}\r\nold\r\n${E}\r\n`;
		const text = merged(existing);
		expect(text).toBe(`---\nsession_id: s1\ntags:\n  - ai/x\nrating: 5\r\n# why\nmine: yes\r\nmood: calm\r\n---\n${B}\r\nnew body\r\n${E}\r\n`);
		// Merged again, nothing changes.
		expect(merged(text)).toBe(text);
		// An LF note whose last property line ends in CRLF keeps that CR too.
		expect(merged(`---\nsession_id: s1\nmood: calm\r\n---\n${B}\nold\n${E}\n`)).toBe(`---\nsession_id: s1\ntags:\n  - ai/x\nmood: calm\r\n---\n${B}\nnew body\n${E}\n`);
	});

	it("refuses, with a reason, a note whose markers were removed or broken", () => {
		expect(mergeNote(`${fm("")}no markers any more\n`, fm(""), "x")).toEqual({ ok: false, reason: "its generated region markers were removed; it is left as you edited it", markersRemoved: true });
		const broken = mergeNote(`${fm("")}${B}\nbody\n`, fm(""), "x");
		expect(broken.ok).toBe(false);
		expect(!broken.ok && broken.reason).toBe(`it has ${B} without ${E} at line 1; it is left as it is, and updated once its markers are put right`);
	});

	it("leaves a note whose properties a person broke as it is, and says why: the rewrite dropped or moved what they wrote", () => {
		const reason = (existing: string) => {
			const r = mergeNote(existing, fm("  - ai/x\n"), "x");
			return r.ok ? "merged" : r.reason;
		};
		const body = `${B}\nold\n${E}\nmine\n`;
		// Not closed: the whole note went below new properties, the person's as text.
		expect(reason(`---\nsession_id: s1\nrating: 5\n${body}`)).toBe("its properties are not closed (no `---` line after them); it is left as it is, and updated once they are put right");
		// One of ours twice: the person's second `session_id` was dropped.
		expect(reason(`---\nsession_id: s1\nsession_id: mine\n---\n${body}`)).toBe("its properties hold `session_id` twice; it is left as it is, and updated once they are put right");
		expect(reason(`---\nsession_id: s1\nrating: 5\nrating: 4\n---\n${body}`)).toMatch(/^its properties are not valid YAML \(Map keys must be unique\); it is left/);
		expect(reason(`---\nsession_id: s1\nmine:\n\t- x\n---\n${body}`)).toMatch(/^its properties are not valid YAML \(.+\); it is left/);
		expect(reason(`---\nsession_id: s1\nmine: [open\n---\n${body}`)).toMatch(/^its properties are not valid YAML \(.+\); it is left/);
		// A property whose name is still being typed, after ours: it went with ours.
		expect(reason(`---\nsession_id: s1\ntags:\n  - ai/x\nrat\n---\n${body}`)).toMatch(/^its properties are not valid YAML \(.+\); it is left/);
		// Broken only in what we write (an older release's unquoted `@`): ours is replaced, nothing of theirs lost.
		expect(reason(`---\nsession_id: s1\ntags:\n  - @src fix\nrating: 5\n---\n${body}`)).toBe("merged");
		// A property too large to parse is kept as it is, and the note updated.
		expect(reason(`---\nsession_id: s1\nbig: ${"x".repeat(40_000)}\n---\n${body}`)).toBe("merged");
	});

	it("puts no NUL, terminal escape or bidirectional override of a transcript into the note, and leaves the user's text alone", () => {
		const body = "Asked: fix\u0000 it \u001b]0;pwned\u0007now \u001b[31mred\u001b[0m \u202egnp.exe\u202c\n";
		expect(mergeNote(null, fm(""), body)).toEqual({ ok: true, text: `${fm("")}${B}\nAsked: fix it now red gnp.exe\n${E}\n` });
		const mine = `${fm("")}${B}\nold\n${E}\nmine \u001b[1mbold\u001b[0m\n`;
		expect(mergeNote(mine, fm(""), body)).toEqual({ ok: true, text: `${fm("")}${B}\nAsked: fix it now red gnp.exe\n${E}\nmine \u001b[1mbold\u001b[0m\n` });
	});

	it("changes nothing when nothing changed", () => {
		const once = merged(null);
		expect(merged(once)).toBe(once);
	});
});

describe("only the keys a note type writes are the sync's", () => {
	it("keeps a person's `type`, `updated`, `sessions`, `previous`, `next` and YAML comments in a session note", () => {
		const ours = "---\nsession_id: s1\ntags:\n  - ai/x\n---\n";
		const first = mergeNote(null, ours, "body");
		if (!first.ok) throw new Error(first.reason);
		const edited = first.text.replace("---\nsession_id: s1\n", "---\n# my comment\nsession_id: s1\ntype: meeting\nupdated: 2026-01-01\nsessions: 3\nprevious: \"[[A]]\"\nnext: \"[[B]]\"\n");
		const again = mergeNote(edited, "---\nsession_id: s1\ntags:\n  - ai/y\n---\n", "body 2", SESSION_NOTE_KEYS);
		if (!again.ok) throw new Error(again.reason);
		for (const line of ["# my comment", "type: meeting", "updated: 2026-01-01", "sessions: 3", 'previous: "[[A]]"', 'next: "[[B]]"']) expect(again.text).toContain(`${line}\n`);
		expect(again.text).toContain("  - ai/y\n");
		expect(again.text).not.toContain("ai/x");
		// A generated key this render leaves out (no branch now) is still ours, not kept as the user's.
		const withBranch = edited.replace("session_id: s1\n", "session_id: s1\nbranch: old\n");
		const third = mergeNote(withBranch, "---\nsession_id: s1\n---\n", "body 3", SESSION_NOTE_KEYS);
		expect(third.ok && third.text.includes("branch: old")).toBe(false);
		expect(third.ok && third.text.includes(NOTE_MARKERS.begin)).toBe(true);
	});
});

describe("a person's properties in every YAML shape (attack round 48b)", () => {
	const ours = `---\nsession_id: s1\ntags:\n  - ai/x\naliases:\n  - Title\n---\n`;
	const again = (existing: string) => {
		const r = mergeNote(existing, ours, "new\n");
		if (!r.ok) throw new Error(r.reason);
		return r.text;
	};

	it("keeps a key that starts with `-` below one of ours (it went with ours)", () => {
		const out = again(`---\nsession_id: s1\n-draft: yes\ntags:\n  - ai/x\n---\n${B}\nold\n${E}\n`);
		expect(out).toContain("-draft: yes\n");
		expect(again(out)).toBe(out);
	});

	it("keeps a comment indented among the items of one of ours, and one indented between properties", () => {
		const out = again(`---\nsession_id: s1\n  # why this session matters\ntags:\n  - ai/x\n  # my tag comment\naliases:\n  - Title\n---\n${B}\nold\n${E}\n`);
		expect(out).toContain("  # why this session matters\n");
		expect(out).toContain("  # my tag comment\n");
		expect(again(out)).toBe(out);
	});

	it("reads a tag typed without indent below indented ones (YAML that cannot be read): it is kept, not dropped", () => {
		const note = `---\nsession_id: s1\ntags:\n  - ai/x\n- mine\n# a comment\n- also-mine\n---\n${B}\nold\n${E}\n`;
		expect(tagsInNote(note)).toEqual(["ai/x", "mine", "also-mine"]);
	});
});

describe("holdsOnlyGenerated", () => {
	const ours = (t: string) => t.startsWith("ai/");
	const note = `---\nsession_id: s1\naliases:\n  - Title\ntags:\n  - ai/x\n---\n${B}\nbody\n\n\`\`\`\ncode\n\`\`\`\n${E}\n`;

	it("is true of a note as the sync wrote it (an empty line after the region too)", () => {
		expect(holdsOnlyGenerated(note, ours)).toBe(true);
		expect(holdsOnlyGenerated(`${note}\n`, ours)).toBe(true);
	});

	it("is false as soon as anything in it is a person's: text before or after the region (code too), a property, a comment, a tag, an alias", () => {
		for (const text of [
			`${note}My notes\n`,
			`${note}\`\`\`\nmine\n\`\`\`\n`,
			note.replace(`---\n${B}`, `---\nIntro\n${B}`),
			note.replace("tags:", "rating: 5\ntags:"),
			note.replace("tags:", "# mine\ntags:"),
			note.replace("  - ai/x\n", "  - ai/x\n  - work\n"),
			note.replace("  - Title\n", "  - Title\n  - Other name\n"),
			`${B}\nbody\n${E}\n`,
			note.replace(`${E}\n`, ""),
		]) expect(holdsOnlyGenerated(text, ours), text).toBe(false);
	});
});

describe("generatedProperty", () => {
	it("reads a property of a note with our generated region, quoted or not, and of no note of the user's", () => {
		expect(generatedProperty(`---\nsession_id: "s1"\ntype: ai-project-index\n---\n${B}\nx\n${E}\n`, "session_id")).toBe("s1");
		expect(generatedProperty(`---\nsession_id: "s1"\ntype: ai-project-index\n---\n${B}\nx\n${E}\n`, "type")).toBe("ai-project-index");
		expect(generatedProperty("---\nsession_id: s1\n---\nMy review.\n", "session_id")).toBeUndefined();
		expect(generatedProperty(`${B}\nsession_id: s1\n`, "session_id")).toBeUndefined();
		expect(generatedProperty(null, "type")).toBeUndefined();
	});
});
