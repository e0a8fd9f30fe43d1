import { describe, expect, it } from "vitest";
import { removedBy, removedForGood, removedLater, stillHolding } from "../../../src/core/digest/removed-files";
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

describe("removedForGood", () => {
	const files = ["/proj/tools/probe.sh", "/proj/docs/probe.sh", "/proj/src/app.ts"];

	it("names the written files whose last word is a removal, by the path the command gave", () => {
		expect(removedForGood([write("/proj/tools/probe.sh"), bash("rm -f tools/probe.sh")], files)).toEqual(["/proj/tools/probe.sh"]);
		expect(removedForGood([bash("git rm /proj/src/app.ts")], files)).toEqual(["/proj/src/app.ts"]);
	});

	it("takes a relative path from the folder the same line changed to, not any file of that name", () => {
		expect(removedForGood([bash("cd /proj/docs && rm probe.sh")], files)).toEqual(["/proj/docs/probe.sh"]);
		// With no folder to go by, a name two written files have names neither for sure: both stay.
		expect(removedForGood([bash("rm probe.sh")], files)).toEqual([]);
		expect(removedForGood([bash("rm tools/probe.sh")], files)).toEqual(["/proj/tools/probe.sh"]);
	});

	it("keeps a file written again, named again by a later command, or whose removal failed", () => {
		expect(removedForGood([bash("rm /proj/src/app.ts"), write("/proj/src/app.ts")], files)).toEqual([]);
		expect(removedForGood([bash("rm src/app.ts"), bash("git restore src/app.ts")], files)).toEqual([]);
		expect(removedForGood([bash("rm /proj/src/app.ts", true)], files)).toEqual([]);
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
