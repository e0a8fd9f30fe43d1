import { describe, expect, it } from "vitest";
import { decisionRecords, recordBodies } from "../../../src/core/digest/recorded-decisions";
import type { ToolCall } from "../../../src/core/transcript/session-model";

let n = 0;
function call(name: string, input: Record<string, unknown>, isError = false): ToolCall {
	return { id: `t${++n}`, name, input, result: { isError, text: "" } };
}

describe("decisionRecords", () => {
	it("names each decision record written by its title, without its number", () => {
		const titles = decisionRecords([
			call("Write", { file_path: "/repo/docs/adr/0007-store-sessions-in-sqlite.md", content: "# ADR-007: Store sessions in SQLite\n\nStatus: accepted" }),
			call("Write", { file_path: "/repo/decisions/012-drop-the-cache.md", content: "# 12. Drop the read cache\n\nContext…" }),
			call("Write", { filePath: "/repo/ADR-3-queue.md", content: "Intro line\n\n## Use a queue for retries" }),
		]);
		expect(titles).toEqual(["Store sessions in SQLite", "Drop the read cache", "Use a queue for retries"]);
	});

	it("passes over what is no new record: an edit, a refused write, an index or a file outside a records folder", () => {
		const titles = decisionRecords([
			call("Edit", { file_path: "/repo/docs/adr/0007-store-sessions-in-sqlite.md", old_string: "a", new_string: "b" }),
			call("Write", { file_path: "/repo/docs/adr/0008-use-redis.md", content: "# Use Redis" }, true),
			call("Write", { file_path: "/repo/docs/adr/README.md", content: "# Decision records" }),
			call("Write", { file_path: "/repo/src/0001-setup.md", content: "# Set up the repo" }),
		]);
		expect(titles).toEqual([]);
	});
});

describe("recordBodies", () => {
	it("gives commit bodies as their sentences run, a list item's wrapped line joined to it", () => {
		const bodies = recordBodies([{ subject: "Harden the summary", body: "Fall back to the stored values when the\nlog was cleaned:\n- keep the run instead of zeroing\n  it, as before\n- log the fallback" }, { subject: "Bump" }], []);
		expect(bodies).toEqual(["Fall back to the stored values when the\nlog was cleaned:\n- keep the run instead of zeroing it, as before\n- log the fallback"]);
	});

	it("reads a pull request's description only when no commit said more than its subject", () => {
		const pr = { title: "Use a PAT", body: "- Use a PAT instead of the default token" };
		expect(recordBodies([{ subject: "Use a PAT" }], [pr])).toEqual(["- Use a PAT instead of the default token"]);
		expect(recordBodies([{ subject: "Use a PAT", body: "The default token triggers no workflow." }], [pr])).toEqual(["The default token triggers no workflow."]);
	});
});
