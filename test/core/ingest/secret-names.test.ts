import { describe, expect, it } from "vitest";
import { setApartSecretNames } from "../../../src/core/ingest/secret-names";
import { createRedactor } from "../../../src/core/digest/redact";
import type { TranscriptFile } from "../../../src/core/transcript/transcript-files";

const TOKEN = `ghp_${"a1B2c3D4e5".repeat(3)}abcdef`;
const redactor = createRedactor({ extraPatterns: [] });
const redact = (text: string) => redactor.redact(text);

function file(path: string, fileId: string, extra: Partial<TranscriptFile> = {}): TranscriptFile {
	return { path, agent: "claude-code", projectDir: "-home-u-app", kind: "session", fileId, size: 1, mtimeMs: 1, ino: 1, ...extra };
}

describe("setApartSecretNames", () => {
	it("passes over a transcript whose name, id or parent session holds a token, named redacted; keeps the agents' own names", () => {
		const files = [
			file("/c/projects/-home-u-app/0f0f0f0f-0000-4000-8000-000000000001.jsonl", "0f0f0f0f-0000-4000-8000-000000000001"),
			file(`/c/projects/-home-u-app/${TOKEN}.jsonl`, TOKEN),
			file(`/c/projects/-home-u-app/${TOKEN}/subagents/agent-a1b2.jsonl`, "agent-a1b2", { kind: "subagent", parentSessionId: TOKEN }),
			file("/x/sessions/2026/12/04/rollout-2026-12-04T10-00-00-0f0f0f0f-0000-4000-8000-000000000002.jsonl", "0f0f0f0f-0000-4000-8000-000000000002", { agent: "codex" }),
			file("/g/tmp/app/chats/session-2026-12-04T10-00-ab12cd34.jsonl", "ab12cd34-0000", { agent: "gemini-cli" }),
			file("/p/session-state/4c1e/events.jsonl", "4c1e-a", { agent: "copilot-cli" }),
		];
		const { kept, passed } = setApartSecretNames(files, () => redact);
		expect(kept.map((f) => f.fileId)).toEqual(["0f0f0f0f-0000-4000-8000-000000000001", "0f0f0f0f-0000-4000-8000-000000000002", "ab12cd34-0000", "4c1e-a"]);
		expect(passed).toHaveLength(2);
		for (const p of passed) {
			expect(p.path).not.toContain(TOKEN);
			expect(p.reason).toContain("rename the file");
		}
	});

	it("tells no one to rename a session of a store of several (an opencode database row): there is no file of its own", () => {
		const row = file(`/d/opencode/opencode.db#ses_${TOKEN}`, `ses_${TOKEN}`, { agent: "opencode", container: "1:2:3" });
		const [passed] = setApartSecretNames([row], () => redact).passed;
		expect(passed?.path).not.toContain(TOKEN);
		expect(passed?.reason).not.toContain("rename");
		expect(passed?.reason).toContain("it is not read");
	});

	it("reads them all when redaction is off for the project", () => {
		const files = [file(`/c/projects/-home-u-app/${TOKEN}.jsonl`, TOKEN)];
		expect(setApartSecretNames(files, () => (text) => text).kept).toEqual(files);
	});
});
