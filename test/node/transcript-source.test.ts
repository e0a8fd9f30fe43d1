import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { nodeTranscriptSource } from "../../src/node/transcript-source";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "transcript-source-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("nodeTranscriptSource", () => {
	it("names an agent's folder it cannot list (a link loop in it) and lists the other agents' sessions all the same", async () => {
		const claude = join(root, "claude", "projects");
		mkdirSync(join(claude, "-work-app"), { recursive: true });
		writeFileSync(join(claude, "-work-app", "aaaaaaaa-1111-4000-8000-000000000001.jsonl"), "{}\n");
		const opencode = join(root, "opencode");
		mkdirSync(opencode);
		// A database's log that leads back to itself (a database that is a link is passed over, unread).
		writeFileSync(join(opencode, "opencode.db"), "");
		symlinkSync("opencode.db-wal", join(opencode, "opencode.db-wal"));
		const source = nodeTranscriptSource(claude, undefined, () => ({ "claude-code": claude, opencode }));
		const found = await source.scan(new Map());
		expect(found.map((f) => f.fileId)).toEqual(["aaaaaaaa-1111-4000-8000-000000000001"]);
		expect(source.passedOver?.()).toEqual([{ path: opencode, reason: `not read this time: a link there leads back to itself (ELOOP) at ${join(opencode, "opencode.db-wal")}` }]);
	});
});
