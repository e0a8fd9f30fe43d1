import { describe, expect, it } from "vitest";
import { commandsOf, gitCommand, programAt, shellParts, withoutRedirects } from "../../../src/core/text/shell-parts";

describe("commandsOf", () => {
	it("keeps a redirection that joins or sends output by number in its command", () => {
		expect(shellParts("make check 2>&1 | tail -n 5")).toEqual([["make", "check", "2>&1"], ["tail", "-n", "5"]]);
		expect(shellParts("./build.sh >&2 && echo ok")).toEqual([["./build.sh", ">&2"], ["echo", "ok"]]);
		expect(shellParts("./serve &>server.log & sleep 1")).toEqual([["./serve", "&>server.log"], ["sleep", "1"]]);
		expect(commandsOf("go vet 2>&1")[0]?.[2]).toEqual({ text: "2>&1", plain: false });
	});

	it("reads a line of thousands of redirections in one pass", () => {
		const started = performance.now();
		expect(commandsOf(`x${">&".repeat(100_000)}`)).toHaveLength(1);
		expect(performance.now() - started).toBeLessThan(2500);
	});
});

describe("withoutRedirects", () => {
	it("leaves out redirections and the target of one that ends on its operator", () => {
		const [words = []] = commandsOf("sort names.txt > sorted.txt 2>/dev/null &>>all.log uniq.txt");
		expect(withoutRedirects(words).map((w) => w.text)).toEqual(["sort", "names.txt", "uniq.txt"]);
	});
});

describe("programAt", () => {
	it("finds the program after the wrappers that run it and the variables set for it", () => {
		const at = (line: string) => {
			const [words = []] = shellParts(line);
			return words[programAt(words)];
		};
		expect(at("sudo -E timeout 30 make install")).toBe("make");
		expect(at('env NODE_ENV=test DEBUG="a b" npx vitest')).toBe("npx");
		expect(at("CI=1 cargo test")).toBe("cargo");
		expect(at("ls")).toBe("ls");
		expect(at("FOO=1")).toBeUndefined();
	});
});

describe("gitCommand", () => {
	it("finds the subcommand after git's own options, and the folders -C names", () => {
		const words = ["sudo", "git", "-C", "web", "-c", "core.pager=cat", "--no-pager", "-C", "app", "push", "origin"];
		expect(gitCommand(words)).toEqual({ sub: 9, folders: ["web", "app"] });
		expect(gitCommand(["/usr/bin/git", "status"])).toEqual({ sub: 1, folders: [] });
		expect(gitCommand(["echo", "git", "push"])).toBeUndefined();
	});
});
