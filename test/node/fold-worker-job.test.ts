import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runFoldJob } from "../../src/node/fold-worker-job";
import { readPacked } from "../../src/node/model-pack";
import { jsonl, userText } from "../fixtures/lines";

const SECRET = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx";
let dir: string;
beforeEach(async () => {
	dir = await mkdtemp(join(tmpdir(), "fold-job-"));
});
afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

describe("runFoldJob", () => {
	it("redacts a sub-agent's meta.json description, in what it returns and what it stores", async () => {
		const path = join(dir, "agent-a1.jsonl");
		const metaPath = join(dir, "agent-a1.meta.json");
		await writeFile(path, jsonl([userText("Check the webhook", { isSidechain: true, agentId: "a1" })]));
		await writeFile(metaPath, JSON.stringify({ agentType: "Explore", description: `Check the ${SECRET} webhook` }));
		const packTo = join(dir, "models");
		const file = { path, projectDir: "-r-app", kind: "subagent" as const, fileId: "agent-a1", agentId: "a1", metaPath, size: 1, mtimeMs: 0, ino: 0 };
		const result = await runFoldJob({ id: 1, file, spec: { enabled: true, extraPatterns: [], offFor: [] }, packTo });
		expect(result.saved?.meta).toEqual({ agentType: "Explore", description: "Check the [redacted:slack-token] webhook", worktreePath: undefined });
		const stored = await readPacked(packTo, result.saved!.at!);
		expect((JSON.parse(stored) as { meta: { description: string } }).meta.description).toBe("Check the [redacted:slack-token] webhook");
		expect(await readFile(join(packTo, result.saved!.at!.pack), "utf8")).not.toContain(SECRET);
	});
});
