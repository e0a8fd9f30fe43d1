import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, utimesSync, writeFileSync, writeSync } from "node:fs";
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

	it("a last line whole but without its newline, written a moment ago, is taken by the same read once it has settled: a sync right after a rewrite in place tells what the file holds now", async () => {
		const path = join(root, "s.jsonl");
		writeFileSync(path, '{"n":1}\n{"n":2}\n');
		utimesSync(path, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
		const source = nodeTranscriptSource(root);
		const seen: (string | null)[] = [];
		const onLines = (lines: { text: string | null }[]): void => void seen.push(...lines.map((l) => l.text));
		const first = await source.readAppended(path, undefined, onLines, () => seen.splice(0));
		expect(seen).toEqual(['{"n":1}', '{"n":2}']);
		// Rewritten in place, shorter, its one line without a newline, and read at once.
		const fd = openSync(path, "r+");
		ftruncateSync(fd, 0);
		writeSync(fd, '{"n":3}', 0);
		closeSync(fd);
		const again = await source.readAppended(path, first.cursor, onLines, () => seen.splice(0));
		expect(seen).toEqual(['{"n":3}']);
		expect(again.cursor.settling).toBeUndefined();
	});
});
