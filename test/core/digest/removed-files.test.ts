import { describe, expect, it } from "vitest";
import { removedBy, removedLater, stillHolding } from "../../../src/core/digest/removed-files";
import type { ToolCall } from "../../../src/core/transcript/session-model";

const ok = { text: "", isError: false };
const write = (file_path: string): ToolCall => ({ id: "", name: "Write", input: { file_path }, result: ok });
const bash = (command: string, isError = false): ToolCall => ({ id: "", name: "Bash", input: { command }, result: { text: "", isError } });

describe("removedBy", () => {
	it("names the files each rm or git rm of a line removes, flags and globs left out", () => {
		expect(removedBy("cd /srv/app && rm -f notes/plan.md 'draft.txt'")).toEqual(["plan.md", "draft.txt"]);
		expect(removedBy("git rm --cached build.log; echo done")).toEqual(["build.log"]);
		expect(removedBy("python3 gen.py && rm gen.py")).toEqual(["gen.py"]);
		expect(removedBy("rm *.tmp")).toEqual([]);
		expect(removedBy("npm run format")).toEqual([]);
	});
});

describe("removedLater", () => {
	it("tells each task the files a later task removed for good", () => {
		const tasks = [[write("/home/u/guide.md")], [write("/home/u/summary.md")], [bash("rm /home/u/guide.md /home/u/summary.md")]];
		expect(removedLater(tasks)).toEqual([["guide.md", "summary.md"], ["guide.md", "summary.md"], []]);
	});

	it("forgets a removal that failed, or that a later write or a command naming the file undid", () => {
		expect(removedLater([[write("/a/x.md")], [bash("rm /a/x.md", true)]])).toEqual([[], []]);
		expect(removedLater([[write("/a/x.md")], [bash("rm /a/x.md")], [write("/a/x.md")]])).toEqual([[], [], []]);
		expect(removedLater([[write("/a/vendor.lock")], [bash("git rm vendor.lock")], [bash("git checkout HEAD~1 -- vendor.lock")]])).toEqual([[], [], []]);
	});
});

describe("stillHolding", () => {
	it("drops a whole account of work whose files were all removed since", () => {
		expect(stillHolding(["Wrote the release checklist to `RELEASE.md`.", "It has a section per platform."], ["/repo/RELEASE.md"], ["RELEASE.md"])).toEqual([]);
	});

	it("keeps what a reply said of a file still there, without what it said of a removed one", () => {
		const results = ["Added retries to `client.ts`.", "Wrote `probe.sh` to reproduce the timeout."];
		expect(stillHolding(results, ["/repo/client.ts", "/repo/probe.sh"], ["probe.sh"])).toEqual(["Added retries to `client.ts`."]);
		expect(stillHolding(results, ["/repo/client.ts"], [])).toEqual(results);
	});
});
