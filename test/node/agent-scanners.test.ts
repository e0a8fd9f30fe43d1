import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scanCodex, scanCopilot, scanGemini } from "../../src/node/agent-scanners";

const FIXTURES = join(__dirname, "..", "fixtures", "agents");

describe("scanCodex", () => {
	it("finds the rollouts under sessions/YYYY/MM/DD, named by their session id", async () => {
		const files = await scanCodex(join(FIXTURES, "codex", "0.171.0", "b-tool-call"));
		expect(files).toHaveLength(1);
		expect(files[0]).toMatchObject({ agent: "codex", kind: "session", fileId: "01a23243-6605-7bf0-a729-fbdb07820fd2", projectDir: "codex" });
		expect(files[0]!.size).toBeGreaterThan(0);
	});

	it("gives nothing for a folder that is not there", async () => {
		expect(await scanCodex(join(FIXTURES, "nowhere"))).toEqual([]);
	});
});

describe("scanGemini", () => {
	it("finds sessions and sub-agents per project, with the project's folder and each session's full id", async () => {
		const files = await scanGemini(join(FIXTURES, "gemini-cli", "0.61.0", "home"));
		const sessions = files.filter((f) => f.kind === "session");
		expect(sessions.length).toBeGreaterThanOrEqual(5);
		for (const f of files) expect(f.agent).toBe("gemini-cli");
		const demo = sessions.filter((f) => f.projectDir === "demo-project");
		expect(demo.every((f) => f.cwd === "/tmp/gemini-record/work/demo-project")).toBe(true);
		for (const f of sessions) expect(f.fileId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
		const agent = files.find((f) => f.kind === "subagent");
		expect(agent?.parentSessionId).toBe("f17111ec-2c36-47af-b37c-0cb47f648841");
		expect(sessions.some((s) => s.fileId === agent?.parentSessionId)).toBe(true);
	});
});

describe("scanCopilot", () => {
	it("finds session-state/<id>/events.jsonl, named by the session's id", async () => {
		const files = await scanCopilot(join(FIXTURES, "copilot-cli", "1.0.102", "c-resume"));
		expect(files).toHaveLength(1);
		expect(files[0]).toMatchObject({ agent: "copilot-cli", kind: "session", projectDir: "copilot" });
		expect(files[0]!.path.endsWith(`${files[0]!.fileId}/events.jsonl`)).toBe(true);
	});
});
