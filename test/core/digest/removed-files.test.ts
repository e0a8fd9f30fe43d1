import { describe, expect, it } from "vitest";
import { removedBy, removedLater, stillHolding, touchedAtEnd } from "../../../src/core/digest/removed-files";
import type { ToolCall } from "../../../src/core/transcript/session-model";

const ok = { text: "", isError: false };
const write = (file_path: string): ToolCall => ({ id: "", name: "Write", input: { file_path }, result: ok });
const bash = (command: string, isError = false): ToolCall => ({ id: "", name: "Bash", input: { command }, result: { text: "", isError } });

describe("removedBy", () => {
	it("names the files each rm or git rm of a line removes, flags and globs left out", () => {
		expect(removedBy("cd /srv/app && rm -f notes/plan.md 'draft.txt'")).toEqual(["plan.md", "draft.txt"]);
		expect(removedBy("git rm build.log; echo done")).toEqual(["build.log"]);
		expect(removedBy("env GIT_TRACE=0 git -C web rm -q --force old.css 2>&1")).toEqual(["old.css"]);
		expect(removedBy("python3 gen.py && rm gen.py")).toEqual(["gen.py"]);
		expect(removedBy("rm *.tmp")).toEqual([]);
		expect(removedBy("npm run format")).toEqual([]);
	});

	it("does not count what git rm --cached stops tracking: the file stays", () => {
		expect(removedBy("git rm --cached build.log; echo done")).toEqual([]);
		expect(removedBy("git rm -r --cached -- .env.local")).toEqual([]);
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
	it("looks for the files removed so far in each command in linear time, however many", () => {
		const n = 20_000;
		const calls = [...Array.from({ length: n }, (_, i) => bash(`rm tmp/scratch${i}.json`)), bash("touch scratch7.json scratch70.jsonl")];
		const started = performance.now();
		const removed = removedLater([[write("/w/keep.ts")], calls]);
		expect(performance.now() - started).toBeLessThan(7500);
		expect(removed[0]).toHaveLength(n - 1);
		expect(removed[0]).not.toContain("scratch7.json");
		expect(removed[0]).toContain("scratch70.json");
	});
});

describe("touchedAtEnd", () => {
	const files = ["/proj/tools/probe.sh", "/proj/docs/probe.sh", "/proj/src/app.ts"];
	const without = (...gone: string[]) => files.filter((f) => !gone.includes(f));

	it("leaves out the written files whose last word is a removal, by the path the command gave", () => {
		expect(touchedAtEnd([write("/proj/tools/probe.sh"), bash("rm -f tools/probe.sh")], files)).toEqual(without("/proj/tools/probe.sh"));
		expect(touchedAtEnd([bash("git rm /proj/src/app.ts")], files)).toEqual(without("/proj/src/app.ts"));
	});

	it("takes a relative path from the folder the same line changed to, not any file of that name", () => {
		expect(touchedAtEnd([bash("cd /proj/docs && rm probe.sh")], files)).toEqual(without("/proj/docs/probe.sh"));
		// With no folder to go by, a name two written files have names neither for sure: both stay.
		expect(touchedAtEnd([bash("rm probe.sh")], files)).toEqual(files);
		expect(touchedAtEnd([bash("rm tools/probe.sh")], files)).toEqual(without("/proj/tools/probe.sh"));
		// A call run in a folder of its own (Codex's workdir) takes relative paths from it.
		const shell = (command: string, workdir: string): ToolCall => ({ id: "", name: "Bash", input: { command, workdir }, result: ok });
		expect(touchedAtEnd([shell("rm probe.sh", "/proj/docs")], files)).toEqual(without("/proj/docs/probe.sh"));
		expect(touchedAtEnd([shell("mv app.ts main.ts", "/proj/src")], files)).toEqual(["/proj/tools/probe.sh", "/proj/docs/probe.sh", "/proj/src/main.ts"]);
		// A folder not given in full leaves where relative paths lead not known, as a `cd` to one does: not the session's own folder.
		expect(touchedAtEnd([shell("mv notes.txt summary.txt", "docs")], files, "/proj")).toEqual(files);
		expect(touchedAtEnd([shell("rm -r tools", "src/..")], files, "/proj")).toEqual(files);
		// After a change to a folder not given in full, where a relative path leads is not known.
		expect(touchedAtEnd([bash("cd docs && rm ../src/app.ts")], files)).toEqual(files);
	});

	it("keeps a file written again, named again by a later command, or whose removal failed", () => {
		expect(touchedAtEnd([bash("rm /proj/src/app.ts"), write("/proj/src/app.ts")], files)).toEqual(files);
		expect(touchedAtEnd([bash("rm src/app.ts"), bash("git restore src/app.ts")], files)).toEqual(files);
		expect(touchedAtEnd([bash("rm /proj/src/app.ts", true)], files)).toEqual(files);
	});

	it("leaves out the written files under a folder removed with all it holds", () => {
		const written = ["/w/site/drafts/intro.md", "/w/site/drafts/img/cover.svg", "/w/site/index.md"];
		expect(touchedAtEnd([bash("rm -rf site/drafts/")], written)).toEqual(["/w/site/index.md"]);
		expect(touchedAtEnd([bash('git rm -r --quiet "/w/site/drafts"')], written)).toEqual(["/w/site/index.md"]);
		// Without -r, rm removes no folder: the files stay.
		expect(touchedAtEnd([bash("rm site/drafts")], written)).toEqual(written);
	});

	it("tells a moved file by its new name, the old one no more", () => {
		const written = ["/w/lib/parse.ts", "/w/README.md"];
		expect(touchedAtEnd([bash("git mv lib/parse.ts lib/parser.ts")], written)).toEqual(["/w/lib/parser.ts", "/w/README.md"]);
		expect(touchedAtEnd([bash("cd /w && mkdir -p docs && mv -v README.md 'docs/'")], written)).toEqual(["/w/lib/parse.ts", "/w/docs/README.md"]);
		// A file the session did not write, renamed inside the project, is its work too.
		expect(touchedAtEnd([bash("git mv src/old-name.ts src/new-name.ts")], written, "/w")).toEqual([...written, "/w/src/new-name.ts"]);
		// Moved out of the project, it is gone from it; a relative target is taken from where the session ran.
		expect(touchedAtEnd([bash("mv /w/README.md /tmp/README.md")], written, "/w")).toEqual(["/w/lib/parse.ts"]);
		expect(touchedAtEnd([bash("mv /w/README.md GUIDE.md")], written, "/w")).toEqual(["/w/lib/parse.ts", "/w/GUIDE.md"]);
		// Written again under the old name after the move: both are there.
		expect(touchedAtEnd([bash("mv /w/README.md /w/GUIDE.md"), write("/w/README.md")], written)).toEqual(["/w/lib/parse.ts", "/w/GUIDE.md", "/w/README.md"]);
	});

	it("keeps a file git rm --cached only stopped tracking", () => {
		expect(touchedAtEnd([bash("git rm --cached /proj/src/app.ts && echo 'src/app.ts' >> .gitignore")], files)).toEqual(files);
	});

	it("takes the files a folder move carried to their new place", () => {
		const written = ["/w/pkg/legacy/io.py", "/w/pkg/legacy/sub/fmt.py", "/w/pkg/legacy.md", "/w/notes.md"];
		const after = (...paths: string[]) => [...paths, "/w/pkg/legacy.md", "/w/notes.md"];
		// To a new name: the folder is renamed.
		expect(touchedAtEnd([bash("git mv pkg/legacy pkg/compat")], written, "/w")).toEqual(after("/w/pkg/compat/io.py", "/w/pkg/compat/sub/fmt.py"));
		expect(touchedAtEnd([bash("cd /w/pkg && mv ./legacy/ old")], written, "/w")).toEqual(after("/w/pkg/old/io.py", "/w/pkg/old/sub/fmt.py"));
		// Into a folder known to be there (made, `.`, or holding the session's files): the folder goes inside it.
		expect(touchedAtEnd([bash("mkdir -p -m 755 /w/attic && mv /w/pkg/legacy /w/attic")], written, "/w")).toEqual(after("/w/attic/legacy/io.py", "/w/attic/legacy/sub/fmt.py"));
		expect(touchedAtEnd([bash("cd /w && mv pkg/legacy .")], written, "/w")).toEqual(after("/w/legacy/io.py", "/w/legacy/sub/fmt.py"));
		expect(touchedAtEnd([bash("mv /w/pkg/legacy/sub /w/pkg")], written, "/w")).toEqual(after("/w/pkg/legacy/io.py", "/w/pkg/sub/fmt.py"));
		// Out of the project: gone from it.
		expect(touchedAtEnd([bash("mv /w/pkg/legacy /tmp/legacy-backup")], written, "/w")).toEqual(["/w/pkg/legacy.md", "/w/notes.md"]);
	});

	it("changes nothing for a folder move whose target could be a new name or a folder there", () => {
		const written = ["/w/pkg/legacy/io.py", "/w/notes.md"];
		for (const line of ["mv /w/pkg/legacy /w/archive/", "mv /w/pkg/legacy /w/pkg/legacy/inner", "mv /w/pkg/legacy $TARGET"]) {
			expect(touchedAtEnd([bash(line)], written, "/w"), line).toEqual(written);
		}
		// No file moved is made up for a folder moved into another.
		expect(touchedAtEnd([bash("mv pkg/legacy backups/")], written, "/w")).toEqual(written);
	});

	it("changes nothing for a move it cannot be sure of", () => {
		const written = ["/w/lib/parse.ts"];
		for (const line of ["mv lib/parse.ts lib/legacy", "mv lib/parse.ts $DEST/parse.ts", "mv lib/*.ts old/", "mv a.ts lib/parse.ts old/", "echo 'mv lib/parse.ts x.ts'", "cat <<EOF\nmv lib/parse.ts x.ts\nEOF", "mv -t old/ lib/parse.ts", "if [ -d lib ]; then cd lib; fi; mv parse.ts x.ts"]) {
			expect(touchedAtEnd([bash(line)], written, "/w"), line).toEqual(written);
		}
		expect(touchedAtEnd([bash("mv lib/parse.ts lib/parse2.ts", true)], written)).toEqual(written);
	});

	it("reads a long command in one pass", () => {
		const long = `mv "${"a".repeat(50_000)}.ts" '${"b ".repeat(25_000)}.ts'`;
		const started = performance.now();
		expect(touchedAtEnd([bash(long), bash(`rm -r ${"x/".repeat(50_000)}`), bash(`${"'".repeat(100_000)}`)], ["/w/lib/parse.ts"])).toEqual(["/w/lib/parse.ts"]);
		expect(performance.now() - started).toBeLessThan(2500);
	});

	it("follows thousands of moves and removals in linear time, each compared with the files it may name", () => {
		const n = 20_000;
		const written = Array.from({ length: n }, (_, i) => `/w/gen/part${i}.ts`);
		const calls = [...Array.from({ length: n }, (_, i) => bash(`mv gen/part${i}.ts gen/piece${i}.ts`)), ...Array.from({ length: n }, (_, i) => bash(`mv gen/new${i}.ts gen/old${i}.ts`)), ...Array.from({ length: n / 2 }, (_, i) => bash(`rm gen/piece${2 * i}.ts`))];
		const started = performance.now();
		const touched = touchedAtEnd(calls, written, "/w");
		expect(performance.now() - started).toBeLessThan(7500);
		expect(touched).toHaveLength(n / 2 + n);
		expect(touched.slice(0, 2)).toEqual(["/w/gen/piece1.ts", "/w/gen/piece3.ts"]);
		expect(touched.at(-1)).toBe(`/w/gen/old${n - 1}.ts`);
	});
	it("reads thousands of moves and removals of a folder of thousands of files, or onto one path, in linear time", () => {
		const n = 20_000;
		const written = Array.from({ length: n }, (_, i) => `/w/big/f${i}.ts`);
		const sessions: [(i: number) => string, number][] = [
			[(i) => (i % 2 === 0 ? "mv /w/big /w/huge" : "mv huge big"), n],
			[() => "rm -r big", 0],
			[(i) => `mv /w/big/f${i}.ts /w/one.ts`, 1],
			[() => "mv /w/draft.ts /w/final.ts", n + 1],
		];
		const started = performance.now();
		for (const [line, left] of sessions) expect(touchedAtEnd(Array.from({ length: n }, (_, i) => bash(line(i))), written, "/w")).toHaveLength(left);
		expect(performance.now() - started).toBeLessThan(20_000);
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
