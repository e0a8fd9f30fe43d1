import { describe, expect, it } from "vitest";
import { renderProjectIndex } from "../../../src/core/notes/project-index-note";
import type { SessionRecord } from "../../../src/core/sync/sync-state";

function record(notePath: string, title: string, startedAt: string, tags: string[], prompts = 1): SessionRecord {
	return { project: "shop-api", notePath, digest: { title, startedAt, prompts } as SessionRecord["digest"], tags, keywords: [] };
}

describe("renderProjectIndex (rule 4: no inline tags)", () => {
	const records = [
		record("AI/shop-api/2026-11-29 Rate limiting", "Rate limiting", "2026-11-29T10:00:00Z", ["ai/project/shop-api", "ai/rate-limiting", "ai/typescript"], 2),
		record("AI/shop-api/2026-11-30 Webhooks", "Webhooks", "2026-11-30T10:00:00Z", ["ai/project/shop-api", "ai/webhook", "ai/mcp/github"]),
		record("AI/shop-api/2026-11-30 No topics", "No topics", "2026-11-30T09:00:00Z", ["ai/project/shop-api"]),
	];
	const { frontmatter, body } = renderProjectIndex("shop-api", "/home/me/shop-api", records, "ai/");

	it("lists the sessions, newest first, with their topics as plain words: no #tag in the body", () => {
		expect(body).not.toMatch(/#[\p{L}\p{N}_/-]/u);
		expect(body).toContain("- [[AI/shop-api/2026-11-30 Webhooks|Webhooks]] · 1 prompt · webhook, mcp/github\n");
		expect(body).toContain("- [[AI/shop-api/2026-11-29 Rate limiting|Rate limiting]] · 2 prompts · rate-limiting, typescript\n");
		expect(body).toContain("- [[AI/shop-api/2026-11-30 No topics|No topics]] · 1 prompt\n");
		expect(body.indexOf("Webhooks")).toBeLessThan(body.indexOf("Rate limiting"));
	});

	it("is tagged only as a project index, never with its sessions' topics", () => {
		expect(frontmatter).toContain("  - ai/project-index\n");
		expect(frontmatter).not.toContain("ai/webhook");
	});

	it("drops the prefix whatever it is, and works without one", () => {
		const plain = renderProjectIndex("shop-api", undefined, [record("n", "T", "2026-11-30", ["project/shop-api", "webhook"])], "");
		expect(plain.body).toContain("· 1 prompt · webhook\n");
		expect(plain.body).not.toMatch(/#[\p{L}\p{N}_/-]/u);
	});

	it("quotes the project's folder as one code span on one line: a line break in a transcript's cwd ran no ```dataviewjs", () => {
		const cwd = "/tmp/ev\n```dataviewjs\ndv.paragraph(1)\n```\n<iframe src=x>\n# Hijacked `x`";
		const { body: index } = renderProjectIndex("ev", cwd, records, "ai/");
		expect(index).toContain("Sessions in `` /tmp/ev␤```dataviewjs␤dv.paragraph(1)␤```␤<iframe src=x>␤# Hijacked `x` ``, newest first.\n");
		expect(index.split("\n").filter((line) => /^(?:```|<iframe|# Hijacked|dv\.)/.test(line))).toEqual([]);
	});
});
